import Foundation

/// A link that takes the user to the place where they can review the app, as a `URL` and as its exact text.
///
/// Every constructor validates its input and throws ``ReviewURLError`` instead of
/// building a link that the store would reject.
///
/// ```swift
/// let link = try ReviewURL.appStore(appID: "1234567890")
/// link.string  // "https://apps.apple.com/app/id1234567890?action=write-review"
/// ```
public struct ReviewURL: Sendable, Hashable, CustomStringConvertible {
  /// The link as text; always equal to `url.absoluteString`.
  public let string: String
  /// The link as a Foundation URL.
  public let url: URL

  /// The link's text, the same as ``string``.
  public var description: String { string }

  private init(validated string: String) throws(ReviewURLError) {
    guard let url = URL(string: string), url.scheme?.isEmpty == false, url.absoluteString == string else {
      throw .malformedURL(string)
    }
    self.string = string
    self.url = url
  }

  // MARK: Apple

  /// The App Store page for an iOS, iPadOS, tvOS or visionOS app, opened at "Write a Review".
  ///
  /// Produces `https://apps.apple.com/app/id<appID>?action=write-review`, followed by
  /// `&at=<token>` when an affiliate token is given. The token is percent-encoded;
  /// `nil` or an empty token adds nothing.
  /// - Parameters:
  ///   - appID: The numeric Apple ID of the app, as shown in App Store Connect (digits only, no `id` prefix).
  ///   - affiliateToken: An Apple affiliate token to credit, or `nil` for none.
  /// - Throws: ``ReviewURLError/emptyAppStoreID`` or ``ReviewURLError/nonNumericAppStoreID(_:)``.
  public static func appStore(appID: String, affiliateToken: String? = nil) throws(ReviewURLError) -> ReviewURL {
    try apple(scheme: "https", appID: appID, affiliateToken: affiliateToken)
  }

  /// The Mac App Store page for a macOS app, opened in the App Store app at "Write a Review".
  ///
  /// Produces `macappstore://apps.apple.com/app/id<appID>?action=write-review`, followed by
  /// `&at=<token>` when an affiliate token is given, encoded as for ``appStore(appID:affiliateToken:)``.
  /// - Parameters:
  ///   - appID: The numeric Apple ID of the app (digits only, no `id` prefix).
  ///   - affiliateToken: An Apple affiliate token to credit, or `nil` for none.
  /// - Throws: ``ReviewURLError/emptyAppStoreID`` or ``ReviewURLError/nonNumericAppStoreID(_:)``.
  public static func macAppStore(appID: String, affiliateToken: String? = nil) throws(ReviewURLError) -> ReviewURL {
    try apple(scheme: "macappstore", appID: appID, affiliateToken: affiliateToken)
  }

  private static func apple(scheme: String, appID: String, affiliateToken: String?) throws(ReviewURLError) -> ReviewURL
  {
    guard !appID.isEmpty else { throw .emptyAppStoreID }
    guard appID.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
      throw .nonNumericAppStoreID(appID)
    }
    var string = "\(scheme)://apps.apple.com/app/id\(appID)?action=write-review"
    if let affiliateToken, !affiliateToken.isEmpty {
      string += "&at=" + percentEncoded(affiliateToken)
    }
    return try ReviewURL(validated: string)
  }

  // MARK: Google Play

  /// The Google Play web page of an Android app, where signed-in users can write a review.
  ///
  /// Produces `https://play.google.com/store/apps/details?id=<packageName>`.
  /// - Parameter packageName: The app's application ID, such as `com.example.notes`.
  /// - Throws: ``ReviewURLError/invalidPackageName(_:)`` unless the name follows the rules in ``isValidPackageName(_:)``.
  public static func googlePlay(packageName: String) throws(ReviewURLError) -> ReviewURL {
    try checkPackageName(packageName)
    return try ReviewURL(validated: "https://play.google.com/store/apps/details?id=\(packageName)")
  }

  /// The Play Store app's page of an Android app, for opening directly on a device.
  ///
  /// Produces `market://details?id=<packageName>`.
  /// - Parameter packageName: The app's application ID, such as `com.example.notes`.
  /// - Throws: ``ReviewURLError/invalidPackageName(_:)`` unless the name follows the rules in ``isValidPackageName(_:)``.
  public static func googlePlayMarket(packageName: String) throws(ReviewURLError) -> ReviewURL {
    try checkPackageName(packageName)
    return try ReviewURL(validated: "market://details?id=\(packageName)")
  }

  /// Whether a string is a valid Android application ID.
  ///
  /// The rules are those of a Java package name as Android applies them: at least two
  /// segments separated by dots; each segment starts with an ASCII letter and continues
  /// with ASCII letters, digits or underscores.
  public static func isValidPackageName(_ packageName: String) -> Bool {
    let segments = packageName.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard segments.count >= 2 else { return false }
    return segments.allSatisfy { segment in
      guard let first = segment.first, isASCIILetter(first) else { return false }
      return segment.allSatisfy { isASCIILetter($0) || isASCIIDigit($0) || $0 == UInt8(ascii: "_") }
    }
  }

  private static func checkPackageName(_ packageName: String) throws(ReviewURLError) {
    guard isValidPackageName(packageName) else { throw .invalidPackageName(packageName) }
  }

  // MARK: Custom

  /// A link built from your own template, for other stores or your own review page.
  ///
  /// The template must contain `{id}` and may contain `{token}`. Both are replaced in
  /// one pass, each with its value percent-encoded (a missing or empty token becomes
  /// the empty string); nothing else in the template changes. The result must be an
  /// absolute URL that needs no further encoding.
  ///
  /// ```swift
  /// try ReviewURL.custom(template: "https://example.com/review?app={id}&ref={token}", id: "notes", token: "spring")
  /// // https://example.com/review?app=notes&ref=spring
  /// ```
  /// - Parameters:
  ///   - template: The link with placeholders.
  ///   - id: The value for `{id}`; must not be empty.
  ///   - token: The value for `{token}`, or `nil` for none.
  /// - Throws: ``ReviewURLError/templateMissingIDPlaceholder(_:)``, ``ReviewURLError/emptyID``
  ///   or ``ReviewURLError/malformedURL(_:)``.
  public static func custom(template: String, id: String, token: String? = nil) throws(ReviewURLError) -> ReviewURL {
    guard PlaceholderSubstitution.contains(template, idPlaceholder) else {
      throw .templateMissingIDPlaceholder(template)
    }
    guard !id.isEmpty else { throw .emptyID }
    let string = PlaceholderSubstitution.substitute(
      template, [(idPlaceholder, percentEncoded(id)), (tokenPlaceholder, percentEncoded(token ?? ""))])
    return try ReviewURL(validated: string)
  }

  /// The placeholder for the app's identifier in ``custom(template:id:token:)`` templates.
  public static let idPlaceholder = "{id}"
  /// The placeholder for the token in ``custom(template:id:token:)`` templates.
  public static let tokenPlaceholder = "{token}"

  // MARK: Encoding

  /// Percent-encodes everything except the URI unreserved characters (`A–Z a–z 0–9 - . _ ~`), as UTF-8.
  static func percentEncoded(_ value: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(value.utf8.count)
    for byte in value.utf8 {
      if isASCIILetter(byte) || isASCIIDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
      {
        bytes.append(byte)
      } else {
        bytes.append(UInt8(ascii: "%"))
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0x0F)])
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
  }

  private static func isASCIIDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}

/// Why a review link could not be built.
public enum ReviewURLError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The App Store ID was the empty string.
  case emptyAppStoreID
  /// The App Store ID contained something other than the ASCII digits 0–9.
  case nonNumericAppStoreID(String)
  /// The Android package name was not a valid application ID.
  case invalidPackageName(String)
  /// The custom template did not contain `{id}`.
  case templateMissingIDPlaceholder(String)
  /// The identifier for a custom template was the empty string.
  case emptyID
  /// The finished link was not an absolute URL, or would have needed more encoding.
  case malformedURL(String)

  /// A sentence describing the problem and the value at fault.
  public var description: String {
    switch self {
    case .emptyAppStoreID:
      return "the App Store ID is empty; pass the app's numeric Apple ID"
    case .nonNumericAppStoreID(let id):
      return "the App Store ID \"\(id)\" is not a number; pass only the digits of the app's Apple ID"
    case .invalidPackageName(let name):
      return "\"\(name)\" is not a valid Android package name; "
        + "use dot-separated segments that start with a letter, such as com.example.app"
    case .templateMissingIDPlaceholder(let template):
      return "the review URL template \"\(template)\" has no {id} placeholder"
    case .emptyID:
      return "the ID for the review URL template is empty"
    case .malformedURL(let string):
      return "\"\(string)\" is not a valid absolute URL"
    }
  }
}
