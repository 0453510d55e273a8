import PolicyCore

/// A one-time import of the history another review manager stored, so an app switching to this
/// library keeps its users' history (``ReviewManager/Configuration/legacySources``).
///
/// The `ReviewMigration` library provides one for each manager this library replaces (Appirater,
/// Armchair, UAAppReviewManager, the RateOurAppHelper snippet and ReviewKit), as
/// `LegacyImport.Source`: `legacySources: [.armchair(UserDefaultsSource(), keyPrefix: "...")]`.
/// It is a library of its own so that an app that migrates from nothing carries none of it.
public protocol LegacyStateImporter: Sendable {
  /// The name recorded in ``ReviewState/importedLegacy`` once the source is imported: a source
  /// whose name is there is never imported again.
  var name: String { get }

  /// `state` with the source's history merged in, for an app running `appVersion` (its
  /// marketing version) and `build` (its `CFBundleVersion`); `now` dates what the source stored
  /// without a date. Records ``name`` in ``ReviewState/importedLegacy``.
  func importing(into state: ReviewState, at now: Timestamp, appVersion: String?, build: String?) -> ReviewState
}
