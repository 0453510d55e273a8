extension DiagnosticCode {
  /// A short title for the code, such as "unknown name" (for SARIF rules and documentation).
  ///
  /// A test checks that every code has one.
  public var summary: String {
    DiagnosticCode.summaries[self] ?? rawValue
  }

  /// Whether ``summary`` is written for this code (rather than falling back to the raw value).
  public var hasSummary: Bool { DiagnosticCode.summaries[self] != nil }

  static let summaries: [DiagnosticCode: String] = [
    .fileTooLarge: "file too large",
    .invalidUTF8: "invalid UTF-8",
    .unexpectedCharacter: "unexpected character",
    .unterminatedString: "unterminated string",
    .invalidEscape: "unknown escape in a string",
    .integerTooLarge: "integer too large",
    .invalidNumber: "invalid number",
    .invalidDuration: "invalid duration",
    .invalidVersion: "invalid version",
    .expectedExpression: "expected an expression",
    .expectedToken: "expected a token",
    .unexpectedToken: "unexpected text after a declaration",
    .unclosedDelimiter: "unclosed parenthesis or bracket",
    .nestingTooDeep: "expression nested too deeply",
    .identifierTooLong: "identifier too long",
    .stringTooLong: "string too long",
    .tooManyDeclarations: "too many declarations",
    .listTooLong: "list too long",
    .chainedComparison: "chained comparison",
    .bareConditionNotAlone: "bare condition beside other rules",
    .expectedName: "expected a name",
    .unknownType: "unknown type",
    .tooManyErrors: "too many errors",
    .unknownName: "unknown name",
    .unknownFunction: "unknown function",
    .incomparableTypes: "values of different types compared",
    .invalidOperands: "invalid operands",
    .notBoolean: "condition is not a bool",
    .unguardedAbsentValue: "value that can be absent used without a guard or default",
    .duplicateRuleName: "duplicate rule name",
    .duplicateDefinition: "duplicate definition",
    .wrongArgumentCount: "wrong number of arguments",
    .wrongArgumentType: "wrong argument type",
    .invalidListElement: "invalid list element",
    .misplacedList: "list outside `in`",
    .unorderedType: "ordering comparison on an unordered type",
    .divisionByZero: "division by zero",
    .useBeforeDefinition: "`let` used before its definition",
    .invalidFactKey: "invalid key of a keyed fact",
    .noAskRule: "policy never asks",
    .unusedLet: "unused `let`",
    .unusedFact: "unused fact declaration",
    .alwaysPresent: "`has` on a fact that is never absent",
    .needlessDefault: "default for a value that is never absent",
    .emptyList: "empty list",
    .tooManyWarnings: "too many warnings",
    .invalidJSON: "invalid JSON",
    .unexpectedJSON: "unexpected JSON",
    .unknownFact: "unknown fact",
    .invalidFactValue: "invalid fact value",
    .missingFact: "missing fact",
    .invalidHistoryStep: "invalid history step",
    .unusablePolicy: "unusable policy",
  ]
}
