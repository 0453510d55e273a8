/// The stable code of every diagnostic PolicyCore reports: the `PolicyCore` domain.
///
/// Codes never change meaning once published. `PC1xx` are lexical and syntax errors, `PC2xx`
/// are name and type errors from the checker, `PC3xx` are warnings. Other modules define codes
/// of their own, in ranges this enum leaves free (`PC320`-`PC322`, `PC4xx`). Grammar.md lists
/// each code with its severity, summary and an example (a test checks the tables against the enums).
///
/// Diagnostics store a case as a ``DiagnosticCode``, the value every module's codes produce;
/// see ``DiagnosticCodeDefinition`` for defining codes in another module.
package enum PolicyCoreCode: String, DiagnosticCodeDefinition {
  /// `PolicyCore`.
  package static let domain = "PolicyCore"

  // MARK: - Lexical and syntax errors

  /// The text is larger than ``PolicyLimits/maximumSize`` (``Limits/maximumFileSize`` for a file).
  case fileTooLarge = "PC100"
  /// A byte sequence that is not valid UTF-8.
  case invalidUTF8 = "PC101"
  /// A character that cannot start a token (for example `&`, `≥` or a NUL byte).
  case unexpectedCharacter = "PC102"
  /// A string literal without its closing quote on the same line.
  case unterminatedString = "PC103"
  /// A backslash escape other than `\"`, `\\`, `\n` and `\t`.
  case invalidEscape = "PC104"
  /// An integer literal that does not fit in 64 bits.
  case integerTooLarge = "PC105"
  /// A malformed or out-of-range number literal.
  case invalidNumber = "PC106"
  /// A malformed or out-of-range duration literal, or an unknown unit.
  case invalidDuration = "PC107"
  /// A malformed or out-of-range version literal.
  case invalidVersion = "PC108"
  /// A place where an expression is required but something else was found.
  case expectedExpression = "PC109"
  /// A required token (such as `when` or `=`) is missing.
  case expectedToken = "PC110"
  /// Text after a complete condition that does not continue it.
  case unexpectedToken = "PC111"
  /// An opening `(` or `[` without its closing partner.
  case unclosedDelimiter = "PC112"
  /// Expressions nested deeper than ``Limits/maximumNestingDepth``.
  case nestingTooDeep = "PC113"
  /// An identifier longer than ``Limits/maximumIdentifierLength``.
  case identifierTooLong = "PC114"
  /// A string literal longer than ``Limits/maximumStringLength``.
  case stringTooLong = "PC115"
  /// More declarations than ``Limits/maximumDeclarations``.
  case tooManyDeclarations = "PC116"
  /// A list literal with more than ``Limits/maximumListLength`` elements.
  case listTooLong = "PC117"
  /// Two comparisons chained without `and`, such as `1 < days < 5`.
  case chainedComparison = "PC118"
  /// A bare condition in a file that also has other rules.
  case bareConditionNotAlone = "PC119"
  /// A name is required (after `let`, `fact`, `has`) but a keyword or other token was found.
  case expectedName = "PC120"
  /// A type name in a `fact` declaration that is not one of the language's types.
  case unknownType = "PC121"
  /// More rules than ``PolicyLimits/maximumRules``.
  case tooManyRules = "PC122"
  /// More `let` definitions than ``PolicyLimits/maximumLets``.
  case tooManyLets = "PC123"
  /// More `fact` declarations than ``PolicyLimits/maximumFactDeclarations``.
  case tooManyFactDeclarations = "PC124"
  /// More declared event names than ``PolicyLimits/maximumEventDeclarations``.
  case tooManyEventDeclarations = "PC125"
  /// More expression nodes than ``PolicyLimits/maximumExpressionNodes``.
  case tooManyExpressionNodes = "PC126"
  /// More errors than ``Limits/maximumErrors``; the rest of the file was not reported on.
  case tooManyErrors = "PC199"

  // MARK: - Name and type errors

  /// A name that is not a fact, a `let` or `now`.
  case unknownName = "PC201"
  /// A call to a function that does not exist.
  case unknownFunction = "PC202"
  /// A comparison between values of types that cannot be compared.
  case incomparableTypes = "PC203"
  /// Arithmetic on operand types that the operator does not accept.
  case invalidOperands = "PC204"
  /// A value that must be a `bool` (a rule condition, an operand of `and`, `or`, `not`) is not.
  case notBoolean = "PC205"
  /// A fact or `let` that can be absent is used without a guard or a default.
  case unguardedAbsentValue = "PC206"
  /// Two rules with the same name.
  case duplicateRuleName = "PC207"
  /// A `let` or `fact` that reuses a name already defined.
  case duplicateDefinition = "PC208"
  /// A call with the wrong number of arguments.
  case wrongArgumentCount = "PC209"
  /// A call argument of the wrong type.
  case wrongArgumentType = "PC210"
  /// A list element that is not a literal, or elements of different types.
  case invalidListElement = "PC211"
  /// A list used anywhere but on the right of `in`.
  case misplacedList = "PC212"
  /// An ordering comparison (`<`, `>=`, ...) on a type that has no order.
  case unorderedType = "PC213"
  /// Division by a literal zero.
  case divisionByZero = "PC214"
  /// A `let` used before the line that defines it.
  case useBeforeDefinition = "PC215"
  /// A keyed fact used without its key, with a key of the wrong kind, or a plain fact called like a function.
  case invalidFactKey = "PC216"
  /// An event name the policy does not declare with `event`, or, when the app names the events it
  /// records, one the app does not record.
  case unknownEvent = "PC217"
  /// The default of a `fact` declaration that is not a literal of the declared type.
  case invalidFactDefault = "PC218"

  // MARK: - Warnings

  /// A policy without any `ask` rule never asks.
  case noAskRule = "PC301"
  /// A `let` that no rule uses.
  case unusedLet = "PC302"
  /// A `fact` declared by the policy that nothing uses.
  case unusedFact = "PC303"
  /// `has x` where `x` is never absent: always true.
  case alwaysPresent = "PC304"
  /// `x ?? d` where `x` is never absent: the default is never used.
  case needlessDefault = "PC305"
  /// `x in []`: never true.
  case emptyList = "PC306"
  /// A string key longer than its family's key length (``FactFamilyDefinition/keyLength``): only
  /// its first bytes name the member, so every key that agrees on them names the same fact.
  case cutFactKey = "PC307"

  // MARK: - Warnings about silencing comments (with PC315-PC317 below)

  /// A comment meant to silence warnings that is not spelt `# policyc: allow PCnnn`, such as
  /// `# policy: allow PC321`, `# policyc allow PC321`, `# policyc: allow PC 321` or `pc321`: it
  /// silences nothing.
  case misspeltSilencingComment = "PC309"

  // MARK: - Warnings of the policy analyzer (`policyc analyze`)

  /// A rule whose condition no facts satisfy (literal `true`/`false` and empty lists aside).
  case ruleNeverHolds = "PC310"
  /// A rule whose condition every set of facts satisfies (literal `true`/`false` and empty lists aside).
  case ruleAlwaysHolds = "PC311"
  /// An `ask` rule that can hold, but only when a `never` rule holds too, so it never decides.
  case shadowedAskRule = "PC312"
  /// Two comparisons of one value that contradict each other in an `and` (it never holds) or
  /// together cover every value in an `or` (it always holds).
  case contradictoryComparisons = "PC313"
  /// A comparison implied by another of the same `and` (or implying another of the same `or`).
  case redundantComparison = "PC314"

  // MARK: - Warnings about silencing comments

  /// A `# policyc:` comment whose directive is not `allow`, such as `# policyc: alow PC314`.
  case unknownDirective = "PC315"
  /// An `allow` of a code that no comment can silence: an unknown code, an error or a checker warning.
  case unknownAllowedCode = "PC316"
  /// An `allow` of a code that silences no warning of the declaration it applies to.
  case unusedAllow = "PC317"

  // MARK: - Warnings about the analysis itself

  /// The analysis ran out of its work budget: some rules were not checked.
  case analysisIncomplete = "PC318"

  // MARK: - Errors of the policy analyzer

  /// No set of facts a real history can produce makes the policy ask: it never asks anyone.
  case neverAsks = "PC319"
  /// More warnings than ``Limits/maximumErrors``; the rest were not reported.
  case tooManyWarnings = "PC399"

  /// Whether diagnostics with this code are errors or warnings.
  package var severity: Severity {
    switch self {
    // Lexical and syntax errors.
    case .fileTooLarge, .invalidUTF8, .unexpectedCharacter, .unterminatedString, .invalidEscape,
      .integerTooLarge, .invalidNumber, .invalidDuration, .invalidVersion, .expectedExpression, .expectedToken,
      .unexpectedToken, .unclosedDelimiter, .nestingTooDeep, .identifierTooLong, .stringTooLong,
      .tooManyDeclarations, .listTooLong, .chainedComparison, .bareConditionNotAlone, .expectedName,
      .unknownType, .tooManyRules, .tooManyLets, .tooManyFactDeclarations, .tooManyEventDeclarations,
      .tooManyExpressionNodes, .tooManyErrors:
      .error
    // Name and type errors.
    case .unknownName, .unknownFunction, .incomparableTypes, .invalidOperands, .notBoolean,
      .unguardedAbsentValue, .duplicateRuleName, .duplicateDefinition, .wrongArgumentCount, .wrongArgumentType,
      .invalidListElement, .misplacedList, .unorderedType, .divisionByZero, .useBeforeDefinition,
      .invalidFactKey, .unknownEvent, .invalidFactDefault:
      .error
    // The analyzer's one error: a policy that never asks anyone.
    case .neverAsks:
      .error
    // Warnings of the checker and the analyzer, and the cap on warnings.
    case .noAskRule, .unusedLet, .unusedFact, .alwaysPresent, .needlessDefault, .emptyList, .cutFactKey,
      .misspeltSilencingComment, .ruleNeverHolds,
      .ruleAlwaysHolds, .shadowedAskRule, .contradictoryComparisons, .redundantComparison, .unknownDirective,
      .unknownAllowedCode, .unusedAllow, .analysisIncomplete, .tooManyWarnings:
      .warning
    }
  }

  /// A short title for the code, such as "unknown name" (for SARIF rules and documentation).
  package var summary: String {
    switch self {
    case .fileTooLarge: "file too large"
    case .invalidUTF8: "invalid UTF-8"
    case .unexpectedCharacter: "unexpected character"
    case .unterminatedString: "unterminated string"
    case .invalidEscape: "unknown escape in a string"
    case .integerTooLarge: "integer too large"
    case .invalidNumber: "invalid number"
    case .invalidDuration: "invalid duration"
    case .invalidVersion: "invalid version"
    case .expectedExpression: "expected an expression"
    case .expectedToken: "expected a token"
    case .unexpectedToken: "unexpected text after a declaration"
    case .unclosedDelimiter: "unclosed parenthesis or bracket"
    case .nestingTooDeep: "expression nested too deeply"
    case .identifierTooLong: "identifier too long"
    case .stringTooLong: "string too long"
    case .tooManyDeclarations: "too many declarations"
    case .listTooLong: "list too long"
    case .chainedComparison: "chained comparison"
    case .bareConditionNotAlone: "bare condition beside other rules"
    case .expectedName: "expected a name"
    case .unknownType: "unknown type"
    case .tooManyRules: "too many rules"
    case .tooManyLets: "too many `let` definitions"
    case .tooManyFactDeclarations: "too many fact declarations"
    case .tooManyEventDeclarations: "too many event names"
    case .tooManyExpressionNodes: "too many expression nodes"
    case .tooManyErrors: "too many errors"
    case .unknownName: "unknown name"
    case .unknownFunction: "unknown function"
    case .incomparableTypes: "values of different types compared"
    case .invalidOperands: "invalid operands"
    case .notBoolean: "condition is not a bool"
    case .unguardedAbsentValue: "value that can be absent used without a guard or default"
    case .duplicateRuleName: "duplicate rule name"
    case .duplicateDefinition: "duplicate definition"
    case .wrongArgumentCount: "wrong number of arguments"
    case .wrongArgumentType: "wrong argument type"
    case .invalidListElement: "invalid list element"
    case .misplacedList: "list outside `in`"
    case .unorderedType: "ordering comparison on an unordered type"
    case .divisionByZero: "division by zero"
    case .useBeforeDefinition: "`let` used before its definition"
    case .invalidFactKey: "invalid key of a keyed fact"
    case .unknownEvent: "unknown event name"
    case .invalidFactDefault: "invalid default of a fact declaration"
    case .noAskRule: "policy never asks"
    case .unusedLet: "unused `let`"
    case .unusedFact: "unused fact declaration"
    case .alwaysPresent: "`has` on a fact that is never absent"
    case .needlessDefault: "default for a value that is never absent"
    case .emptyList: "empty list"
    case .cutFactKey: "key longer than its family keeps"
    case .misspeltSilencingComment: "misspelt silencing comment"
    case .ruleNeverHolds: "rule never holds"
    case .ruleAlwaysHolds: "rule always holds"
    case .shadowedAskRule: "ask rule shadowed by never rules"
    case .contradictoryComparisons: "contradictory comparisons"
    case .redundantComparison: "redundant comparison"
    case .unknownDirective: "unknown directive in a `policyc:` comment"
    case .unknownAllowedCode: "`allow` of a code no comment can silence"
    case .unusedAllow: "`allow` that silences nothing"
    case .analysisIncomplete: "analysis incomplete"
    case .neverAsks: "policy never asks anyone"
    case .tooManyWarnings: "too many warnings"
    }
  }
}
