import Foundation
import PolicyCore

/// Diagnostics in machine-readable formats: JSON (`policyc check --format json`), code scanning
/// (SARIF 2.1.0) and GitHub Actions workflow annotations.
public enum DiagnosticFormats {
  /// A file and its diagnostics.
  public typealias FileDiagnostics = (path: String, source: SourceFile, diagnostics: [Diagnostic])

  /// The JSON report of `policyc check` and `policyc analyze` (one line, without its newline):
  /// `{"files":[{"path","diagnostics":[...]}],"errorCount","warningCount"}`. `fileMembers` adds
  /// members to file number `index`'s object; `diagnosticMembers` to each diagnostic's.
  public static func json(
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

  /// Writes one diagnostic as a JSON object: severity, code, message, start and end (line,
  /// column, offset) and help; `members` adds members at the end.
  public static func write(
    _ diagnostic: Diagnostic, in source: SourceFile, to writer: inout JSONWriter,
    members: (inout JSONWriter) -> Void = { _ in }
  ) {
    let start = source.location(of: diagnostic.range.start)
    let end = source.location(of: diagnostic.range.end)
    writer.object {
      $0.key("severity"); $0.string(diagnostic.severity.rawValue)
      $0.key("code"); $0.string(diagnostic.code.rawValue)
      $0.key("message"); $0.string(diagnostic.message)
      $0.key("line"); $0.number(start.line)
      $0.key("column"); $0.number(start.column)
      $0.key("endLine"); $0.number(end.line)
      $0.key("endColumn"); $0.number(end.column)
      $0.key("startOffset"); $0.number(diagnostic.range.start)
      $0.key("endOffset"); $0.number(diagnostic.range.end)
      $0.key("help")
      $0.array { for line in diagnostic.help { $0.string(line) } }
      members(&$0)
    }
  }

  /// A SARIF 2.1.0 log with one run of `policyc`: one rule per code used, one result per diagnostic.
  public static func sarif(_ files: [FileDiagnostics]) -> String {
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
                    $0.object { $0.key("text"); $0.string(code.summary) }
                    $0.key("defaultConfiguration")
                    $0.object { $0.key("level"); $0.string(code.isWarning ? "warning" : "error") }
                  }
                }
              }
            }
          }
          $0.key("results")
          $0.array {
            for file in files {
              for diagnostic in file.diagnostics {
                let start = file.source.location(of: diagnostic.range.start)
                let end = file.source.location(of: max(diagnostic.range.end, diagnostic.range.start + 1))
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
                    $0.object {
                      $0.key("physicalLocation")
                      $0.object {
                        $0.key("artifactLocation")
                        $0.object { $0.key("uri"); $0.string(file.path) }
                        $0.key("region")
                        $0.object {
                          $0.key("startLine"); $0.number(start.line)
                          $0.key("startColumn"); $0.number(start.column)
                          $0.key("endLine"); $0.number(end.line)
                          $0.key("endColumn"); $0.number(end.line == start.line ? max(end.column, start.column + 1) : end.column)
                        }
                      }
                    }
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

  /// The code's case name in Pascal case, such as `UnknownName` (SARIF's rule name).
  static func ruleName(_ code: DiagnosticCode) -> String {
    let name = String(describing: code)
    return name.prefix(1).uppercased() + name.dropFirst()
  }

  /// One `::error` or `::warning` workflow command per diagnostic, help lines in the message.
  public static func github(_ files: [FileDiagnostics]) -> String {
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
        let message = ([diagnostic.message] + diagnostic.help.map { "help: " + $0 }).joined(separator: "\n")
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
