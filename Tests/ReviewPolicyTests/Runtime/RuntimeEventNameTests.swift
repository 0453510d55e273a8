import Foundation
import PolicyCore
import Testing

@testable import ReviewPolicy

/// Event names the app records that the policy's `event` declarations (or the configuration) do not name.
@Suite("runtime: undeclared event names")
struct RuntimeEventNameTests {
  typealias F = RuntimeFixtures

  func problems(_ log: RuntimeLogCollector) -> [String] {
    log.entries(.problem).map(\.summary).filter { $0.contains("is not declared") }
  }

  @Test("an event the policy does not declare is logged once per name")
  func loggedOnce() throws {
    let log = RuntimeLogCollector()
    let manager = try F.manager(
      policy: "event purchase\nask when total_events(\"purchase\") >= 100", logger: log.logger)
    manager.significantEvent("purchase", mayPrompt: false)
    manager.significantEvent("Purchase", mayPrompt: false)
    manager.significantEvent("Purchase", mayPrompt: false)
    manager.significantEvent("export", mayPrompt: false)
    #expect(
      problems(log) == [
        "event `Purchase` is not declared: neither the policy's `event` declarations nor Configuration.eventNames name it",
        "event `export` is not declared: neither the policy's `event` declarations nor Configuration.eventNames name it",
      ])
  }

  @Test("names in Configuration.eventNames are declared too; without any names nothing is logged")
  func configurationNames() throws {
    let log = RuntimeLogCollector()
    var configuration = ReviewManager.Configuration(
      appVersion: "1.0", bundledPolicy: "event purchase\nask when events(\"purchase\") >= 100",
      store: InMemoryReviewStore(), texts: .english, logger: log.logger)
    configuration.eventNames = ["purchase", "export"]
    let manager = try ReviewManager(configuration: configuration)
    manager.significantEvent("export", mayPrompt: false)
    manager.significantEvent("share", mayPrompt: false)
    #expect(problems(log).count == 1)
    #expect(problems(log).first?.hasPrefix("event `share` is not declared") == true)

    let quiet = RuntimeLogCollector()
    let plain = try F.manager(policy: "ask when events(\"purchase\") >= 100", logger: quiet.logger)
    plain.significantEvent("anything", mayPrompt: false)
    #expect(problems(quiet).isEmpty)
  }

  @Test("the manager compiles its policies with Configuration.eventNames: a name outside them is PC217")
  func policiesCheckedAgainstTheAppsNames() throws {
    var configuration = ReviewManager.Configuration(
      appVersion: "1.0", bundledPolicy: "ask when events(\"purchse\") >= 3", store: InMemoryReviewStore(),
      texts: .english)
    configuration.eventNames = ["purchase", "export"]
    #expect {
      _ = try ReviewManager(configuration: configuration)
    } throws: { error in
      guard case ReviewManagerError.invalidBundledPolicy(let text) = error else { return false }
      return text.contains("PC217") && text.contains("purchase")
    }
    configuration.bundledPolicy = "ask when events(\"purchase\") >= 3"
    let manager = try ReviewManager(configuration: configuration)
    let rejected = manager.updatePolicy("ask when total_events(\"exprt\") >= 1")
    #expect(!rejected.isAccepted)
    #expect(rejected.diagnostics.map(\.code.rawValue) == ["PC217"])
    #expect(manager.updatePolicy("ask when total_events(\"export\") >= 1").isAccepted)
  }

  @Test("the guardrails are compiled in the same environment as the policy: a name outside the app's is PC217")
  func guardrailsCheckedAgainstTheAppsNames() throws {
    var configuration = ReviewManager.Configuration(
      appVersion: "1.0", bundledPolicy: "ask when uses >= 1", store: InMemoryReviewStore(), texts: .english,
      guardrails: "never refunded when events(\"refnd\") >= 1")
    configuration.eventNames = ["refund", "export"]
    #expect {
      _ = try ReviewManager(configuration: configuration)
    } throws: { error in
      guard case ReviewManagerError.invalidGuardrails(let text) = error else { return false }
      return text.contains("PC217") && text.contains("refund")
    }
    configuration.guardrails = "never refunded when events(\"refund\") >= 1"
    #expect(throws: Never.self) { _ = try ReviewManager(configuration: configuration) }
  }
}
