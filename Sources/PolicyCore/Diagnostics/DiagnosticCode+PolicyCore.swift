// PolicyCore's codes as static members of ``DiagnosticCode``, the way Foundation's
// `Notification.Name` is extended: `diagnostic.code == .unknownName` and `[DiagnosticCode]`
// literals read naturally, and a module with codes of its own may add members for them (their
// spellings must not clash). The members mirror ``PolicyCoreCode`` in order; a test checks it.

extension DiagnosticCode {
  /// `PC100` of `PolicyCoreCode`.
  public static var fileTooLarge: DiagnosticCode { PolicyCoreCode.fileTooLarge.code }
  /// `PC101` of `PolicyCoreCode`.
  public static var invalidUTF8: DiagnosticCode { PolicyCoreCode.invalidUTF8.code }
  /// `PC102` of `PolicyCoreCode`.
  public static var unexpectedCharacter: DiagnosticCode { PolicyCoreCode.unexpectedCharacter.code }
  /// `PC103` of `PolicyCoreCode`.
  public static var unterminatedString: DiagnosticCode { PolicyCoreCode.unterminatedString.code }
  /// `PC104` of `PolicyCoreCode`.
  public static var invalidEscape: DiagnosticCode { PolicyCoreCode.invalidEscape.code }
  /// `PC105` of `PolicyCoreCode`.
  public static var integerTooLarge: DiagnosticCode { PolicyCoreCode.integerTooLarge.code }
  /// `PC106` of `PolicyCoreCode`.
  public static var invalidNumber: DiagnosticCode { PolicyCoreCode.invalidNumber.code }
  /// `PC107` of `PolicyCoreCode`.
  public static var invalidDuration: DiagnosticCode { PolicyCoreCode.invalidDuration.code }
  /// `PC108` of `PolicyCoreCode`.
  public static var invalidVersion: DiagnosticCode { PolicyCoreCode.invalidVersion.code }
  /// `PC109` of `PolicyCoreCode`.
  public static var expectedExpression: DiagnosticCode { PolicyCoreCode.expectedExpression.code }
  /// `PC110` of `PolicyCoreCode`.
  public static var expectedToken: DiagnosticCode { PolicyCoreCode.expectedToken.code }
  /// `PC111` of `PolicyCoreCode`.
  public static var unexpectedToken: DiagnosticCode { PolicyCoreCode.unexpectedToken.code }
  /// `PC112` of `PolicyCoreCode`.
  public static var unclosedDelimiter: DiagnosticCode { PolicyCoreCode.unclosedDelimiter.code }
  /// `PC113` of `PolicyCoreCode`.
  public static var nestingTooDeep: DiagnosticCode { PolicyCoreCode.nestingTooDeep.code }
  /// `PC114` of `PolicyCoreCode`.
  public static var identifierTooLong: DiagnosticCode { PolicyCoreCode.identifierTooLong.code }
  /// `PC115` of `PolicyCoreCode`.
  public static var stringTooLong: DiagnosticCode { PolicyCoreCode.stringTooLong.code }
  /// `PC117` of `PolicyCoreCode`.
  public static var listTooLong: DiagnosticCode { PolicyCoreCode.listTooLong.code }
  /// `PC118` of `PolicyCoreCode`.
  public static var chainedComparison: DiagnosticCode { PolicyCoreCode.chainedComparison.code }
  /// `PC119` of `PolicyCoreCode`.
  public static var bareConditionNotAlone: DiagnosticCode { PolicyCoreCode.bareConditionNotAlone.code }
  /// `PC120` of `PolicyCoreCode`.
  public static var expectedName: DiagnosticCode { PolicyCoreCode.expectedName.code }
  /// `PC121` of `PolicyCoreCode`.
  public static var unknownType: DiagnosticCode { PolicyCoreCode.unknownType.code }
  /// `PC122` of `PolicyCoreCode`.
  public static var tooManyRules: DiagnosticCode { PolicyCoreCode.tooManyRules.code }
  /// `PC123` of `PolicyCoreCode`.
  public static var tooManyLets: DiagnosticCode { PolicyCoreCode.tooManyLets.code }
  /// `PC124` of `PolicyCoreCode`.
  public static var tooManyFactDeclarations: DiagnosticCode { PolicyCoreCode.tooManyFactDeclarations.code }
  /// `PC125` of `PolicyCoreCode`.
  public static var tooManyEventDeclarations: DiagnosticCode { PolicyCoreCode.tooManyEventDeclarations.code }
  /// `PC126` of `PolicyCoreCode`.
  public static var tooManyExpressionNodes: DiagnosticCode { PolicyCoreCode.tooManyExpressionNodes.code }
  /// `PC199` of `PolicyCoreCode`.
  public static var tooManyErrors: DiagnosticCode { PolicyCoreCode.tooManyErrors.code }
  /// `PC201` of `PolicyCoreCode`.
  public static var unknownName: DiagnosticCode { PolicyCoreCode.unknownName.code }
  /// `PC202` of `PolicyCoreCode`.
  public static var unknownFunction: DiagnosticCode { PolicyCoreCode.unknownFunction.code }
  /// `PC203` of `PolicyCoreCode`.
  public static var incomparableTypes: DiagnosticCode { PolicyCoreCode.incomparableTypes.code }
  /// `PC204` of `PolicyCoreCode`.
  public static var invalidOperands: DiagnosticCode { PolicyCoreCode.invalidOperands.code }
  /// `PC205` of `PolicyCoreCode`.
  public static var notBoolean: DiagnosticCode { PolicyCoreCode.notBoolean.code }
  /// `PC206` of `PolicyCoreCode`.
  public static var unguardedAbsentValue: DiagnosticCode { PolicyCoreCode.unguardedAbsentValue.code }
  /// `PC207` of `PolicyCoreCode`.
  public static var duplicateRuleName: DiagnosticCode { PolicyCoreCode.duplicateRuleName.code }
  /// `PC208` of `PolicyCoreCode`.
  public static var duplicateDefinition: DiagnosticCode { PolicyCoreCode.duplicateDefinition.code }
  /// `PC209` of `PolicyCoreCode`.
  public static var wrongArgumentCount: DiagnosticCode { PolicyCoreCode.wrongArgumentCount.code }
  /// `PC210` of `PolicyCoreCode`.
  public static var wrongArgumentType: DiagnosticCode { PolicyCoreCode.wrongArgumentType.code }
  /// `PC211` of `PolicyCoreCode`.
  public static var invalidListElement: DiagnosticCode { PolicyCoreCode.invalidListElement.code }
  /// `PC212` of `PolicyCoreCode`.
  public static var misplacedList: DiagnosticCode { PolicyCoreCode.misplacedList.code }
  /// `PC213` of `PolicyCoreCode`.
  public static var unorderedType: DiagnosticCode { PolicyCoreCode.unorderedType.code }
  /// `PC214` of `PolicyCoreCode`.
  public static var divisionByZero: DiagnosticCode { PolicyCoreCode.divisionByZero.code }
  /// `PC215` of `PolicyCoreCode`.
  public static var useBeforeDefinition: DiagnosticCode { PolicyCoreCode.useBeforeDefinition.code }
  /// `PC216` of `PolicyCoreCode`.
  public static var invalidFactKey: DiagnosticCode { PolicyCoreCode.invalidFactKey.code }
  /// `PC301` of `PolicyCoreCode`.
  public static var noAskRule: DiagnosticCode { PolicyCoreCode.noAskRule.code }
  /// `PC302` of `PolicyCoreCode`.
  public static var unusedLet: DiagnosticCode { PolicyCoreCode.unusedLet.code }
  /// `PC303` of `PolicyCoreCode`.
  public static var unusedFact: DiagnosticCode { PolicyCoreCode.unusedFact.code }
  /// `PC304` of `PolicyCoreCode`.
  public static var alwaysPresent: DiagnosticCode { PolicyCoreCode.alwaysPresent.code }
  /// `PC305` of `PolicyCoreCode`.
  public static var needlessDefault: DiagnosticCode { PolicyCoreCode.needlessDefault.code }
  /// `PC306` of `PolicyCoreCode`.
  public static var emptyList: DiagnosticCode { PolicyCoreCode.emptyList.code }
  /// `PC307` of `PolicyCoreCode`.
  public static var cutFactKey: DiagnosticCode { PolicyCoreCode.cutFactKey.code }
  /// `PC310` of `PolicyCoreCode`.
  public static var ruleNeverHolds: DiagnosticCode { PolicyCoreCode.ruleNeverHolds.code }
  /// `PC311` of `PolicyCoreCode`.
  public static var ruleAlwaysHolds: DiagnosticCode { PolicyCoreCode.ruleAlwaysHolds.code }
  /// `PC312` of `PolicyCoreCode`.
  public static var shadowedAskRule: DiagnosticCode { PolicyCoreCode.shadowedAskRule.code }
  /// `PC313` of `PolicyCoreCode`.
  public static var contradictoryComparisons: DiagnosticCode { PolicyCoreCode.contradictoryComparisons.code }
  /// `PC314` of `PolicyCoreCode`.
  public static var redundantComparison: DiagnosticCode { PolicyCoreCode.redundantComparison.code }
  /// `PC318` of `PolicyCoreCode`.
  public static var analysisIncomplete: DiagnosticCode { PolicyCoreCode.analysisIncomplete.code }
  /// `PC319` of `PolicyCoreCode`.
  public static var neverAsks: DiagnosticCode { PolicyCoreCode.neverAsks.code }
  /// `PC399` of `PolicyCoreCode`.
  public static var tooManyWarnings: DiagnosticCode { PolicyCoreCode.tooManyWarnings.code }
}
