import PolicyCore
import ReviewPolicy

/// An event or app fact that a simulated policy reads, and what the behaviour model gives it.
public struct SimulationInput: Sendable, Hashable {
  /// Whether the input is a named significant event or a declared app fact.
  public enum Kind: String, Sendable, Hashable {
    /// A significant event, read as `events("name")` or `total_events("name")`.
    case event
    /// An app fact a policy declares with `fact`.
    case fact
  }

  /// An event or a fact.
  public var kind: Kind
  /// The event's or fact's name.
  public var name: String
  /// How the policies read it (`total_events("purchase")`, `fact plan`); empty for a model event no policy reads.
  public var readAs: [String]
  /// The policies that read it, by name.
  public var readBy: [String]
  /// What the model gives it: `0.2 per session`, `free 70%, pro 30%`, `"" for every user (default)`.
  public var stated: String
  /// Whether the model produces it (an event with a rate above 0, a fact with a given value or distribution).
  public var isProduced: Bool
}

/// The events and app facts the policies of a run read, against the behaviour model.
public enum SimulationInputs {
  /// The families whose members are named events.
  static let eventFamilies = ["events", "total_events"]

  /// The named events `policy` reads, with how it reads each: `[("purchase", ["total_events(\"purchase\")"])]`.
  public static func events(of policy: CompiledPolicy) -> [(name: String, readAs: [String])] {
    var result: [(name: String, readAs: [String])] = []
    for slot in policy.layout.slots {
      guard case .family(let family, .string(let key)) = slot.origin, eventFamilies.contains(family) else { continue }
      if let index = result.firstIndex(where: { $0.name == key }) {
        result[index].readAs.append(slot.name)
      } else {
        result.append((key, [slot.name]))
      }
    }
    return result
  }

  /// Every event the model produces or a policy reads, then every fact a policy declares, in order.
  public static func inputs(of setup: SimulationSetup) -> [SimulationInput] {
    let model = setup.model
    let compiled = setup.policies.map {
      (
        name: $0.name, policy: $0.compiled,
        defaulted: $0.defaultedFacts, values: $0.appFacts
      )
    }
    var inputs: [SimulationInput] = []
    let segments = model.segmentModels
    var names: [String] = []
    for segment in segments {
      for rate in rates(of: segment) where !names.contains(rate.name) { names.append(rate.name) }
    }
    for name in names {
      let perSegment = segments.map { segment in rates(of: segment).first { $0.name == name }?.perSession ?? 0 }
      let stated = bySegment(model, perSegment.map { "\(SimulationFormat.trimmed($0, places: 3)) per session" }) {
        index, text in perSegment[index] > 0 ? text : "never"
      }
      inputs.append(
        SimulationInput(
          kind: .event, name: name, readAs: [], readBy: [], stated: stated,
          isProduced: perSegment.contains { $0 > 0 }))
    }
    for entry in compiled {
      guard let policy = entry.policy else { continue }
      for event in events(of: policy) {
        if let index = inputs.firstIndex(where: { $0.kind == .event && $0.name == event.name }) {
          for name in event.readAs where !inputs[index].readAs.contains(name) { inputs[index].readAs.append(name) }
          if !inputs[index].readBy.contains(entry.name) { inputs[index].readBy.append(entry.name) }
        } else {
          inputs.append(
            SimulationInput(
              kind: .event, name: event.name, readAs: event.readAs, readBy: [entry.name],
              stated: "never (not in the behaviour model)", isProduced: false))
        }
      }
    }
    for entry in compiled {
      guard let policy = entry.policy else { continue }
      for slot in policy.layout.slots where slot.isDeclaration {
        if let index = inputs.firstIndex(where: { $0.kind == .fact && $0.name == slot.name }) {
          if !inputs[index].readBy.contains(entry.name) { inputs[index].readBy.append(entry.name) }
          continue
        }
        // What one segment (or every user) gets: a distribution, or the policy's one value.
        var produced = false
        let perSegment = segments.map { segment -> (stated: String, alone: String) in
          if let distribution = segment.facts.first(where: { $0.name == slot.name }) {
            produced = true
            return (distribution.summary, distribution.summary)
          } else if let value = entry.values.first(where: { $0.name == slot.name })?.value {
            let defaulted = entry.defaulted.contains(slot.name)
            if !defaulted { produced = true }
            let note = defaulted ? " (default)" : ""
            return ("\(value) for every user" + note, "\(value)" + note)
          } else {
            return ("absent for every user (default)", "absent (default)")
          }
        }
        let stated = bySegment(model, perSegment.map(\.stated), separator: "; ") { index, _ in
          perSegment[index].alone
        }
        inputs.append(
          SimulationInput(
            kind: .fact, name: slot.name, readAs: ["fact \(slot.name)"], readBy: [entry.name], stated: stated,
            isProduced: produced))
      }
    }
    return inputs
  }

  /// The events of `model` with their rates: its named events, or the default `export` events.
  static func rates(of model: SimulationModel) -> [SimulationEventRate] {
    model.events.isEmpty ? [SimulationEventRate(name: "export", perSession: model.eventsPerSession)] : model.events
  }

  /// What the model gives an input, from `texts`, one per segment model (``SimulationModel/segmentModels``): the
  /// text when every segment gives the same, else each segment's `short` text with its name and share
  /// (`0.05 per session in buyers (20%), never in others (80%)`).
  static func bySegment(
    _ model: SimulationModel, _ texts: [String], separator: String = ", ", short: (Int, String) -> String
  ) -> String {
    guard let first = texts.first else { return "" }
    guard texts.contains(where: { $0 != first }), model.segments.count == texts.count else { return first }
    return zip(model.segments, texts).enumerated().map { index, pair in
      "\(short(index, pair.1)) in \(pair.0.name) (\(SimulationFormat.share(pair.0.share)))"
    }.joined(separator: separator)
  }

  /// One warning per event a policy reads that the model never produces, for standard error before the run.
  public static func warnings(for inputs: [SimulationInput]) -> [String] {
    inputs.filter { $0.kind == .event && !$0.readBy.isEmpty && !$0.isProduced }.map { input in
      SimulationMessages.unproducedEvent(input.name, readers: input.readBy, forms: input.readAs)
    }
  }
}
