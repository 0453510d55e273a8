/// The built-in functions and names of the language.
public enum Builtin: String, Sendable, Hashable, CaseIterable {
  /// `since(instant) -> duration`: the time from the instant to `now`; infinite when the instant is absent.
  case since
  /// `min(a, b, ...)`: the smallest of two or more values of one ordered type.
  case min
  /// `max(a, b, ...)`: the largest of two or more values of one ordered type.
  case max

  /// The name `now`: the instant of the evaluation.
  public static let nowName = "now"

  /// Names no schema or declaration may reuse.
  public static let reservedNames: Set<String> = Set(allCases.map(\.rawValue) + [nowName])

  /// The signature as shown in help text.
  public var signature: String {
    switch self {
    case .since: "since(instant) -> duration"
    case .min: "min(a, b, ...)"
    case .max: "max(a, b, ...)"
    }
  }
}
