import Foundation
import Testing

@testable import ReviewPolicy

@Suite("prompt texts")
struct PromptTextsTests {
  static let requiredLanguages = [
    "ar", "ca", "cs", "da", "de", "el", "en", "es", "fa", "fi", "fr", "he", "hi", "hr", "hu", "hy", "id", "it", "ja",
    "ko", "ms", "nb", "nl", "pl", "pt-BR", "pt-PT", "ro", "ru", "sk", "sv", "th", "tr", "uk", "vi", "zh-Hans",
    "zh-Hant",
  ]

  static let englishTitle = "Enjoying {app}?"

  /// The five fields, with names for failure messages.
  static var fields: [(name: String, keyPath: WritableKeyPath<PromptTexts, String>)] {
    [
      ("title", \.title), ("message", \.message), ("rateButton", \.rateButton), ("remindButton", \.remindButton),
      ("declineButton", \.declineButton),
    ]
  }

  static func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  // MARK: The catalog

  @Test("the supported languages are the required ones and more, sorted and without duplicates")
  func supportedLanguageList() {
    let languages = PromptTexts.supportedLanguages
    #expect(languages.count >= 32)
    for language in Self.requiredLanguages {
      #expect(languages.contains(language), "missing \(language)")
    }
    #expect(languages == languages.sorted())
    #expect(Set(languages).count == languages.count)
    #expect(Set(languages) == Set(PromptTexts.catalog.keys))
  }

  @Test("every supported language resolves to itself, whatever the case or separator")
  func supportedLanguagesResolveToThemselves() {
    for language in PromptTexts.supportedLanguages {
      #expect(PromptTexts.supportedLanguage(matching: language) == language)
      #expect(PromptTexts.supportedLanguage(matching: language.uppercased()) == language)
      #expect(PromptTexts.supportedLanguage(matching: language.replacingOccurrences(of: "-", with: "_")) == language)
      #expect(PromptTexts.defaults(for: language) == PromptTexts.catalog[language])
    }
  }

  @Test("every language has five non-empty, trimmed texts without format specifiers or direction marks")
  func everyLanguageIsComplete() {
    let directionMarks: Set<UInt32> = [
      0x200E, 0x200F, 0x061C, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    ]
    for language in PromptTexts.supportedLanguages {
      let texts = PromptTexts.defaults(for: language)
      for (name, keyPath) in Self.fields {
        let text = texts[keyPath: keyPath]
        #expect(!text.isEmpty, "\(language).\(name)")
        #expect(text == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(language).\(name)")
        #expect(!text.contains("%@"), "\(language).\(name)")
        #expect(!text.contains("%"), "\(language).\(name)")
        #expect(!text.unicodeScalars.contains { directionMarks.contains($0.value) }, "\(language).\(name)")
        #expect(!text.contains("\n"), "\(language).\(name)")
      }
      // A prompt whose buttons read the same cannot be answered.
      #expect(Set([texts.rateButton, texts.remindButton, texts.declineButton]).count == 3, "\(language)")
    }
  }

  @Test("`{app}` appears exactly once in every title and nowhere else")
  func appPlaceholderPlacement() {
    for language in PromptTexts.supportedLanguages {
      let texts = PromptTexts.defaults(for: language)
      #expect(Self.occurrences(of: "{app}", in: texts.title) == 1, "\(language) title: \(texts.title)")
      for (name, keyPath) in Self.fields where name != "title" {
        #expect(Self.occurrences(of: "{app}", in: texts[keyPath: keyPath]) == 0, "\(language).\(name)")
      }
      // No near-miss spellings of the placeholder that would survive resolution.
      for text in [texts.title, texts.message] {
        #expect(!text.contains("{App}") && !text.contains("{ app }") && !text.contains("{APP}"), "\(language)")
        #expect(Self.occurrences(of: "{", in: text) == Self.occurrences(of: "{app}", in: text), "\(language)")
        #expect(Self.occurrences(of: "}", in: text) == Self.occurrences(of: "{app}", in: text), "\(language)")
      }
      // After resolution the name is there and the placeholder is gone.
      let resolved = texts.resolved(appName: "Zyx")
      #expect(resolved.title.contains("Zyx") && !resolved.title.contains("{app}"), "\(language)")
    }
  }

  @Test("every language other than English is translated")
  func everyLanguageIsTranslated() {
    let english = PromptTexts.english
    for language in PromptTexts.supportedLanguages where language != "en" {
      let texts = PromptTexts.defaults(for: language)
      for (name, keyPath) in Self.fields {
        #expect(texts[keyPath: keyPath] != english[keyPath: keyPath], "\(language).\(name) is English")
      }
    }
    // The two Portuguese and the two Chinese variants are written separately.
    #expect(PromptTexts.defaults(for: "pt-BR") != PromptTexts.defaults(for: "pt-PT"))
    #expect(PromptTexts.defaults(for: "zh-Hans") != PromptTexts.defaults(for: "zh-Hant"))
  }

  @Test("right-to-left texts start with a right-to-left letter", arguments: ["ar", "fa", "he"])
  func rightToLeftTexts(language: String) {
    func isRightToLeft(_ scalar: Unicode.Scalar) -> Bool {
      switch scalar.value {
      case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF: return true
      default: return false
      }
    }
    let texts = PromptTexts.defaults(for: language)
    for (name, keyPath) in Self.fields {
      let firstLetter = texts[keyPath: keyPath].unicodeScalars.first { $0.properties.isAlphabetic }
      #expect(firstLetter.map(isRightToLeft) == true, "\(language).\(name)")
    }
  }

  @Test("the English texts and the internal fallback agree")
  func englishTexts() {
    let english = PromptTexts.defaults(for: "en")
    #expect(english == PromptTexts.english)
    #expect(english == PromptTexts.englishFallback)
    #expect(english.title == Self.englishTitle)
    #expect(english.rateButton == "Rate now")
    #expect(english.remindButton == "Remind me later")
    #expect(english.declineButton == "No, thanks")
  }

  // MARK: Resolving identifiers

  @Test(
    "identifier variants resolve to the intended language",
    arguments: [
      // Portuguese
      ("pt_BR", "pt-BR"), ("pt-BR", "pt-BR"), ("PT-br", "pt-BR"), ("pt-Latn-BR", "pt-BR"), ("pt_BR.UTF-8", "pt-BR"),
      ("pt", "pt-PT"), ("pt-PT", "pt-PT"), ("pt_PT", "pt-PT"), ("pt-AO", "pt-PT"), ("pt-MZ", "pt-PT"),
      // Chinese
      ("zh-Hans", "zh-Hans"), ("zh_Hans", "zh-Hans"), ("zh-CN", "zh-Hans"), ("zh_CN", "zh-Hans"), ("zh-SG", "zh-Hans"),
      ("zh", "zh-Hans"), ("zh-Hans-HK", "zh-Hans"), ("ZH-HANS-CN", "zh-Hans"), ("zh-Hans_SG", "zh-Hans"),
      ("zh-Hant", "zh-Hant"), ("zh_Hant", "zh-Hant"), ("zh-TW", "zh-Hant"), ("zh_TW", "zh-Hant"), ("zh-HK", "zh-Hant"),
      ("zh-MO", "zh-Hant"), ("zh-Hant-TW", "zh-Hant"), ("zh_Hant_HK", "zh-Hant"), ("zh-Hant-CN", "zh-Hant"),
      ("yue", "zh-Hant"), ("yue-Hant-HK", "zh-Hant"), ("yue-Hans", "zh-Hans"),
      // Norwegian
      ("nb", "nb"), ("no", "nb"), ("nn", "nb"), ("nb-NO", "nb"), ("no_NO", "nb"), ("nn-NO", "nb"), ("NO", "nb"),
      // Withdrawn and alternative codes
      ("iw", "he"), ("iw-IL", "he"), ("he_IL", "he"), ("in", "id"), ("in_ID", "id"), ("arm", "hy"), ("hy-AM", "hy"),
      // Regions, suffixes and extensions dropped
      ("en", "en"), ("en_US", "en"), ("en-GB", "en"), ("EN", "en"), ("de-AT", "de"), ("de_CH", "de"),
      ("fr_FR.UTF-8", "fr"), ("de_DE@calendar=gregorian", "de"), ("es-419", "es"), ("sr-Latn-RS", nil as String?),
      ("en-u-ca-gregory", "en"), ("ja-JP-x-private", "ja"), ("pt-x-br", "pt-PT"), ("zh-u-ca-hant", "zh-Hans"),
      ("  ko-KR \n", "ko"), ("sv-", "sv"),
      // Unsupported
      ("xx", nil), ("", nil), ("   ", nil), ("-", nil), ("_", nil), ("123", nil), ("x-private", nil), ("und", nil),
      ("ptBR", nil), ("zz-ZZ", nil),
    ] as [(String, String?)])
  func identifierVariants(identifier: String, expected: String?) {
    #expect(PromptTexts.supportedLanguage(matching: identifier) == expected)
    let texts = PromptTexts.defaults(for: identifier)
    #expect(texts == PromptTexts.catalog[expected ?? "en"])
  }

  @Test("resolved identifiers give the exact expected titles")
  func exactTitles() {
    let expected: [(String, String)] = [
      ("en-US", "Enjoying {app}?"),
      ("pt_BR", "Está curtindo o {app}?"),
      ("pt", "Está a gostar da aplicação {app}?"),
      ("zh-CN", "喜欢{app}吗？"),
      ("zh-HK", "喜歡{app}嗎？"),
      ("no", "Liker du {app}?"),
      ("iw", "אוהבים את {app}?"),
      ("in", "Suka dengan {app}?"),
      ("de-DE", "Gefällt dir {app}?"),
      ("fr-CA", "Vous aimez {app}\u{00A0}?"),
      ("ar-EG", "هل يعجبك {app}؟"),
      ("ja_JP", "{app}をお楽しみいただけていますか？"),
    ]
    for (identifier, title) in expected {
      #expect(PromptTexts.defaults(for: identifier).title == title, "\(identifier)")
    }
  }

  @Test("unknown and empty identifiers fall back to English", arguments: ["xx", "", "zz-ZZ", "klingon", "\u{0}", "🙂"])
  func fallbackToEnglish(identifier: String) {
    let texts = PromptTexts.defaults(for: identifier)
    #expect(texts == PromptTexts.english)
    #expect(texts.title == Self.englishTitle)
  }

  @Test("a preference list picks its first supported language")
  func preferredLanguages() {
    let french = PromptTexts.defaults(for: "fr")
    #expect(PromptTexts.defaults(forPreferredLanguages: ["xx", "fr-CA", "de"]) == french)
    #expect(PromptTexts.defaults(forPreferredLanguages: ["zh-HK", "en"]).title == "喜歡{app}嗎？")
    #expect(PromptTexts.defaults(forPreferredLanguages: ["en-GB", "de"]) == PromptTexts.english)
    #expect(PromptTexts.defaults(forPreferredLanguages: ["sr-Latn", "", "iw-IL", "ar"]).title == "אוהבים את {app}?")
    #expect(PromptTexts.defaults(forPreferredLanguages: ["xx", "yy"]) == PromptTexts.english)
    #expect(PromptTexts.defaults(forPreferredLanguages: []) == PromptTexts.english)
    #expect(PromptTexts.defaults(forPreferredLanguages: ["de"]) != PromptTexts.english)
  }

  // MARK: Resolving the app name

  @Test(
    "the app name replaces `{app}` literally and once",
    arguments: [
      ("Notes", "Enjoying Notes?"),
      ("{app}", "Enjoying {app}?"),
      ("{app}{app}", "Enjoying {app}{app}?"),
      ("%@", "Enjoying %@?"),
      ("%1$@ %d %%", "Enjoying %1$@ %d %%?"),
      ("$1 \\0 &", "Enjoying $1 \\0 &?"),
      ("Notes 📝", "Enjoying Notes 📝?"),
      ("👩‍👩‍👧‍👦", "Enjoying 👩‍👩‍👧‍👦?"),
      ("מחברת", "Enjoying מחברת?"),
      ("دفتر", "Enjoying دفتر?"),
      ("", "Enjoying ?"),
    ])
  func resolvedAppName(name: String, expected: String) {
    let resolved = PromptTexts.english.resolved(appName: name)
    #expect(resolved.title == expected)
    #expect(resolved.message == PromptTexts.english.message)
    #expect(resolved.rateButton == PromptTexts.english.rateButton)
  }

  @Test("right-to-left titles take a name in either direction")
  func resolvedInRightToLeftTitles() {
    #expect(PromptTexts.defaults(for: "ar").resolved(appName: "مفكرتي").title == "هل يعجبك مفكرتي؟")
    #expect(PromptTexts.defaults(for: "he").resolved(appName: "Notes").title == "אוהבים את Notes?")
    #expect(PromptTexts.defaults(for: "fa").resolved(appName: "{app}").title == "از {app} راضی هستید؟")
  }

  @Test("every `{app}` in every field is replaced, and nothing else is touched")
  func resolvedEveryField() {
    let texts = PromptTexts(
      title: "{app}{app}", message: "{{app}} and {app", rateButton: "Rate {app}", remindButton: "{app}\u{301} later",
      declineButton: "No {APP} %@")
    let resolved = texts.resolved(appName: "N%@")
    #expect(resolved.title == "N%@N%@")
    #expect(resolved.message == "{N%@} and {app")
    #expect(resolved.rateButton == "Rate N%@")
    #expect(resolved.remindButton == "N%@\u{301} later")
    #expect(resolved.declineButton == "No {APP} %@")
    #expect(texts.resolved(appName: "{app}") == texts)
  }

  // MARK: Overriding

  @Test("each text can be overridden on its own", arguments: 0..<5)
  func overridingOneKey(index: Int) {
    let base = PromptTexts.defaults(for: "de")
    let (name, keyPath) = Self.fields[index]
    let replacement = "custom \(name) for {app}"
    let overridden: PromptTexts
    switch name {
    case "title": overridden = base.overriding(title: replacement)
    case "message": overridden = base.overriding(message: replacement)
    case "rateButton": overridden = base.overriding(rateButton: replacement)
    case "remindButton": overridden = base.overriding(remindButton: replacement)
    default: overridden = base.overriding(declineButton: replacement)
    }
    var expected = base
    expected[keyPath: keyPath] = replacement
    #expect(overridden == expected)
    for (otherName, otherKeyPath) in Self.fields where otherName != name {
      #expect(overridden[keyPath: otherKeyPath] == base[keyPath: otherKeyPath], "\(otherName)")
    }
    #expect(overridden.resolved(appName: "App")[keyPath: keyPath] == "custom \(name) for App")
  }

  @Test("overriding nothing keeps everything; overriding everything replaces everything; empty strings are kept")
  func overridingAll() {
    let base = PromptTexts.defaults(for: "ja")
    #expect(base.overriding() == base)
    let all = base.overriding(title: "T", message: "M", rateButton: "R", remindButton: "L", declineButton: "D")
    #expect(all == PromptTexts(title: "T", message: "M", rateButton: "R", remindButton: "L", declineButton: "D"))
    #expect(base.overriding(message: "").message == "")
    #expect(base.overriding(message: "").title == base.title)
  }

  // MARK: Codable

  @Test("texts survive a JSON round trip in every language")
  func codableRoundTrip() throws {
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()
    for language in PromptTexts.supportedLanguages {
      let texts = PromptTexts.defaults(for: language).overriding(remindButton: "{app} %@ 📝")
      let decoded = try decoder.decode(PromptTexts.self, from: try encoder.encode(texts))
      #expect(decoded == texts, "\(language)")
    }
  }

  @Test("the JSON form uses the property names as keys")
  func codableKeys() throws {
    let texts = PromptTexts(title: "t {app}", message: "m", rateButton: "r", remindButton: "l", declineButton: "d")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let json = String(decoding: try encoder.encode(texts), as: UTF8.self)
    #expect(json == #"{"declineButton":"d","message":"m","rateButton":"r","remindButton":"l","title":"t {app}"}"#)
    let decoded = try JSONDecoder().decode(
      PromptTexts.self,
      from: Data(#"{"title":"Hi {app}","message":"M","rateButton":"R","remindButton":"L","declineButton":"D"}"#.utf8))
    #expect(
      decoded == PromptTexts(title: "Hi {app}", message: "M", rateButton: "R", remindButton: "L", declineButton: "D"))
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(PromptTexts.self, from: Data(#"{"title":"Hi"}"#.utf8))
    }
  }
}
