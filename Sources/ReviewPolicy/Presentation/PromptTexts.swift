import Foundation

/// The five texts of a review prompt: a title, a message and three buttons.
///
/// Texts may contain the placeholder `{app}`, which ``resolved(appName:)`` replaces
/// with the app's name. The built-in texts (``defaults(for:)``) put `{app}` in the
/// title only, so that languages with grammatical case never have to inflect a name
/// they cannot know.
///
/// ```swift
/// let texts = PromptTexts.defaults(forPreferredLanguages: Locale.preferredLanguages)
///   .overriding(rateButton: "Leave a review")
///   .resolved(appName: "Trailmap")
/// ```
public struct PromptTexts: Sendable, Hashable, Codable {
  /// The placeholder that ``resolved(appName:)`` replaces with the app's name.
  public static let appNamePlaceholder = "{app}"

  /// The prompt's title, for example "Enjoying {app}?".
  public var title: String
  /// The prompt's body, asking for a short review.
  public var message: String
  /// The label of the button that opens the store to rate the app.
  public var rateButton: String
  /// The label of the button that postpones the prompt.
  public var remindButton: String
  /// The label of the button that declines for good.
  public var declineButton: String

  /// Creates prompt texts from the five strings, which may contain `{app}`.
  @inline(never)
  public init(title: String, message: String, rateButton: String, remindButton: String, declineButton: String) {
    self.title = title
    self.message = message
    self.rateButton = rateButton
    self.remindButton = remindButton
    self.declineButton = declineButton
  }

  // MARK: Built-in texts

  /// The language identifiers that have built-in texts, sorted.
  ///
  /// Each is the canonical form that ``supportedLanguage(matching:)`` returns:
  /// a bare language code, except `pt-BR`, `pt-PT`, `zh-Hans` and `zh-Hant`.
  public static let supportedLanguages: [String] = catalog.keys.stablySorted(by: <)

  /// The built-in English texts, the fallback for every unsupported language.
  public static var english: PromptTexts { catalog["en"] ?? englishFallback }

  /// Returns the built-in texts for a language identifier, or English if the language is not supported.
  ///
  /// The identifier may be BCP 47 (`pt-BR`, `zh-Hant-TW`) or Apple/POSIX style
  /// (`pt_BR`, `en_US.UTF-8`, `de_DE@calendar=gregorian`), in any letter case.
  /// See ``supportedLanguage(matching:)`` for how regions, scripts and old codes map.
  public static func defaults(for languageIdentifier: String) -> PromptTexts {
    supportedLanguage(matching: languageIdentifier).flatMap { catalog[$0] } ?? english
  }

  /// Returns the built-in texts for the first supported language in a preference list, or English if none is.
  ///
  /// Pass `Locale.preferredLanguages` to follow the user's settings.
  public static func defaults(forPreferredLanguages preferredLanguages: [String]) -> PromptTexts {
    for identifier in preferredLanguages {
      if let language = supportedLanguage(matching: identifier), let texts = catalog[language] {
        return texts
      }
    }
    return english
  }

  /// Returns the entry of ``supportedLanguages`` that serves a language identifier, or `nil` if none does.
  ///
  /// Matching ignores letter case, accepts `-` or `_` between subtags, and ignores
  /// POSIX suffixes (`.UTF-8`, `@euro`) and BCP 47 extensions (`-u-…`, `-x-…`).
  /// - Portuguese: region `BR` gives `pt-BR`; any other region, or none, gives `pt-PT`.
  /// - Chinese: script `Hans` or `Hant` decides; without a script, regions `TW`, `HK`
  ///   and `MO` give `zh-Hant` and anything else (`CN`, `SG`, none) gives `zh-Hans`.
  ///   Cantonese (`yue`) is written with the same characters and follows the same rule,
  ///   defaulting to `zh-Hant`.
  /// - Norwegian: `nb`, `no` and `nn` all give `nb` (Bokmål).
  /// - Withdrawn or alternative codes: `iw` gives `he`, `in` gives `id`, and the
  ///   three-letter Armenian codes `arm` and `hye` give `hy`.
  /// - Any other language matches on its language code alone (`de-AT` gives `de`).
  public static func supportedLanguage(matching languageIdentifier: String) -> String? {
    var identifier = Substring(languageIdentifier.trimmingCharacters(in: .whitespacesAndNewlines))
    if let cut = identifier.firstIndex(where: { $0 == "." || $0 == "@" }) {
      identifier = identifier[..<cut]
    }
    var subtags = identifier.lowercased().split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" }
    ).map(String.init)
    // A singleton subtag (`u`, `x`, ...) starts an extension or private use: nothing after it names the language.
    if let singleton = subtags.indices.dropFirst().first(where: { subtags[$0].count == 1 }) {
      subtags.removeSubrange(singleton...)
    }
    guard let first = subtags.first, !first.isEmpty, first.allSatisfy({ $0.isASCII && $0.isLetter }) else {
      return nil
    }
    let rest = subtags.dropFirst()
    let script = rest.first { $0.count == 4 && $0.allSatisfy(\.isLetter) }
    let region = rest.first {
      ($0.count == 2 && $0.allSatisfy(\.isLetter)) || ($0.count == 3 && $0.allSatisfy(\.isNumber))
    }

    let language = languageAliases[first] ?? first
    switch language {
    case "pt":
      return region == "br" ? "pt-BR" : "pt-PT"
    case "zh", "yue":
      switch script {
      case "hans": return "zh-Hans"
      case "hant": return "zh-Hant"
      default: break
      }
      if let region {
        return ["tw", "hk", "mo"].contains(region) ? "zh-Hant" : "zh-Hans"
      }
      return language == "yue" ? "zh-Hant" : "zh-Hans"
    default:
      return catalog[language] == nil ? nil : language
    }
  }

  /// Old, alternative and macro-language codes, mapped to the code the catalog uses.
  static let languageAliases: [String: String] = [
    "iw": "he", "in": "id", "no": "nb", "nn": "nb", "nob": "nb", "nno": "nb", "nor": "nb",
    "arm": "hy", "hye": "hy",
  ]

  /// Used only if the catalog somehow lost its English entry; the tests check that it equals that entry.
  static let englishFallback = PromptTexts(
    title: "Enjoying {app}?",
    message: "If you like the app, would you take a moment to write a short review? It really helps. Thank you!",
    rateButton: "Rate now",
    remindButton: "Remind me later",
    declineButton: "No, thanks"
  )

  // MARK: Customizing

  /// Returns these texts with every `{app}` replaced by the app's name.
  ///
  /// Replacement is literal and happens once: an app name that itself contains
  /// `{app}`, `%@` or any other special text is inserted unchanged and never
  /// scanned again. Nothing else in the texts is interpreted.
  public func resolved(appName: String) -> PromptTexts {
    let replacements = [(Self.appNamePlaceholder, appName)]
    return PromptTexts(
      title: PlaceholderSubstitution.substitute(title, replacements),
      message: PlaceholderSubstitution.substitute(message, replacements),
      rateButton: PlaceholderSubstitution.substitute(rateButton, replacements),
      remindButton: PlaceholderSubstitution.substitute(remindButton, replacements),
      declineButton: PlaceholderSubstitution.substitute(declineButton, replacements)
    )
  }

  /// Returns these texts with some of them replaced; a `nil` argument keeps the current text.
  public func overriding(
    title: String? = nil,
    message: String? = nil,
    rateButton: String? = nil,
    remindButton: String? = nil,
    declineButton: String? = nil
  ) -> PromptTexts {
    PromptTexts(
      title: title ?? self.title,
      message: message ?? self.message,
      rateButton: rateButton ?? self.rateButton,
      remindButton: remindButton ?? self.remindButton,
      declineButton: declineButton ?? self.declineButton
    )
  }
}

/// Replaces placeholders in one left-to-right pass, comparing Unicode scalars exactly.
///
/// Inserted values are never scanned again, so a value containing a placeholder stays as it is.
enum PlaceholderSubstitution {
  static func substitute(_ text: String, _ replacements: [(placeholder: String, value: String)]) -> String {
    let scalars = Array(text.unicodeScalars)
    let patterns = replacements.map { (Array($0.placeholder.unicodeScalars), $0.value) }.filter { !$0.0.isEmpty }
    var result = String.UnicodeScalarView()
    var index = 0
    scan: while index < scalars.count {
      for (pattern, value) in patterns
      where index + pattern.count <= scalars.count && scalars[index..<(index + pattern.count)].elementsEqual(pattern) {
        result.append(contentsOf: value.unicodeScalars)
        index += pattern.count
        continue scan
      }
      result.append(scalars[index])
      index += 1
    }
    return String(result)
  }

  /// Whether `text` contains `placeholder`, comparing Unicode scalars exactly.
  static func contains(_ text: String, _ placeholder: String) -> Bool {
    occurrences(of: placeholder, in: text) > 0
  }

  /// The number of non-overlapping occurrences of `placeholder` in `text`, comparing Unicode scalars exactly.
  static func occurrences(of placeholder: String, in text: String) -> Int {
    let scalars = Array(text.unicodeScalars)
    let pattern = Array(placeholder.unicodeScalars)
    guard !pattern.isEmpty else { return 0 }
    var count = 0
    var index = 0
    while index + pattern.count <= scalars.count {
      if scalars[index..<(index + pattern.count)].elementsEqual(pattern) {
        count += 1
        index += pattern.count
      } else {
        index += 1
      }
    }
    return count
  }
}
