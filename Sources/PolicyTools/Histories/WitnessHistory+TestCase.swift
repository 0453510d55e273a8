import PolicyCore

extension WitnessHistory {
  /// The history as one `policyc test` case (a JSON object): its `start`, `version`, `history`,
  /// the policy's own facts and seed in `facts`, the number of `prompts` it shows, and the
  /// expected decision of a fresh check at its end (`expect`, and `deciding` when given).
  public func testCase(name: String, expectsAsk: Bool, deciding: [String]?) -> String {
    var writer = JSONWriter()
    writer.object { writer in
      writer.key("name")
      writer.string(name)
      writer.key("start")
      writer.string(start.description)
      writer.key("version")
      writer.string(version)
      if !appFacts.isEmpty || seed != 0 {
        writer.key("facts")
        writer.object { writer in
          for fact in appFacts {
            writer.key(fact.name)
            writer.raw(WitnessFacts.json(fact.value))
          }
          if seed != 0 {
            writer.key("seed")
            writer.raw(String(seed))
          }
        }
      }
      writer.key("history")
      writer.array { writer in
        for step in steps { writer.string(step) }
      }
      writer.key("expect")
      writer.string(expectsAsk ? "ask" : "dont_ask")
      if let deciding {
        writer.key("deciding")
        writer.array { writer in
          for rule in deciding { writer.string(rule) }
        }
      }
      writer.key("prompts")
      writer.number(promptsShown)
    }
    return writer.output
  }

  /// A whole test file for `policy` (its path, relative to the test file) with `cases`, each the
  /// text of ``testCase(name:expectsAsk:deciding:)``.
  public static func testFile(policy: String, cases: [String]) -> String {
    "{\"policy\": \(JSONWriter.quoted(policy)), \"cases\": [\n  " + cases.joined(separator: ",\n  ") + "\n]}\n"
  }

  /// The prompts the history shows (its `shown` steps, with their repetitions).
  public var promptsShown: Int {
    steps.reduce(0) { total, step in step.hasPrefix("shown") ? total + WitnessHistory.repetitions(of: step) : total }
  }

  /// The steps the history replays, each repetition counted: what replaying it costs.
  public var repetitions: Int {
    steps.reduce(0) { $0 + WitnessHistory.repetitions(of: $1) }
  }

  /// How many times `step` runs: its `x <count>`, else once.
  static func repetitions(of step: String) -> Int {
    let words = step.split(separator: " ")
    guard let times = words.lastIndex(of: "x"), times + 1 < words.count, let count = Int(words[times + 1]) else {
      return 1
    }
    return count
  }
}
