import Foundation
import ReviewMigration
import ReviewPolicy

// The `swift checked` snippets of docs/ios.md, compiled by the test target; IOSGuideTests checks
// that each one below, between its markers, is the same as in the guide (regenerate by copying).

// docs/ios.md snippet 1
enum DarkroomReviews {
  /// The app's review manager, with the policy from the bundle and the app's version.
  static func makeManager(presenter: any ReviewPresenter, bundle: Bundle = .main) throws -> ReviewManager {
    guard let url = bundle.url(forResource: "review", withExtension: "policy") else {
      throw CocoaError(.fileNoSuchFile)
    }
    let info = bundle.infoDictionary ?? [:]
    let manager = try ReviewManager(
      configuration: .init(
        appVersion: info["CFBundleShortVersionString"] as? String ?? "0",
        build: info["CFBundleVersion"] as? String,
        bundledPolicy: try String(contentsOf: url, encoding: .utf8),
        appName: "Darkroom", presenter: presenter))
    // Examples/review.policy reads two app facts: set them before the first check.
    manager.setFact("plan", .string("free"))
    manager.setFact("crashed_this_session", .bool(false))
    return manager
  }
}
// end of snippet 1

// docs/ios.md snippet 2
extension DarkroomReviews {
  /// The user changed plan: policies that declare `fact plan: string` read it.
  static func planChanged(to plan: String, in reviews: ReviewManager) {
    reviews.setFact("plan", .string(plan))
  }

  /// An editing session: its actions score it, and its end is a good moment to ask.
  static func editingSession(in reviews: ReviewManager, editScores: [Double], crashed: Bool) {
    reviews.sessionStarted()
    reviews.setFact("crashed_this_session", .bool(crashed))
    for score in editScores {
      reviews.action(score: score, isBad: score < 0, mayPrompt: false)  // mid-task: count only
    }
    reviews.sessionEnded()
    reviews.significantEvent("export")  // the work is saved: may ask now
  }
}
// end of snippet 2

// docs/ios.md snippet 3
extension DarkroomReviews {
  /// Counts an export and, if the policy asks, waits for the prompt's outcome.
  static func exportFinished(in reviews: ReviewManager) async -> String? {
    let outcome = await reviews.askIfAppropriate(after: .significantEvent("export"))
    if case .answered(.rated) = outcome { return "Thank you for rating Darkroom!" }
    if case .notAsked(let decision) = outcome { return "not asked: \(decision.decidingRules)" }
    return nil
  }
}
// end of snippet 3

// docs/ios.md snippet 4
extension DarkroomReviews {
  /// A policy from your server: kept (and stored) only if it compiles.
  static func received(policy source: String, in reviews: ReviewManager) -> Bool {
    let result = reviews.updatePolicy(source)
    if !result.isAccepted { print(result.renderedDiagnostics) }
    return result.isAccepted
  }
}
// end of snippet 4

// docs/ios.md snippet 5
extension DarkroomReviews {
  /// The shared store, in the App Group container given.
  static func sharedStore(inGroupContainer group: URL) -> JSONFileStore {
    JSONFileStore(url: group.appendingPathComponent("ReviewPolicy/review-state.json"))
  }

  /// A share extension's manager: it counts into the app's state, and never prompts.
  static func extensionManager(inGroupContainer group: URL, policy: String) throws -> ReviewManager {
    try ReviewManager(
      configuration: .init(
        appVersion: "3.1", bundledPolicy: policy, store: sharedStore(inGroupContainer: group),
        process: .appExtension))
  }
}
// end of snippet 5

// docs/ios.md snippet 6
extension DarkroomReviews {
  /// The legacy stores to import, once: here Armchair's, with its app-ID key prefix.
  static let legacySources: [LegacyImport.Source] = [
    .armchair(UserDefaultsSource(UserDefaults.standard), keyPrefix: "1234567890_")
  ]
}
// end of snippet 6
