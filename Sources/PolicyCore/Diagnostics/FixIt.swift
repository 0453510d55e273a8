/// A machine-applicable fix for a ``Diagnostic``: a title and the edits that make it.
///
/// An editor offers the ``message`` as an action; `policyc check --fix` applies the ``edits``
/// with ``SourceEdit/apply(_:to:)``. Every edit of one fix-it is applied together or not at all.
public struct FixIt: Sendable, Hashable {
  /// What the fix does, written like a help line: "replace `&&` with `and`".
  public var message: String
  /// The edits, in the diagnostic's file; they must not overlap.
  public var edits: [SourceEdit]
  /// Whether a tool may apply it without asking (`policyc check --fix` does): true for a fix that
  /// repairs what was written (an operator, a unit, a misspelt name); false for a suggestion that
  /// changes what the policy decides, such as an added rule, which an editor offers as a quick fix
  /// and a person accepts.
  public var isAutomatic: Bool

  /// Creates a fix-it; `isAutomatic: false` marks a suggestion that changes what the policy decides.
  public init(_ message: String, edits: [SourceEdit], isAutomatic: Bool = true) {
    self.message = message
    self.edits = edits
    self.isAutomatic = isAutomatic
  }

  /// The file's bytes with this fix-it's edits applied, or why they cannot be.
  public func apply(to bytes: [UInt8]) -> Result<[UInt8], SourceEditError> {
    SourceEdit.apply(edits, to: bytes)
  }
}
