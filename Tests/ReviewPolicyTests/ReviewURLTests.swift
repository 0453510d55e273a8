import Foundation
import PolicyAnalysis
import Testing

@testable import ReviewAnalysis
@testable import ReviewPolicy

@Suite("review URLs")
struct ReviewURLTests {
  /// Checks that a link's text and URL agree with the expected text.
  static func check(_ link: ReviewURL, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(link.string == expected, sourceLocation: sourceLocation)
    #expect(link.url.absoluteString == expected, sourceLocation: sourceLocation)
    #expect(link.description == expected, sourceLocation: sourceLocation)
  }

  /// The decoded value of a query item in a link.
  static func queryValue(_ name: String, in link: ReviewURL) -> String? {
    URLComponents(url: link.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
  }

  // MARK: Apple

  @Test("App Store links without a token")
  func appStoreWithoutToken() throws {
    Self.check(
      try ReviewURL.appStore(appID: "1234567890"), "https://apps.apple.com/app/id1234567890?action=write-review")
    Self.check(
      try ReviewURL.appStore(appID: "1", affiliateToken: nil), "https://apps.apple.com/app/id1?action=write-review")
    Self.check(
      try ReviewURL.appStore(appID: "42", affiliateToken: ""), "https://apps.apple.com/app/id42?action=write-review")
    let link = try ReviewURL.appStore(appID: "1234567890")
    #expect(link.url.scheme == "https")
    #expect(link.url.host == "apps.apple.com")
    #expect(Self.queryValue("action", in: link) == "write-review")
    #expect(Self.queryValue("at", in: link) == nil)
  }

  @Test("App Store links with a token")
  func appStoreWithToken() throws {
    Self.check(
      try ReviewURL.appStore(appID: "1234567890", affiliateToken: "11lmMS"),
      "https://apps.apple.com/app/id1234567890?action=write-review&at=11lmMS")
    #expect(Self.queryValue("at", in: try ReviewURL.appStore(appID: "1", affiliateToken: "11lmMS")) == "11lmMS")
  }

  @Test("Mac App Store links with and without a token")
  func macAppStore() throws {
    Self.check(
      try ReviewURL.macAppStore(appID: "1234567890"),
      "macappstore://apps.apple.com/app/id1234567890?action=write-review")
    Self.check(
      try ReviewURL.macAppStore(appID: "1234567890", affiliateToken: "11lmMS"),
      "macappstore://apps.apple.com/app/id1234567890?action=write-review&at=11lmMS")
    Self.check(
      try ReviewURL.macAppStore(appID: "7", affiliateToken: "a b&c"),
      "macappstore://apps.apple.com/app/id7?action=write-review&at=a%20b%26c")
    #expect(try ReviewURL.macAppStore(appID: "7").url.scheme == "macappstore")
  }

  @Test(
    "affiliate tokens are percent-encoded and decode back to themselves",
    arguments: [
      ("a b&c", "a%20b%26c"),
      ("x=y#z?", "x%3Dy%23z%3F"),
      ("100%", "100%25"),
      ("café/ü", "caf%C3%A9%2F%C3%BC"),
      ("+~-._", "%2B~-._"),
      ("🙂", "%F0%9F%99%82"),
    ])
  func affiliateTokenEncoding(token: String, encoded: String) throws {
    let link = try ReviewURL.appStore(appID: "123", affiliateToken: token)
    Self.check(link, "https://apps.apple.com/app/id123?action=write-review&at=\(encoded)")
    #expect(Self.queryValue("at", in: link) == token)
    #expect(Self.queryValue("action", in: link) == "write-review")
  }

  @Test("an empty App Store ID is rejected")
  func emptyAppStoreID() {
    #expect(throws: ReviewURLError.emptyAppStoreID) { try ReviewURL.appStore(appID: "") }
    #expect(throws: ReviewURLError.emptyAppStoreID) { try ReviewURL.macAppStore(appID: "", affiliateToken: "t") }
  }

  @Test(
    "a non-numeric App Store ID is rejected",
    arguments: ["id123", "12a", "12 3", " 123", "123 ", "-123", "+123", "1.5", "١٢٣", "１２３", "123\n", "abc"])
  func nonNumericAppStoreID(id: String) {
    #expect(throws: ReviewURLError.nonNumericAppStoreID(id)) { try ReviewURL.appStore(appID: id) }
    #expect(throws: ReviewURLError.nonNumericAppStoreID(id)) { try ReviewURL.macAppStore(appID: id) }
  }

  // MARK: Google Play

  @Test("Google Play links")
  func googlePlay() throws {
    Self.check(
      try ReviewURL.googlePlay(packageName: "com.example.notes"),
      "https://play.google.com/store/apps/details?id=com.example.notes")
    Self.check(
      try ReviewURL.googlePlayMarket(packageName: "com.example.notes"), "market://details?id=com.example.notes")
    Self.check(
      try ReviewURL.googlePlay(packageName: "org.Example_2.app_v3"),
      "https://play.google.com/store/apps/details?id=org.Example_2.app_v3")
    Self.check(try ReviewURL.googlePlayMarket(packageName: "a.b"), "market://details?id=a.b")
    #expect(
      Self.queryValue("id", in: try ReviewURL.googlePlay(packageName: "com.example.notes")) == "com.example.notes")
  }

  @Test(
    "valid package names are accepted",
    arguments: ["a.b", "com.example.notes", "io.x1.y_2", "A.B.C", "com.example.app_"])
  func validPackageNames(name: String) {
    #expect(ReviewURL.isValidPackageName(name))
  }

  @Test(
    "invalid package names are rejected",
    arguments: [
      "", "com", "notes", ".com.example", "com.example.", "com..example", ".", "1com.example", "com.1example",
      "com._example", "_com.example", "com.exa-mple", "com.example app", "com.exämple", "com.example/notes",
      "com.example?x=1", " com.example", "com.example\n",
    ])
  func invalidPackageNames(name: String) {
    #expect(!ReviewURL.isValidPackageName(name))
    #expect(throws: ReviewURLError.invalidPackageName(name)) { try ReviewURL.googlePlay(packageName: name) }
    #expect(throws: ReviewURLError.invalidPackageName(name)) { try ReviewURL.googlePlayMarket(packageName: name) }
  }

  // MARK: Custom

  @Test("custom templates substitute the ID and the encoded token")
  func customTemplates() throws {
    let template = "https://example.com/review?app={id}&ref={token}"
    Self.check(
      try ReviewURL.custom(template: template, id: "com.example.notes", token: "spring"),
      "https://example.com/review?app=com.example.notes&ref=spring")
    Self.check(
      try ReviewURL.custom(template: template, id: "123", token: "a b&c"),
      "https://example.com/review?app=123&ref=a%20b%26c")
    Self.check(try ReviewURL.custom(template: template, id: "123"), "https://example.com/review?app=123&ref=")
    Self.check(
      try ReviewURL.custom(template: template, id: "123", token: ""), "https://example.com/review?app=123&ref=")
    Self.check(try ReviewURL.custom(template: "myapp://rate/{id}", id: "42", token: "ignored"), "myapp://rate/42")
    Self.check(
      try ReviewURL.custom(template: "https://x.test/{id}/{id}?t={token}{token}", id: "7", token: "k"),
      "https://x.test/7/7?t=kk")
  }

  @Test("custom values are encoded and never substituted again")
  func customValuesAreNotRescanned() throws {
    Self.check(
      try ReviewURL.custom(template: "https://x.test/r?id={id}&t={token}", id: "{token}", token: "{id}"),
      "https://x.test/r?id=%7Btoken%7D&t=%7Bid%7D")
    Self.check(try ReviewURL.custom(template: "https://x.test/{id}", id: "a/b c"), "https://x.test/a%2Fb%20c")
  }

  @Test(
    "a template without `{id}` is rejected",
    arguments: ["https://example.com/review", "https://x.test/{ID}", "https://x.test/{token}", "", "{id"])
  func templateWithoutID(template: String) {
    #expect(throws: ReviewURLError.templateMissingIDPlaceholder(template)) {
      try ReviewURL.custom(template: template, id: "123", token: "t")
    }
  }

  @Test("an empty ID for a custom template is rejected")
  func customEmptyID() {
    #expect(throws: ReviewURLError.emptyID) { try ReviewURL.custom(template: "https://x.test/{id}", id: "") }
  }

  @Test("a template that does not make an absolute URL is rejected")
  func customMalformed() {
    #expect(throws: ReviewURLError.malformedURL("42")) { try ReviewURL.custom(template: "{id}", id: "42") }
    #expect(throws: ReviewURLError.malformedURL("example.com/42")) {
      try ReviewURL.custom(template: "example.com/{id}", id: "42")
    }
    #expect(throws: ReviewURLError.malformedURL("https://x.test/a b/42")) {
      try ReviewURL.custom(template: "https://x.test/a b/{id}", id: "42")
    }
    #expect(throws: ReviewURLError.malformedURL("http://[bad/42")) {
      try ReviewURL.custom(template: "http://[bad/{id}", id: "42")
    }
  }

  // MARK: Errors

  @Test("every error describes itself and names the value at fault")
  func errorDescriptions() {
    let errors: [(ReviewURLError, String)] = [
      (.emptyAppStoreID, "empty"), (.nonNumericAppStoreID("id12"), "\"id12\""),
      (.invalidPackageName("com..x"), "\"com..x\""), (.templateMissingIDPlaceholder("https://t"), "\"https://t\""),
      (.emptyID, "empty"), (.malformedURL("nope"), "\"nope\""),
    ]
    for (error, fragment) in errors {
      #expect(error.description.contains(fragment), "\(error)")
    }
    #expect(Set(errors.map(\.0.description)).count == errors.count)
  }
}
