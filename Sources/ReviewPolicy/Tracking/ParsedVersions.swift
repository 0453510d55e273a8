import PolicyCore

/// The previous version and the last prompt's version of a state, parsed (an app version
/// string takes a thousand instructions to parse; these change a few times a year).
struct ParsedVersions: Sendable {
  /// The state's previous version and its parse.
  private var previous: (text: String, version: Version?)?
  /// The version of the state's last prompt and its parse.
  private var lastPrompt: (text: String, version: Version?)?

  /// No versions parsed.
  init() {}

  /// Parses the versions of `state` that differ from the ones held.
  mutating func update(for state: ReviewState) {
    if let text = state.previousVersion, previous?.text != text { previous = (text, AppVersion.parse(text)) }
    if let text = state.lastPrompt?.version, lastPrompt?.text != text { lastPrompt = (text, AppVersion.parse(text)) }
  }

  /// The parse of `text` if it is held: `.some(nil)` for a held text that does not parse, nil if not held.
  func version(of text: String) -> Version?? {
    if let previous, previous.text == text { return .some(previous.version) }
    if let lastPrompt, lastPrompt.text == text { return .some(lastPrompt.version) }
    return nil
  }
}
