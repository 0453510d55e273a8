// Transitional shims from the time PolicyCore's codes were the only ones (`DiagnosticCode` was
// their enum). They keep `.error(.unknownName, ...)`, `diagnostic.code == .unknownName` and
// `[DiagnosticCode]` literals compiling while the code that uses them moves; new code names
// ``PolicyCoreCode`` (or its own module's codes) instead. One member per case of
// ``PolicyCoreCode`` that still has users (the checker, the analyzer, the compiler and
// PolicyCore's tests), in the same order; remove a member when its last user goes.

extension DiagnosticCode {
  /// `PC100` of ``PolicyCoreCode`` (transitional).
  public static var fileTooLarge: DiagnosticCode { PolicyCoreCode.fileTooLarge.code }
  /// `PC101` of ``PolicyCoreCode`` (transitional).
  public static var invalidUTF8: DiagnosticCode { PolicyCoreCode.invalidUTF8.code }
  /// `PC102` of ``PolicyCoreCode`` (transitional).
  public static var unexpectedCharacter: DiagnosticCode { PolicyCoreCode.unexpectedCharacter.code }
  /// `PC103` of ``PolicyCoreCode`` (transitional).
  public static var unterminatedString: DiagnosticCode { PolicyCoreCode.unterminatedString.code }
  /// `PC104` of ``PolicyCoreCode`` (transitional).
  public static var invalidEscape: DiagnosticCode { PolicyCoreCode.invalidEscape.code }
  /// `PC105` of ``PolicyCoreCode`` (transitional).
  public static var integerTooLarge: DiagnosticCode { PolicyCoreCode.integerTooLarge.code }
  /// `PC106` of ``PolicyCoreCode`` (transitional).
  public static var invalidNumber: DiagnosticCode { PolicyCoreCode.invalidNumber.code }
  /// `PC107` of ``PolicyCoreCode`` (transitional).
  public static var invalidDuration: DiagnosticCode { PolicyCoreCode.invalidDuration.code }
  /// `PC108` of ``PolicyCoreCode`` (transitional).
  public static var invalidVersion: DiagnosticCode { PolicyCoreCode.invalidVersion.code }
  /// `PC109` of ``PolicyCoreCode`` (transitional).
  public static var expectedExpression: DiagnosticCode { PolicyCoreCode.expectedExpression.code }
  /// `PC110` of ``PolicyCoreCode`` (transitional).
  public static var expectedToken: DiagnosticCode { PolicyCoreCode.expectedToken.code }
  /// `PC111` of ``PolicyCoreCode`` (transitional).
  public static var unexpectedToken: DiagnosticCode { PolicyCoreCode.unexpectedToken.code }
  /// `PC112` of ``PolicyCoreCode`` (transitional).
  public static var unclosedDelimiter: DiagnosticCode { PolicyCoreCode.unclosedDelimiter.code }
  /// `PC113` of ``PolicyCoreCode`` (transitional).
  public static var nestingTooDeep: DiagnosticCode { PolicyCoreCode.nestingTooDeep.code }
  /// `PC114` of ``PolicyCoreCode`` (transitional).
  public static var identifierTooLong: DiagnosticCode { PolicyCoreCode.identifierTooLong.code }
  /// `PC115` of ``PolicyCoreCode`` (transitional).
  public static var stringTooLong: DiagnosticCode { PolicyCoreCode.stringTooLong.code }
  /// `PC117` of ``PolicyCoreCode`` (transitional).
  public static var listTooLong: DiagnosticCode { PolicyCoreCode.listTooLong.code }
  /// `PC118` of ``PolicyCoreCode`` (transitional).
  public static var chainedComparison: DiagnosticCode { PolicyCoreCode.chainedComparison.code }
  /// `PC119` of ``PolicyCoreCode`` (transitional).
  public static var bareConditionNotAlone: DiagnosticCode { PolicyCoreCode.bareConditionNotAlone.code }
  /// `PC120` of ``PolicyCoreCode`` (transitional).
  public static var expectedName: DiagnosticCode { PolicyCoreCode.expectedName.code }
  /// `PC121` of ``PolicyCoreCode`` (transitional).
  public static var unknownType: DiagnosticCode { PolicyCoreCode.unknownType.code }
  /// `PC199` of ``PolicyCoreCode`` (transitional).
  public static var tooManyErrors: DiagnosticCode { PolicyCoreCode.tooManyErrors.code }
  /// `PC201` of ``PolicyCoreCode`` (transitional).
  public static var unknownName: DiagnosticCode { PolicyCoreCode.unknownName.code }
  /// `PC202` of ``PolicyCoreCode`` (transitional).
  public static var unknownFunction: DiagnosticCode { PolicyCoreCode.unknownFunction.code }
  /// `PC203` of ``PolicyCoreCode`` (transitional).
  public static var incomparableTypes: DiagnosticCode { PolicyCoreCode.incomparableTypes.code }
  /// `PC204` of ``PolicyCoreCode`` (transitional).
  public static var invalidOperands: DiagnosticCode { PolicyCoreCode.invalidOperands.code }
  /// `PC205` of ``PolicyCoreCode`` (transitional).
  public static var notBoolean: DiagnosticCode { PolicyCoreCode.notBoolean.code }
  /// `PC206` of ``PolicyCoreCode`` (transitional).
  public static var unguardedAbsentValue: DiagnosticCode { PolicyCoreCode.unguardedAbsentValue.code }
  /// `PC207` of ``PolicyCoreCode`` (transitional).
  public static var duplicateRuleName: DiagnosticCode { PolicyCoreCode.duplicateRuleName.code }
  /// `PC208` of ``PolicyCoreCode`` (transitional).
  public static var duplicateDefinition: DiagnosticCode { PolicyCoreCode.duplicateDefinition.code }
  /// `PC209` of ``PolicyCoreCode`` (transitional).
  public static var wrongArgumentCount: DiagnosticCode { PolicyCoreCode.wrongArgumentCount.code }
  /// `PC210` of ``PolicyCoreCode`` (transitional).
  public static var wrongArgumentType: DiagnosticCode { PolicyCoreCode.wrongArgumentType.code }
  /// `PC211` of ``PolicyCoreCode`` (transitional).
  public static var invalidListElement: DiagnosticCode { PolicyCoreCode.invalidListElement.code }
  /// `PC212` of ``PolicyCoreCode`` (transitional).
  public static var misplacedList: DiagnosticCode { PolicyCoreCode.misplacedList.code }
  /// `PC213` of ``PolicyCoreCode`` (transitional).
  public static var unorderedType: DiagnosticCode { PolicyCoreCode.unorderedType.code }
  /// `PC214` of ``PolicyCoreCode`` (transitional).
  public static var divisionByZero: DiagnosticCode { PolicyCoreCode.divisionByZero.code }
  /// `PC215` of ``PolicyCoreCode`` (transitional).
  public static var useBeforeDefinition: DiagnosticCode { PolicyCoreCode.useBeforeDefinition.code }
  /// `PC216` of ``PolicyCoreCode`` (transitional).
  public static var invalidFactKey: DiagnosticCode { PolicyCoreCode.invalidFactKey.code }
  /// `PC301` of ``PolicyCoreCode`` (transitional).
  public static var noAskRule: DiagnosticCode { PolicyCoreCode.noAskRule.code }
  /// `PC302` of ``PolicyCoreCode`` (transitional).
  public static var unusedLet: DiagnosticCode { PolicyCoreCode.unusedLet.code }
  /// `PC303` of ``PolicyCoreCode`` (transitional).
  public static var unusedFact: DiagnosticCode { PolicyCoreCode.unusedFact.code }
  /// `PC304` of ``PolicyCoreCode`` (transitional).
  public static var alwaysPresent: DiagnosticCode { PolicyCoreCode.alwaysPresent.code }
  /// `PC305` of ``PolicyCoreCode`` (transitional).
  public static var needlessDefault: DiagnosticCode { PolicyCoreCode.needlessDefault.code }
  /// `PC306` of ``PolicyCoreCode`` (transitional).
  public static var emptyList: DiagnosticCode { PolicyCoreCode.emptyList.code }
  /// `PC310` of ``PolicyCoreCode`` (transitional).
  public static var ruleNeverHolds: DiagnosticCode { PolicyCoreCode.ruleNeverHolds.code }
  /// `PC311` of ``PolicyCoreCode`` (transitional).
  public static var ruleAlwaysHolds: DiagnosticCode { PolicyCoreCode.ruleAlwaysHolds.code }
  /// `PC312` of ``PolicyCoreCode`` (transitional).
  public static var shadowedAskRule: DiagnosticCode { PolicyCoreCode.shadowedAskRule.code }
  /// `PC313` of ``PolicyCoreCode`` (transitional).
  public static var contradictoryComparisons: DiagnosticCode { PolicyCoreCode.contradictoryComparisons.code }
  /// `PC314` of ``PolicyCoreCode`` (transitional).
  public static var redundantComparison: DiagnosticCode { PolicyCoreCode.redundantComparison.code }
  /// `PC399` of ``PolicyCoreCode`` (transitional).
  public static var tooManyWarnings: DiagnosticCode { PolicyCoreCode.tooManyWarnings.code }
}
