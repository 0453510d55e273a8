import PolicyCore

extension PolicyLimits {
  /// The limits of a remote policy update, far tighter than those of a policy file
  /// (``PolicyLimits/file``) and sized for real policies with a wide margin: the largest example
  /// policy is 2,245 bytes with 10 rules.
  ///
  /// A ``ReviewManager`` compiles every update under them, one received
  /// (`updatePolicy(_:)`) and one stored and compiled again at launch, so that accepting,
  /// rejecting and running any update stays within a few milliseconds. Each limit is checked
  /// before the work it guards and rejected with its own error; docs/remote-updates.md lists
  /// them with their codes, and `policyc check --update-limits` checks a file against them.
  public static let remoteUpdate = PolicyLimits(
    subject: "update", maximumSize: 64 * 1024, maximumNestingDepth: 32, maximumIdentifierLength: 64,
    maximumStringLength: 1024, maximumDeclarations: 640, maximumListLength: 256, maximumRules: 256,
    maximumLets: 256, maximumFactDeclarations: 64, maximumEventDeclarations: 64, maximumExpressionNodes: 8192)
}
