import Foundation
import Testing

@testable import PolicyCore

/// The TextMate grammar in `Editors/`, read and applied with Foundation's regular expressions
/// (the grammar uses only what Oniguruma and ICU share: classes, alternation, `\b`, lookahead).
struct EditorGrammar {
  struct Pattern {
    var regex: NSRegularExpression
    var scope: String
  }

  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Editors")

  let root: [String: Any]
  let patterns: [Pattern]

  init() throws {
    let data = try Data(contentsOf: EditorGrammar.directory.appendingPathComponent("policy.tmLanguage.json"))
    root = (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    let repository = root["repository"] as? [String: Any] ?? [:]
    var patterns: [Pattern] = []
    func add(_ list: [[String: Any]]) throws {
      for pattern in list {
        if let include = pattern["include"] as? String, include.hasPrefix("#") {
          let entry = repository[String(include.dropFirst())] as? [String: Any]
          try add(entry?["patterns"] as? [[String: Any]] ?? [])
        } else if let match = (pattern["match"] as? String)
          ?? (pattern["begin"] as? String).map({ begin in
            // A begin/end region as one expression: escapes, then anything up to the end.
            "(?:\(begin))(?:\\\\.|(?!(?:\(pattern["end"] as? String ?? "$"))).)*(?:\(pattern["end"] as? String ?? "$"))"
          })
        {
          let captures =
            pattern["captures"] as? [String: [String: String]] ?? pattern["beginCaptures"]
            as? [String: [String: String]]
          let scope = pattern["name"] as? String ?? captures?["1"]?["name"] ?? captures?["0"]?["name"] ?? ""
          patterns.append(Pattern(regex: try NSRegularExpression(pattern: match), scope: scope))
        }
      }
    }
    try add(root["patterns"] as? [[String: Any]] ?? [])
    self.patterns = patterns
  }

  /// The scope the grammar gives the text at the start of `line` (the first pattern, in
  /// grammar order, that matches there), and how much it covers.
  func scope(at line: String) -> (scope: String, length: Int)? {
    let range = NSRange(line.startIndex..., in: line)
    for pattern in patterns {
      if let match = pattern.regex.firstMatch(in: line, options: [.anchored], range: range), match.range.length > 0 {
        return (pattern.scope, match.range.length)
      }
    }
    return nil
  }
}

@Suite("editor grammar")
struct EditorGrammarTests {
  /// A sample of every token kind, and the scope prefix the grammar must give it.
  static func sample(_ kind: TokenKind) -> (text: String, scope: String)? {
    switch kind {
    case .identifier: ("uses_count", "variable.other")
    case .integer: ("30", "constant.numeric.integer")
    case .number: ("2.5", "constant.numeric.decimal")
    case .duration: ("30d", "constant.numeric.duration")
    case .version: ("v2.1", "constant.numeric.version")
    case .string: ("\"purchase\"", "string.quoted.double")
    case .askKeyword, .neverKeyword, .whenKeyword: (kind.keywordText, "keyword.control")
    case .letKeyword, .factKeyword: (kind.keywordText, "storage.type")
    case .andKeyword, .orKeyword, .notKeyword, .inKeyword, .hasKeyword: (kind.keywordText, "keyword.operator.word")
    case .trueKeyword, .falseKeyword: (kind.keywordText, "constant.language")
    case .leftParen, .rightParen: (kind == .leftParen ? "(" : ")", "punctuation.section.parens")
    case .leftBracket, .rightBracket: (kind == .leftBracket ? "[" : "]", "punctuation.section.brackets")
    case .comma: (",", "punctuation.separator.comma")
    case .colon: (":", "punctuation.separator.type")
    case .questionMark: ("?", "keyword.operator.optional")
    case .assign: ("=", "keyword.operator.assignment")
    case .equal: ("==", "keyword.operator.comparison")
    case .notEqual: ("!=", "keyword.operator.comparison")
    case .less: ("<", "keyword.operator.comparison")
    case .lessEqual: ("<=", "keyword.operator.comparison")
    case .greater: (">", "keyword.operator.comparison")
    case .greaterEqual: (">=", "keyword.operator.comparison")
    case .plus: ("+", "keyword.operator.arithmetic")
    case .minus: ("-", "keyword.operator.arithmetic")
    case .star: ("*", "keyword.operator.arithmetic")
    case .slash: ("/", "keyword.operator.arithmetic")
    case .percent: ("%", "keyword.operator.arithmetic")
    case .coalesce: ("??", "keyword.operator.coalesce")
    case .invalid: ("&&", "invalid.illegal")
    case .endOfFile: nil
    }
  }

  @Test("every token kind of the lexer gets its scope, over the whole token")
  func tokenKinds() throws {
    let grammar = try EditorGrammar()
    for kind in TokenKind.allCases {
      guard let (text, scope) = Self.sample(kind) else { continue }
      var lexer = Lexer(source: SourceFile(path: "sample", text: text))
      var bag = DiagnosticBag()
      lexer.lex(into: &bag)
      #expect(lexer.tokens.first?.kind == kind, "the sample `\(text)` is not a \(kind) token")
      let found = grammar.scope(at: text)
      #expect(
        found?.scope.hasPrefix(scope) == true, "`\(text)` (\(kind)): \(found?.scope ?? "no scope"), want \(scope)")
      #expect(found?.length == text.utf16.count, "`\(text)` (\(kind)) is not matched whole")
    }
  }

  @Test("the grammar's keywords are exactly the lexer's")
  func keywords() throws {
    let grammar = try EditorGrammar()
    let repository = grammar.root["repository"] as? [String: Any] ?? [:]
    var words: Set<String> = []
    for entry in ["keyword", "constant"] {
      let patterns = (repository[entry] as? [String: Any])?["patterns"] as? [[String: Any]] ?? []
      for pattern in patterns {
        guard let match = pattern["match"] as? String, let open = match.firstIndex(of: "("),
          let close = match.firstIndex(of: ")")
        else { continue }
        words.formUnion(match[match.index(after: open)..<close].split(separator: "|").map(String.init))
      }
    }
    #expect(words == Set(TokenKind.keywords))
    for keyword in TokenKind.keywords {
      #expect(TokenKind.keyword(Substring(keyword).utf8) != nil)
    }
  }

  @Test("built-ins, units and types are highlighted as the language defines them")
  func vocabulary() throws {
    let grammar = try EditorGrammar()
    for name in Builtin.functionNames {
      #expect(grammar.scope(at: name + "(x)")?.scope.hasPrefix("support.function.builtin") == true, "\(name)")
    }
    #expect(grammar.scope(at: Builtin.nowName)?.scope == "variable.language.now.policy")
    #expect(Builtin.reservedNames == Set(Builtin.functionNames + [Builtin.nowName]))
    for unit in DurationUnit.allCases {
      #expect(grammar.scope(at: "12" + unit.rawValue)?.scope.hasPrefix("constant.numeric.duration") == true)
    }
    #expect(grammar.scope(at: "12x")?.scope.hasPrefix("constant.numeric.duration") != true)
    for type in PolicyType.allCases {
      let line = "fact plan: \(type.rawValue)?"
      #expect(grammar.scope(at: line)?.length == line.utf16.count, "fact of type \(type)")
    }
    #expect(grammar.scope(at: "# comment")?.scope.hasPrefix("comment.line") == true)
    #expect(grammar.scope(at: "ask loyal when")?.scope.hasPrefix("keyword.control") == true)
  }

  @Test("the language configuration names `#` comments and the brackets")
  func configuration() throws {
    let data = try Data(contentsOf: EditorGrammar.directory.appendingPathComponent("language-configuration.json"))
    let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    #expect((root?["comments"] as? [String: String])?["lineComment"] == "#")
    #expect((root?["brackets"] as? [[String]]) == [["(", ")"], ["[", "]"]])
  }
}

extension TokenKind {
  /// The keyword's spelling, for a keyword kind.
  fileprivate var keywordText: String {
    TokenKind.keywords.first { TokenKind.keyword(Substring($0).utf8) == self } ?? ""
  }
}
