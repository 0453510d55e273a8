import Foundation
import PolicyCore

/// Diagnostics in machine-readable formats: JSON (`policyc check --format json`), code scanning
/// (SARIF 2.1.0) and GitHub Actions workflow annotations.
package enum DiagnosticFormats {
  /// A file and its diagnostics.
  package typealias FileDiagnostics = (path: String, source: SourceFile, diagnostics: [Diagnostic])

  /// The JSON report of `policyc check` and `policyc analyze` (one line, without its newline):
  /// `{"files":[{"path","diagnostics":[...]}],"errorCount","warningCount"}`. `fileMembers` adds
  /// members to file number `index`'s object; `diagnosticMembers` to each diagnostic's.
  package static func json(
    _ files: [FileDiagnostics], errors: Int, warnings: Int,
    diagnosticMembers: (_ file: Int, _ diagnostic: Diagnostic, _ writer: inout JSONWriter) -> Void = { _, _, _ in },
    fileMembers: (_ file: Int, _ writer: inout JSONWriter) -> Void = { _, _ in }
  ) -> String {
    var writer = JSONWriter()
    writer.object {
      $0.key("files")
      $0.array {
        for (index, file) in files.enumerated() {
          $0.object {
            $0.key("path"); $0.string(file.path)
            $0.key("diagnostics")
            $0.array {
              for diagnostic in file.diagnostics {
                write(diagnostic, in: file.source, to: &$0) { diagnosticMembers(index, diagnostic, &$0) }
              }
            }
            fileMembers(index, &$0)
          }
        }
      }
      $0.key("errorCount"); $0.number(errors)
      $0.key("warningCount"); $0.number(warnings)
    }
    return writer.output
  }

  /// Writes one diagnostic as a JSON object: severity, code, domain, message, start and end
  /// (line, column, offset), help, notes and fix-its; `members` adds members at the end.
  ///
  /// ```
  /// {"severity","code","domain","message","line","column","endLine","endColumn","startOffset","endOffset",
  ///  "help":[STRING],
  ///  "notes":[{"message","line","column","endLine","endColumn","startOffset","endOffset"}],
  ///  "fixIts":[{"message","automatic","edits":[{"startOffset","endOffset","line","column","endLine","endColumn","replacement"}]}]}
  /// ```
  ///
  /// `help`, `notes` and `fixIts` are always present, empty when there are none.
  package static func write(
    _ diagnostic: Diagnostic, in source: SourceFile, to writer: inout JSONWriter,
    members: (inout JSONWriter) -> Void = { _ in }
  ) {
    writer.object {
      $0.key("severity"); $0.string(diagnostic.severity.rawValue)
      $0.key("code"); $0.string(diagnostic.code.rawValue)
      $0.key("domain"); $0.string(diagnostic.code.domain)
      $0.key("message"); $0.string(diagnostic.message)
      writeRange(diagnostic.range, in: source, to: &$0)
      $0.key("help")
      $0.array { for line in diagnostic.help { $0.string(line) } }
      $0.key("notes")
      $0.array {
        for note in diagnostic.notes {
          $0.object {
            $0.key("message"); $0.string(note.message)
            writeRange(note.range, in: source, to: &$0)
          }
        }
      }
      $0.key("fixIts")
      $0.array {
        for fixIt in diagnostic.fixIts {
          $0.object {
            $0.key("message"); $0.string(fixIt.message)
            $0.key("automatic"); $0.bool(fixIt.isAutomatic)
            $0.key("edits")
            $0.array {
              for edit in fixIt.edits {
                let start = source.location(of: edit.range.start)
                let end = source.location(of: edit.range.end)
                $0.object {
                  $0.key("startOffset"); $0.number(edit.range.start)
                  $0.key("endOffset"); $0.number(edit.range.end)
                  $0.key("line"); $0.number(start.line)
                  $0.key("column"); $0.number(start.column)
                  $0.key("endLine"); $0.number(end.line)
                  $0.key("endColumn"); $0.number(end.column)
                  $0.key("replacement"); $0.string(edit.replacement)
                }
              }
            }
          }
        }
      }
      members(&$0)
    }
  }

  /// Writes the members `line`, `column`, `endLine`, `endColumn`, `startOffset` and `endOffset` of `range`.
  static func writeRange(_ range: SourceRange, in source: SourceFile, to writer: inout JSONWriter) {
    let start = source.location(of: range.start)
    let end = source.location(of: range.end)
    writer.key("line"); writer.number(start.line)
    writer.key("column"); writer.number(start.column)
    writer.key("endLine"); writer.number(end.line)
    writer.key("endColumn"); writer.number(end.column)
    writer.key("startOffset"); writer.number(range.start)
    writer.key("endOffset"); writer.number(range.end)
  }

  /// A SARIF 2.1.0 log with one run of `policyc`: one rule per code used (its level the code's
  /// severity), one result per diagnostic. A diagnostic's notes become the result's
  /// `relatedLocations` and its fix-its the result's `fixes`, each edit a replacement of a byte
  /// region (`deletedRegion`: `byteOffset`, `byteLength`) by `insertedContent`.
  package static func sarif(_ files: [FileDiagnostics]) -> String {
    let codes = Set(files.flatMap { $0.diagnostics.map(\.code) }).sorted { $0.rawValue < $1.rawValue }
    var writer = JSONWriter()
    writer.object {
      $0.key("$schema"); $0.string("https://json.schemastore.org/sarif-2.1.0.json")
      $0.key("version"); $0.string("2.1.0")
      $0.key("runs")
      $0.array {
        $0.object {
          $0.key("tool")
          $0.object {
            $0.key("driver")
            $0.object {
              $0.key("name"); $0.string("policyc")
              $0.key("rules")
              $0.array {
                for code in codes {
                  $0.object {
                    $0.key("id"); $0.string(code.rawValue)
                    $0.key("name"); $0.string(ruleName(code))
                    $0.key("shortDescription")
                    $0.object {
                      $0.key("text"); $0.string(code.summary)
                    }
                    $0.key("defaultConfiguration")
                    $0.object {
                      $0.key("level"); $0.string(code.severity.rawValue)
                    }
                  }
                }
              }
            }
          }
          $0.key("results")
          $0.array {
            for file in files {
              for diagnostic in file.diagnostics {
                $0.object {
                  $0.key("ruleId"); $0.string(diagnostic.code.rawValue)
                  $0.key("level"); $0.string(diagnostic.severity.rawValue)
                  $0.key("message")
                  $0.object {
                    $0.key("text")
                    $0.string(([diagnostic.message] + diagnostic.help.map { "help: " + $0 }).joined(separator: "\n"))
                  }
                  $0.key("locations")
                  $0.array {
                    $0.object { writePhysicalLocation(diagnostic.range, in: file, to: &$0) }
                  }
                  if !diagnostic.notes.isEmpty {
                    $0.key("relatedLocations")
                    $0.array {
                      for (index, note) in diagnostic.notes.enumerated() {
                        $0.object {
                          $0.key("id"); $0.number(index)
                          $0.key("message")
                          $0.object {
                            $0.key("text"); $0.string(note.message)
                          }
                          writePhysicalLocation(note.range, in: file, to: &$0)
                        }
                      }
                    }
                  }
                  if !diagnostic.fixIts.isEmpty {
                    $0.key("fixes")
                    $0.array { for fixIt in diagnostic.fixIts { writeFix(fixIt, in: file, to: &$0) } }
                  }
                }
              }
            }
          }
        }
      }
    }
    return writer.output + "\n"
  }

  /// Writes the member `physicalLocation` of a SARIF location: the file and the region of `range`
  /// (at least one column wide, so an empty range still shows).
  static func writePhysicalLocation(_ range: SourceRange, in file: FileDiagnostics, to writer: inout JSONWriter) {
    let start = file.source.location(of: range.start)
    let end = file.source.location(of: max(range.end, range.start + 1))
    writer.key("physicalLocation")
    writer.object {
      $0.key("artifactLocation")
      $0.object {
        $0.key("uri"); $0.string(file.path)
      }
      $0.key("region")
      $0.object {
        $0.key("startLine"); $0.number(start.line)
        $0.key("startColumn"); $0.number(start.column)
        $0.key("endLine"); $0.number(end.line)
        $0.key("endColumn"); $0.number(end.line == start.line ? max(end.column, start.column + 1) : end.column)
      }
    }
  }

  /// Writes a fix-it as a SARIF `fix`: its message as the description, its edits as replacements
  /// of byte regions of the file.
  static func writeFix(_ fixIt: FixIt, in file: FileDiagnostics, to writer: inout JSONWriter) {
    writer.object {
      $0.key("description")
      $0.object {
        $0.key("text"); $0.string(fixIt.message)
      }
      $0.key("artifactChanges")
      $0.array {
        $0.object {
          $0.key("artifactLocation")
          $0.object {
            $0.key("uri"); $0.string(file.path)
          }
          $0.key("replacements")
          $0.array {
            for edit in fixIt.edits {
              $0.object {
                $0.key("deletedRegion")
                $0.object {
                  $0.key("byteOffset"); $0.number(edit.range.start)
                  $0.key("byteLength"); $0.number(edit.range.length)
                }
                $0.key("insertedContent")
                $0.object {
                  $0.key("text"); $0.string(edit.replacement)
                }
              }
            }
          }
        }
      }
    }
  }

  /// The code's case name in Pascal case, such as `UnknownName` (SARIF's rule name).
  static func ruleName(_ code: DiagnosticCode) -> String {
    code.name.prefix(1).uppercased() + code.name.dropFirst()
  }

  /// One `::error` or `::warning` workflow command per diagnostic, help lines and then notes in
  /// the message (`note: MESSAGE (line L, column C)`).
  package static func github(_ files: [FileDiagnostics]) -> String {
    var output = ""
    for file in files {
      for diagnostic in file.diagnostics {
        let start = file.source.location(of: diagnostic.range.start)
        let end = file.source.location(of: max(diagnostic.range.end, diagnostic.range.start + 1))
        let properties = [
          "file=\(property(file.path))", "line=\(start.line)", "col=\(start.column)", "endLine=\(end.line)",
          "endColumn=\(end.line == start.line ? max(end.column, start.column + 1) : end.column)",
          "title=\(property("\(diagnostic.code.rawValue) \(diagnostic.code.summary)"))",
        ].joined(separator: ",")
        let notes = diagnostic.notes.map { note in
          let location = file.source.location(of: note.range.start)
          return "note: \(note.message) (line \(location.line), column \(location.column))"
        }
        let message = ([diagnostic.message] + diagnostic.help.map { "help: " + $0 } + notes).joined(separator: "\n")
        output += "::\(diagnostic.severity.rawValue) \(properties)::\(data(message))\n"
      }
    }
    return output
  }

  /// Escapes workflow-command data: `%`, CR and LF.
  static func data(_ text: String) -> String {
    text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  /// Escapes a workflow-command property: as data, plus `:` and `,`.
  static func property(_ text: String) -> String {
    data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
  }
}
