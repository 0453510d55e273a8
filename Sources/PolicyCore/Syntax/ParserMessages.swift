/// Every diagnostic the parser reports, one factory per message, so the wording lives here
/// (in the manner of swift-syntax's `ParserDiagnosticMessages.swift`).
///
/// `found` arguments are a token as ``describe(_:text:)`` names it ("keyword `when`", "the end
/// of the file"); ranges are where the caret goes.
enum ParserMessages {
  /// How a token is named in messages: "`)`", "keyword `when`", "the end of the file".
  static func describe(_ kind: TokenKind, text: String) -> String {
    switch kind {
    case .endOfFile: "the end of the file"
    case .invalid: "`\(LiteralText.abbreviated(text))`"
    default: kind.isKeyword ? "keyword `\(text)`" : "`\(LiteralText.abbreviated(text))`"
    }
  }

  // MARK: - Limits

  /// `PC100`: a text of `size` bytes, over ``PolicyLimits/maximumSize``.
  static func fileTooLarge(size: Int, limits: PolicyLimits = .file) -> Diagnostic {
    let limit = limits.maximumSize
    return Diagnostic(
      PolicyCoreCode.fileTooLarge,
      "\(limits.subject) is \(size) bytes; the limit is \(limit) bytes (\(PolicyLimits.describe(bytes: limit)))",
      at: .empty(at: 0), help: ["split the policy or remove unused parts"])
  }

  /// `PC113`: an expression nested deeper than `limit` (``PolicyLimits/maximumNestingDepth``);
  /// the caret is on the first byte of `range`.
  static func nestingTooDeep(at range: SourceRange, limit: Int) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.nestingTooDeep, "expression nests more than \(limit) levels deep",
      at: SourceRange(start: range.start, end: min(range.end, range.start + 1)),
      help: ["split it into `let` definitions"])
  }

  /// `PC116`: the first declaration past ``PolicyLimits/maximumDeclarations``.
  static func tooManyDeclarations(at range: SourceRange, limits: PolicyLimits) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.tooManyDeclarations, "\(limits.subject) has more than \(limits.maximumDeclarations) declarations",
      at: range, help: ["split the policy into smaller files"])
  }

  /// `PC117`: the first element past `limit` (``PolicyLimits/maximumListLength``).
  static func listTooLong(at range: SourceRange, limit: Int) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.listTooLong, "list has more than \(limit) elements", at: range, help: ["use a shorter list"])
  }

  /// `PC122`: the first rule past ``PolicyLimits/maximumRules``; parsing stopped there.
  static func tooManyRules(at range: SourceRange, limits: PolicyLimits) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.tooManyRules, "\(limits.subject) has more than \(limits.maximumRules) rules", at: range,
      help: [
        "the limit is \(limits.maximumRules) `ask` and `never` rules together; merge rules with `or`, or remove some"
      ])
  }

  /// `PC123`: the first `let` past ``PolicyLimits/maximumLets``; parsing stopped there.
  static func tooManyLets(at range: SourceRange, limits: PolicyLimits) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.tooManyLets, "\(limits.subject) has more than \(limits.maximumLets) `let` definitions",
      at: range,
      help: ["the limit is \(limits.maximumLets) `let`s; write short conditions in the rules, or remove unused `let`s"])
  }

  /// `PC124`: the first `fact` declaration past ``PolicyLimits/maximumFactDeclarations``;
  /// parsing stopped there.
  static func tooManyFacts(at range: SourceRange, limits: PolicyLimits) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.tooManyFactDeclarations,
      "\(limits.subject) declares more than \(limits.maximumFactDeclarations) facts", at: range,
      help: ["the limit is \(limits.maximumFactDeclarations) `fact` declarations; remove those no rule reads"])
  }

  /// `PC125`: the first event name past ``PolicyLimits/maximumEventDeclarations``; parsing
  /// stopped there.
  static func tooManyEvents(at range: SourceRange, limits: PolicyLimits) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.tooManyEventDeclarations,
      "\(limits.subject) declares more than \(limits.maximumEventDeclarations) event names", at: range,
      help: [
        "the limit is \(limits.maximumEventDeclarations) names in `event` declarations; declare only the events the rules count"
      ])
  }

  /// `PC126`: the declaration that takes the expression nodes past
  /// ``PolicyLimits/maximumExpressionNodes``; parsing stopped there.
  static func tooManyNodes(at range: SourceRange, limits: PolicyLimits) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.tooManyExpressionNodes,
      "\(limits.subject) has more than \(limits.maximumExpressionNodes) expression nodes", at: range,
      help: [
        "the limit is \(limits.maximumExpressionNodes) names, literals and operators in all conditions together; simplify the conditions or remove rules"
      ])
  }

  // MARK: - Declarations

  /// `PC110`: `fact NAME` without `:` and a type.
  static func expectedFactType(found: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.expectedToken, "expected `:` and a type after the fact name, found \(found)", at: range,
      help: ["declare a fact like `fact plan: string` or `fact trial_end: instant?`"])
  }

  /// `PC110`: `fact NAME:` without a type.
  static func expectedTypeName(found: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.expectedToken, "expected a type after `:`, found \(found)", at: range, help: [typeList])
  }

  /// `PC121`: a type name that is not a type; `suggestion` is a likely meant type.
  static func unknownType(_ name: String, suggestion: String?, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.unknownType, "unknown type `\(name)`", at: range,
      help: suggestion.map { ["did you mean `\($0)`?"] } ?? [typeList],
      fixIts: suggestion.map {
        [FixIt("replace `\(name)` with `\($0)`", edits: [SourceEdit(replacing: range, with: $0)])]
      } ?? [])
  }

  /// `PC110`: `let NAME` without `=`; `foundEquals` when `==` was written instead (then a fix-it
  /// writes `=` over `range`).
  static func expectedAssign(name: String, found: String, foundEquals: Bool, at range: SourceRange) -> Diagnostic {
    let help =
      foundEquals ? "a definition uses a single `=`: `let \(name) = ...`" : "write `let \(name) = <expression>`"
    return Diagnostic(
      PolicyCoreCode.expectedToken, "expected `=` after `let \(name)`, found \(found)", at: range, help: [help],
      fixIts: foundEquals ? [FixIt("replace `==` with `=`", edits: [SourceEdit(replacing: range, with: "=")])] : [])
  }

  /// `PC110`: a rule without `when` after `ask`, `never` or the rule's name (`written`); the
  /// token found is of `foundKind`, spelled `foundText`.
  static func expectedWhen(
    after written: String, rule kind: RuleKind, found foundKind: TokenKind, text foundText: String,
    at range: SourceRange
  ) -> Diagnostic {
    var help = "a rule reads `\(kind.rawValue) when <condition>` or `\(kind.rawValue) NAME when <condition>`"
    if foundKind == .string {
      help = "rule names are identifiers such as `loyal_users`, without quotes"
    } else if foundKind == .identifier, ["if", "unless", "where", "while"].contains(foundText) {
      help = "write `\(kind.rawValue) when` instead of `\(kind.rawValue) \(foundText)`"
    }
    return Diagnostic(
      PolicyCoreCode.expectedToken,
      "expected `when` after `\(written)`, found \(describe(foundKind, text: foundText))", at: range, help: [help])
  }

  /// `PC120`: a keyword where a name is needed after `introducer` (`let`, `fact`, `has`).
  static func keywordAsName(_ keyword: String, after introducer: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.expectedName, "`\(keyword)` is a keyword and cannot be used as a name", at: range,
      help: [
        introducer == "has"
          ? "write the name of a fact that can be absent after `has`, as in `has last_seen`"
          : "choose another name, such as `\(keyword)_count`"
      ])
  }

  /// `PC120`: something other than a name after `introducer` (`let`, `fact`, `has`).
  static func expectedName(after introducer: String, found: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.expectedName, "expected a name after `\(introducer)`, found \(found)", at: range,
      help: ["names are ASCII letters, digits and `_`, such as `loyal_users`"])
  }

  /// `PC120`: something other than an event name after `event` or after a comma in its list; the
  /// range is the comma when there is one.
  static func expectedEventName(found: String, afterComma: Bool, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.expectedName, "expected an event name\(afterComma ? " after `,`" : ""), found \(found)", at: range,
      help: [
        "list event names separated by commas, with no comma after the last, quoting a name that is not a word: "
          + "`event purchase, \"level up\"`"
      ])
  }

  /// `PC111`: an uppercase keyword (`NOT`, `Has`), read as a name, followed by `found`, spelled `foundText`.
  static func uppercaseKeyword(_ keyword: String, found: String, text foundText: String, at range: SourceRange)
    -> Diagnostic
  {
    Diagnostic(
      PolicyCoreCode.unexpectedToken, "unexpected \(found) after `\(keyword)`", at: range,
      help: ["keywords are lowercase: write `\(keyword.lowercased()) \(foundText)`"],
      fixIts: [
        FixIt(
          "replace `\(keyword)` with `\(keyword.lowercased())`",
          edits: [
            SourceEdit(
              replacing: SourceRange(start: range.start, end: range.start + keyword.utf8.count),
              with: keyword.lowercased())
          ])
      ])
  }

  /// `PC111`: a token of `kind`, spelled `text`, after a complete `declaration`.
  static func unexpectedAfterDeclaration(
    _ declaration: Declaration, found kind: TokenKind, text: String, at range: SourceRange
  ) -> Diagnostic {
    let help: String
    var fixIts: [FixIt] = []
    if kind == .identifier, let keyword = ["and", "or", "not"].first(where: { $0 == text.lowercased() }) {
      help = "keywords are lowercase: write `\(keyword)`"
      fixIts = [FixIt("replace `\(text)` with `\(keyword)`", edits: [SourceEdit(replacing: range, with: keyword)])]
    } else if kind == .whenKeyword {
      help = "a rule starts with `ask` or `never`: `ask when <condition>`"
    } else if kind == .rightParen {
      help = "remove the `)` or add the `(` it closes"
    } else if kind == .rightBracket {
      help = "remove the `]` or add the `[` it closes"
    } else if kind == .assign {
      help = "compare with `==`"
    } else {
      help = "join conditions with `and` or `or`; start a new rule with `ask` or `never`"
    }
    let what: String
    let isComparison: Bool
    switch declaration {
    case .fact: (what, isComparison) = ("the fact declaration", false)
    case .let: (what, isComparison) = ("the definition", true)
    case .rule: (what, isComparison) = ("the condition", true)
    case .events: (what, isComparison) = ("the event declaration", false)
    }
    if kind == .assign && isComparison {
      return Diagnostic(
        PolicyCoreCode.unexpectedToken, "use `==` to compare: `=` is not a comparison", at: range,
        help: ["`=` only defines a `let`; write `==` to test whether two values are equal"],
        fixIts: [FixIt("replace `=` with `==`", edits: [SourceEdit(replacing: range, with: "==")])])
    }
    return Diagnostic(
      PolicyCoreCode.unexpectedToken, "unexpected \(describe(kind, text: text)) after \(what)", at: range,
      help: [help], fixIts: fixIts)
  }

  /// `PC119`: a bare condition in a file with other rules.
  static func bareConditionNotAlone(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.bareConditionNotAlone, "a condition without `ask when` must be the only rule in the file",
      at: range, help: ["start it with `ask when` or `never when`"])
  }

  // MARK: - Expressions

  /// `PC118`: `chain` compares twice, as `a op middle next ...`; the caret is on the second operator.
  static func chainedComparison(
    _ chain: String, operator op: BinaryOperator, middle: String, next: String, at range: SourceRange
  ) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.chainedComparison, "`\(LiteralText.abbreviated(chain, limit: 40))` chains two comparisons",
      at: range,
      help: [
        "compare twice and join with `and`: `... \(op.rawValue) \(LiteralText.abbreviated(middle)) and \(LiteralText.abbreviated(middle)) \(next) ...`"
      ])
  }

  /// `PC112`: no `close` for the opener on `line`; `fix` inserts the closer after the last token read.
  static func unclosedDelimiter(
    _ close: TokenKind, openedOnLine line: Int, found: String, fix: SourceEdit, at range: SourceRange
  ) -> Diagnostic {
    let closer = close == .rightParen ? ")" : "]"
    let opening = close == .rightParen ? "(" : "["
    return Diagnostic(
      PolicyCoreCode.unclosedDelimiter,
      "expected `\(closer)` to close the `\(opening)` on line \(line), found \(found)", at: range,
      help: ["add `\(closer)`"], fixIts: [FixIt("add `\(closer)`", edits: [fix])])
  }

  /// `PC112`: the opener at `range` is not closed before its line ends and the next declaration
  /// (at `next`) or the end of the file comes; `fix` inserts the closer where its line ends.
  static func unclosedDelimiterAtOpener(
    _ close: TokenKind, next: SourceRange, nextIsEndOfFile: Bool, fix: SourceEdit, at range: SourceRange
  ) -> Diagnostic {
    let closer = close == .rightParen ? ")" : "]"
    let opening = close == .rightParen ? "(" : "["
    return Diagnostic(
      PolicyCoreCode.unclosedDelimiter, "`\(opening)` is never closed", at: range,
      help: ["add `\(closer)` where the \(close == .rightParen ? "parenthesized expression" : "list") ends"],
      notes: nextIsEndOfFile ? [] : [DiagnosticNote("the next declaration begins here", at: next)],
      fixIts: [FixIt("add `\(closer)`", edits: [fix])])
  }

  /// The tokens that need an operand after them: when one ends a line and the next declaration
  /// follows, ``danglingOperator(_:text:line:next:nextIsEndOfFile:at:)`` reports it.
  static let danglingOperatorKinds: Set<TokenKind> = [
    .andKeyword, .orKeyword, .notKeyword, .inKeyword, .equal, .notEqual, .less, .lessEqual, .greater,
    .greaterEqual, .plus, .minus, .star, .slash, .percent, .coalesce,
  ]

  /// `PC109`: the operator at `range` (of `kind`, spelled `text`, on `line`) ends its line with no
  /// operand after it; `next` is where the next declaration begins (or the end of the file).
  static func danglingOperator(
    _ kind: TokenKind, text: String, line: Int, next: SourceRange, nextIsEndOfFile: Bool, at range: SourceRange
  ) -> Diagnostic {
    let isLogical = kind == .andKeyword || kind == .orKeyword || kind == .notKeyword
    let what = isLogical ? "condition" : "value"
    return Diagnostic(
      PolicyCoreCode.expectedExpression,
      "`\(text)` at the end of line \(line) has no \(what) after it", at: range,
      help: ["put a \(what) after `\(text)` or remove it"],
      notes: nextIsEndOfFile ? [] : [DiagnosticNote("the next declaration begins here", at: next)])
  }

  /// `PC109`: a token of `kind`, spelled `text`, where an expression must start.
  static func expectedExpression(found kind: TokenKind, text: String, at range: SourceRange) -> Diagnostic {
    let help: [String]
    switch kind {
    case .endOfFile: help = ["finish the condition, for example `days >= 30`"]
    case .askKeyword, .neverKeyword, .letKeyword, .factKeyword:
      help = ["finish the condition before starting the next declaration"]
    case .andKeyword, .orKeyword: help = ["put a condition on each side of `\(text)`"]
    case .rightParen: help = ["put an expression inside the parentheses"]
    case .assign: help = ["compare with `==`"]
    default: help = ["an expression is a value such as `days`, `30d` or `since(last_seen)`"]
    }
    return Diagnostic(
      PolicyCoreCode.expectedExpression, "expected an expression, found \(describe(kind, text: text))", at: range,
      help: help)
  }

  // MARK: - Literals

  /// `PC105`: an integer literal (with its sign) of `digits` digits that does not fit in 64 bits.
  static func integerTooLarge(_ written: String, digits: Int, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.integerTooLarge, "integer `\(LiteralText.abbreviated(written))` does not fit in 64 bits",
      at: range,
      help: ["ints range from -9223372036854775808 to 9223372036854775807; this one has \(digits) digits"])
  }

  /// `PC106`: a number literal with too many decimal places or out of range.
  static func invalidNumber(_ written: String, at range: SourceRange) -> Diagnostic {
    let fraction = written.split(separator: ".").last.map(\.count) ?? 0
    let message =
      fraction > Number.fractionDigits
      ? "number `\(LiteralText.abbreviated(written))` has more than \(Number.fractionDigits) decimal places"
      : "number `\(LiteralText.abbreviated(written))` is too large"
    return Diagnostic(
      PolicyCoreCode.invalidNumber, message, at: range,
      help: ["numbers have at most \(Number.fractionDigits) decimal places and range up to about 9.2 trillion"])
  }

  /// `PC107`: a duration literal out of range.
  static func durationTooLong(_ written: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyCoreCode.invalidDuration, "duration `\(LiteralText.abbreviated(written))` is too long", at: range,
      help: ["durations range up to about 292 million years"])
  }

  /// `PC108`: a version literal that does not parse.
  static func invalidVersion(_ written: String, _ error: Version.ParseError, at range: SourceRange) -> Diagnostic {
    let message: String
    switch error {
    case .tooManyParts:
      message = "version `\(LiteralText.abbreviated(written))` has more than \(Version.maximumParts) parts"
    case .partTooLarge: message = "version `\(LiteralText.abbreviated(written))` has a part larger than 4294967295"
    case .empty, .notNumeric: message = "version `\(LiteralText.abbreviated(written))` is malformed"
    }
    return Diagnostic(PolicyCoreCode.invalidVersion, message, at: range, help: [LexerMessages.versionAdvice])
  }

  // MARK: - Shared wording

  /// "the types are `bool`, `int`, ..."
  static var typeList: String {
    "the types are \(PolicyType.allCases.map { "`\($0)`" }.joined(separator: ", "))"
  }
}

extension Diagnostic {
  /// `PC100` for a text of `size` bytes, over the size of `limits` (``Limits/maximumFileSize`` for
  /// a file), located at its start: for a reader that refuses such a text before compiling it.
  package static func fileTooLarge(size: Int, limits: PolicyLimits = .file) -> Diagnostic {
    ParserMessages.fileTooLarge(size: size, limits: limits)
  }
}
