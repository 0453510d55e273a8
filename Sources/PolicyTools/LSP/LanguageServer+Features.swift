import PolicyAnalysis
import PolicyCore
import ReviewAnalysis

extension LanguageServer {
  /// Answers a request about `document`.
  mutating func feature(_ method: String, _ document: LSPDocument, _ params: JSONNode?) -> Result<
    LSPValue, RequestError
  > {
    let offset = Self.position(params?["position"]).map { document.offset(of: $0) }
    switch method {
    case "textDocument/documentSymbol": return .success(symbols(document))
    case "textDocument/formatting": return .success(formatting(document))
    case "textDocument/codeAction":
      guard let range = params?["range"], let start = Self.position(range["start"]),
        let end = Self.position(range["end"])
      else { return .failure(LanguageServerMessages.missingParameter("range")) }
      let only = params?["context"]?["only"]?.arrayValue?.compactMap(\.stringValue)
      return .success(
        codeActions(
          document, SourceRange(start: document.offset(of: start), end: document.offset(of: end)), only: only))
    default:
      guard let offset else { return .failure(LanguageServerMessages.missingParameter("position")) }
      guard !document.isTestFile else { return .success(method == "textDocument/references" ? .array([]) : .null) }
      switch method {
      case "textDocument/hover": return .success(hover(document, at: offset))
      case "textDocument/completion": return .success(completion(document, at: offset))
      case "textDocument/definition": return .success(definition(document, at: offset))
      default:
        let includeDeclaration = params?["context"]?["includeDeclaration"]?.boolValue ?? true
        return .success(references(document, at: offset, includeDeclaration: includeDeclaration))
      }
    }
  }

  // MARK: - Hover

  /// Markdown about the name or diagnostic code under `offset`, and the diagnostics there.
  mutating func hover(_ document: LSPDocument, at offset: Int) -> LSPValue {
    let analysis = analysis(of: document)
    var sections: [String] = []
    var range: SourceRange?
    if let word = analysis.word(at: offset) {
      range = word.range
      let bytes = document.source.bytes
      var next = word.range.end
      while next < bytes.count && bytes[next] == UInt8(ascii: " ") { next += 1 }
      let isCall = next < bytes.count && bytes[next] == UInt8(ascii: "(")
      if let text = describe(word.text, in: analysis, isCall: isCall) { sections.append(text) }
    }
    let here = diagnostics(for: document).all.filter {
      $0.range.start <= offset && (offset < $0.range.end || ($0.range.isEmpty && offset == $0.range.start))
    }
    for diagnostic in here where !sections.contains(where: { $0.hasPrefix("**\(diagnostic.code.rawValue)**") }) {
      sections.append("**\(diagnostic.code.rawValue)** (\(diagnostic.severity.rawValue)): \(diagnostic.code.summary)")
    }
    guard !sections.isEmpty else { return .null }
    var members: [(String, LSPValue)] = [
      (
        "contents",
        .object([("kind", .string("markdown")), ("value", .string(sections.joined(separator: "\n\n---\n\n")))])
      )
    ]
    if let range { members.append(("range", document.lspRange(range))) }
    return .object(members)
  }

  /// What hover says about `name`: a diagnostic code, a `let`, a fact, a fact family or a built-in.
  func describe(_ name: String, in analysis: DocumentAnalysis, isCall: Bool = false) -> String? {
    if let code = KnownDiagnosticCodes.code(name) {
      return "**\(code.rawValue)** (\(code.severity.rawValue)): \(code.summary)"
    }
    if isCall, let family = schema.family(named: name) { return familyText(family) }
    if let binding = analysis.letDeclaration(named: name) {
      let checked = analysis.compilation.policy?.lets.first { $0.name == name }
      let type = checked.flatMap {
        $0.value.map { Self.typeName($0.type, optional: $0.isOptional) } ?? $0.listType.map { "list of \($0)" }
      }
      let definition = analysis.source.text(in: binding.range)
      return "```policy\n\(definition)\n```" + (type.map { "\n\nType: `\($0)`" } ?? "")
    }
    if let declared = analysis.factDeclaration(named: name) {
      return declaredFactText(declared, in: analysis)
    }
    if let fact = schema.fact(named: name) {
      return factText(
        name, type: fact.type, optional: fact.isOptional, unit: fact.unit, meaning: fact.meaning, declared: false)
    }
    if let family = schema.family(named: name) { return familyText(family) }
    if let builtin = Builtin(rawValue: name) { return "```policy\n\(builtin.signature)\n```\n\nBuilt-in function." }
    if let function = BuiltinFunction.allCases.first(where: { $0.name == name }) {
      return "```policy\n\(function.signature)\n```\n\nBuilt-in function."
    }
    if name == Builtin.nowName { return "```policy\nnow: instant\n```\n\nThe instant of the evaluation." }
    return nil
  }

  /// Hover text for a keyed fact family such as `events("name")`.
  func familyText(_ family: FactFamilyDefinition) -> String {
    let type = Self.typeName(family.type, optional: family.isOptional)
    var text = "```policy\nfact \(family.name)(\(family.keyMeaning): \(family.keyType)): \(type)\n```\n\n"
    text += family.meaning.prefix(1).uppercased() + family.meaning.dropFirst() + "."
    if let unit = family.unit { text += "\n\nUnit: \(unit)." }
    if let example = family.example { text += "\n\nExample: `\(example)`" }
    return text
  }

  func factText(
    _ name: String, type: PolicyType?, optional: Bool, unit: String?, meaning: String, declared: Bool
  ) -> String {
    let typeText = type.map { Self.typeName($0, optional: optional) } ?? "?"
    var text = "```policy\nfact \(name): \(typeText)\n```\n\n"
    text += meaning.prefix(1).uppercased() + meaning.dropFirst() + "."
    if let unit { text += "\n\nUnit: \(unit)." }
    text += optional ? "\n\nMay be absent: test it with `has \(name)` or give a default with `??`." : ""
    text += declared ? "" : "\n\nStandard review fact."
    return text
  }

  /// Hover text for a fact the policy declares: its declaration, type, who sets it, and what it
  /// is when the app does not.
  func declaredFactText(_ declared: FactDeclaration, in analysis: DocumentAnalysis) -> String {
    let name = declared.name.name
    let typeText = declared.type.map { Self.typeName($0, optional: declared.isOptional) } ?? "?"
    var text = "```policy\n\(analysis.source.text(in: declared.range))\n```\n\nType: `\(typeText)`.\n\n"
    text += "Declared in this policy: the app sets it (`setFact(\"\(name)\", ...)`)."
    if let value = declared.defaultValue {
      text += "\n\nDefault: `\(analysis.source.text(in: value.range))` until the app sets it."
    } else if declared.isOptional {
      text += "\n\nAbsent until the app sets it: test it with `has \(name)` or give a default with `??`."
    } else {
      text += "\n\nNo default: until the app sets it, the policy never asks (a fact it needs is missing)."
    }
    return text
  }

  static func typeName(_ type: PolicyType, optional: Bool) -> String {
    type.description + (optional ? "?" : "")
  }

  // MARK: - Completion

  /// Completion items for `offset`: units after a number, keys inside `family("`, else names and keywords.
  mutating func completion(_ document: LSPDocument, at offset: Int) -> LSPValue {
    let analysis = analysis(of: document)
    let bytes = document.source.bytes
    var start = min(offset, bytes.count)
    while start > 0 && DocumentAnalysis.isWordByte(bytes[start - 1]) { start -= 1 }
    let prefix = String(decoding: bytes[start..<min(offset, bytes.count)], as: UTF8.self)
    var items: [LSPValue] = []
    func item(_ label: String, kind: Int, detail: String, insert: String? = nil, snippet: Bool = false) {
      var members: [(String, LSPValue)] = [
        ("label", .string(label)), ("kind", .int(kind)), ("detail", .string(detail)),
      ]
      if let insert {
        members.append(("insertText", .string(insert)))
        if snippet { members.append(("insertTextFormat", .int(2))) }
      }
      items.append(.object(members))
    }
    // After digits: a duration unit (`30d`).
    let digits = prefix.prefix { $0.isNumber }
    if !digits.isEmpty, prefix.dropFirst(digits.count).allSatisfy({ $0.isLetter }) {
      let unitPrefix = prefix.dropFirst(digits.count)
      for unit in DurationUnit.allCases where unit.rawValue.hasPrefix(unitPrefix) {
        item(digits + unit.rawValue, kind: 11, detail: Self.unitDetail(unit), insert: digits + unit.rawValue)
      }
      return .object([("isIncomplete", .bool(false)), ("items", .array(items))])
    }
    // Inside `family("`: the keys written in the open documents.
    if let family = Self.openKeyedCall(bytes, before: offset), schema.family(named: family) != nil {
      var keys: [String] = []
      for other in documents.values where !other.isTestFile {
        for key in (other.uri == document.uri ? analysis : self.analysis(of: other)).stringKeys(of: family)
        where !keys.contains(key) {
          keys.append(key)
        }
      }
      // An event-keyed family also offers the declared names and those the app records.
      if schema.family(named: family)?.keyIsEventName == true {
        for key in analysis.declaredEventNames + analysis.environment.eventNames.sorted() where !keys.contains(key) {
          keys.append(key)
        }
      }
      for key in keys.sorted() { item(key, kind: 12, detail: "\(family)(\"\(key)\")", insert: key) }
      return .object([("isIncomplete", .bool(false)), ("items", .array(items))])
    }
    for binding in analysis.lets where binding.name.name.hasPrefix(prefix) {
      item(binding.name.name, kind: 6, detail: "let")
    }
    for fact in analysis.facts where fact.name.name.hasPrefix(prefix) {
      item(
        fact.name.name, kind: 5,
        detail: "fact: " + (fact.type.map { Self.typeName($0, optional: fact.isOptional) } ?? "?") + " (declared)")
    }
    for fact in schema.facts where fact.name.hasPrefix(prefix) {
      item(fact.name, kind: 5, detail: "fact: \(Self.typeName(fact.type, optional: fact.isOptional)) — \(fact.meaning)")
    }
    for family in schema.families where family.name.hasPrefix(prefix) {
      var keys = analysis.stringKeys(of: family.name)
      if family.keyIsEventName { keys += analysis.declaredEventNames + analysis.environment.eventNames }
      for key in Set(keys).sorted() {
        item("\(family.name)(\"\(key)\")", kind: 5, detail: family.meaning, insert: "\(family.name)(\"\(key)\")")
      }
      let quote = family.keyType == .string ? "\"" : ""
      if snippetSupport {
        item(
          "\(family.name)(\(quote)…\(quote))", kind: 3,
          detail: "\(family.keyMeaning) → \(family.type): \(family.meaning)",
          insert: "\(family.name)(\(quote)${1:\(family.keyMeaning)}\(quote))", snippet: true)
      } else {
        item("\(family.name)(\(quote)…\(quote))", kind: 3, detail: family.meaning, insert: "\(family.name)(\(quote)")
      }
    }
    for name in Builtin.functionNames where name.hasPrefix(prefix) {
      let signature =
        Builtin(rawValue: name)?.signature ?? BuiltinFunction.allCases.first { $0.name == name }?.signature
      item(name, kind: 3, detail: signature ?? name, insert: name + "(")
    }
    if Builtin.nowName.hasPrefix(prefix) { item(Builtin.nowName, kind: 21, detail: "the instant of the evaluation") }
    for keyword in TokenKind.keywords where keyword.hasPrefix(prefix) { item(keyword, kind: 14, detail: "keyword") }
    return .object([("isIncomplete", .bool(false)), ("items", .array(items))])
  }

  static func unitDetail(_ unit: DurationUnit) -> String {
    switch unit {
    case .seconds: "seconds"
    case .minutes: "minutes"
    case .hours: "hours"
    case .days: "days (24 hours)"
    case .weeks: "weeks (7 days)"
    }
  }

  /// The family name when `offset` is inside an unclosed `name("...` on its line.
  static func openKeyedCall(_ bytes: [UInt8], before offset: Int) -> String? {
    var index = min(offset, bytes.count) - 1
    while index >= 0 && bytes[index] != UInt8(ascii: "\"") {
      if bytes[index] == UInt8(ascii: "\n") || bytes[index] == UInt8(ascii: ")") { return nil }
      index -= 1
    }
    guard index >= 1, bytes[index - 1] == UInt8(ascii: "(") else { return nil }
    var start = index - 1
    while start > 0 && DocumentAnalysis.isWordByte(bytes[start - 1]) { start -= 1 }
    guard start < index - 1 else { return nil }
    return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
  }

  // MARK: - Navigation

  /// The declaration of the `let` or `fact` under `offset`.
  mutating func definition(_ document: LSPDocument, at offset: Int) -> LSPValue {
    let analysis = analysis(of: document)
    guard let word = analysis.word(at: offset), let declaration = analysis.occurrences(of: word.text).declaration else {
      return .null
    }
    return Self.location(document, declaration.range)
  }

  /// Every use of the `let` or `fact` under `offset` (a standard fact too), with its declaration.
  mutating func references(_ document: LSPDocument, at offset: Int, includeDeclaration: Bool) -> LSPValue {
    let analysis = analysis(of: document)
    guard let word = analysis.word(at: offset) else { return .array([]) }
    let (declaration, uses) = analysis.occurrences(of: word.text)
    var ranges = uses.map(\.range)
    if includeDeclaration, let declaration { ranges.insert(declaration.range, at: 0) }
    return .array(ranges.map { Self.location(document, $0) })
  }

  static func location(_ document: LSPDocument, _ range: SourceRange) -> LSPValue {
    .object([("uri", .string(document.uri)), ("range", document.lspRange(range))])
  }

  /// Facts, lets and rules, in file order.
  mutating func symbols(_ document: LSPDocument) -> LSPValue {
    guard !document.isTestFile else { return .array([]) }
    let analysis = analysis(of: document)
    var symbols: [(Int, LSPValue)] = []
    func symbol(_ name: String, detail: String, kind: Int, range: SourceRange, selection: SourceRange) {
      symbols.append(
        (
          range.start,
          .object([
            ("name", .string(name)), ("detail", .string(detail)), ("kind", .int(kind)),
            ("range", document.lspRange(range)), ("selectionRange", document.lspRange(selection)),
          ])
        ))
    }
    for fact in analysis.facts {
      let type = fact.type.map { Self.typeName($0, optional: fact.isOptional) } ?? "?"
      symbol(fact.name.name, detail: "fact: \(type)", kind: 8, range: fact.range, selection: fact.name.range)
    }
    for binding in analysis.lets {
      symbol(binding.name.name, detail: "let", kind: 13, range: binding.range, selection: binding.name.range)
    }
    for rule in analysis.rules {
      let condition = analysis.source.text(in: rule.condition.range)
      let short = condition.count > 60 ? condition.prefix(59) + "…" : Substring(condition)
      let name = rule.name.map { "\(rule.kind.rawValue) \($0.name)" } ?? "\(rule.kind.rawValue) when \(short)"
      symbol(name, detail: "rule", kind: 24, range: rule.range, selection: rule.name?.range ?? rule.range)
    }
    return .array(symbols.sorted { $0.0 < $1.0 }.map(\.1))
  }

  // MARK: - Editing

  /// The canonical layout as one edit of the whole document; no edits when it is already
  /// canonical or does not parse.
  func formatting(_ document: LSPDocument) -> LSPValue {
    guard !document.isTestFile, case .success(let text) = PolicyFormatter().format(document.source),
      Array(text.utf8) != document.source.bytes
    else { return .array([]) }
    let whole = SourceRange(start: 0, end: document.source.bytes.count)
    return .array([.object([("range", document.lspRange(whole)), ("newText", .string(text))])])
  }

  /// Quick fixes: the fix-its of the diagnostics that touch `range`.
  mutating func codeActions(_ document: LSPDocument, _ range: SourceRange, only: [String]? = nil) -> LSPValue {
    /// Whether the client asked for actions of `kind` (a kind asked for covers the kinds below it).
    func wanted(_ kind: String) -> Bool {
      only.map { kinds in kinds.contains { kind == $0 || kind.hasPrefix($0 + ".") } } ?? true
    }
    var actions: [LSPValue] = []
    let all = diagnostics(for: document).all
    // "Fix all": on request, or beside the quick fixes when there are several to apply.
    let automatic = all.reduce(0) { $0 + $1.fixIts.filter(\.isAutomatic).count }
    if wanted(Self.fixAllKind), only != nil || automatic >= 2, let fixAll = fixAllAction(document) {
      actions.append(fixAll)
    }
    guard wanted("quickfix") else { return .array(actions) }
    for diagnostic in all
    where diagnostic.range.start <= range.end && range.start <= diagnostic.range.end {
      for fixIt in diagnostic.fixIts {
        let edits = fixIt.edits.map { edit in
          LSPValue.object([("range", document.lspRange(edit.range)), ("newText", .string(edit.replacement))])
        }
        actions.append(
          .object([
            ("title", .string(fixIt.message)), ("kind", .string("quickfix")),
            ("diagnostics", .array([Self.lspDiagnostic(diagnostic, in: document)])),
            ("isPreferred", .bool(diagnostic.fixIts.count == 1)),
            ("edit", .object([("changes", .object([(document.uri, .array(edits))]))])),
          ]))
      }
    }
    return .array(actions)
  }

  /// The kind of the "fix all" action.
  static let fixAllKind = "source.fixAll.policyc"

  /// "Fix all": what `policyc check --fix` does to the document (``PolicyFixer``: every automatic
  /// fix that helps, to a fixed point), as one edit; nil when nothing would change.
  mutating func fixAllAction(_ document: LSPDocument) -> LSPValue? {
    guard !document.isTestFile, !Self.isProjectFile(document.uri),
      document.source.bytes.count <= Limits.maximumFileSize
    else { return nil }
    let fixer = check.map { PolicyFixer(check: $0) } ?? PolicyFixer(environment: analysis(of: document).environment)
    let outcome = fixer.fix(document.source)
    guard outcome.changed else { return nil }
    let count = outcome.applied.count == 1 ? "1 fix" : "\(outcome.applied.count) fixes"
    let whole = SourceRange(start: 0, end: document.source.bytes.count)
    let edit = LSPValue.object([
      ("range", document.lspRange(whole)), ("newText", .string(String(decoding: outcome.fixed.bytes, as: UTF8.self))),
    ])
    return .object([
      ("title", .string("Fix all: apply \(count) (policyc check --fix)")), ("kind", .string(Self.fixAllKind)),
      ("edit", .object([("changes", .object([(document.uri, .array([edit]))]))])),
    ])
  }
}
