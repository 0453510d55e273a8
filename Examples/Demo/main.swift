// A simulated user meets a review policy: `swift run review-demo [options]`.
//
// It drives a real ReviewManager (in-memory store, simulated clock) through weeks of
// launches, sessions and significant events, and draws each prompt in the terminal
// with the texts, the simulated answer and the policy's explanation.

import Foundation
import PolicyCore
import ReviewPolicy

let usage = """
  USAGE: swift run review-demo [--policy FILE] [--days N] [--seed N] [--language CODE]
                               [--answers LIST] [--explain]

    --policy FILE    the policy to run (default: Examples/review.policy)
    --days N         how many simulated days (default: 120)
    --seed N         the simulated user's random seed (default: 7)
    --language CODE  the prompt's language, such as de or pt-BR (default: en)
    --answers LIST   the user's answers to successive prompts, comma-separated, from
                     rate, remind, decline, feedback, dismiss (default: remind,rate)
    --explain        print the full explanation with every prompt

  """

// MARK: - Options

struct Options {
  var policyPath = "Examples/review.policy"
  var days = 120
  var seed: UInt64 = 7
  var language = "en"
  var answers: [ReviewResponse] = [.remindLater, .rated]
  var explain = false
}

func parseOptions(_ arguments: [String]) -> Options? {
  var options = Options()
  var index = 0
  func value() -> String? {
    index += 1
    return index < arguments.count ? arguments[index] : nil
  }
  while index < arguments.count {
    switch arguments[index] {
    case "--policy": guard let path = value() else { return nil }; options.policyPath = path
    case "--days":
      guard let days = value().flatMap({ Int($0) }), (1...3650).contains(days) else { return nil }; options.days = days
    case "--seed": guard let seed = value().flatMap({ UInt64($0) }) else { return nil }; options.seed = seed
    case "--language": guard let language = value() else { return nil }; options.language = language
    case "--answers":
      guard let list = value() else { return nil }
      var answers: [ReviewResponse] = []
      for word in list.split(separator: ",") {
        switch word {
        case "rate": answers.append(.rated)
        case "remind": answers.append(.remindLater)
        case "decline": answers.append(.declined)
        case "feedback": answers.append(.feedback)
        case "dismiss": answers.append(.dismissed)
        default: return nil
        }
      }
      guard !answers.isEmpty else { return nil }
      options.answers = answers
    case "--explain": options.explain = true
    case "--help", "-h": print(usage); exit(0)
    default: return nil
    }
    index += 1
  }
  return options
}

guard let options = parseOptions(Array(CommandLine.arguments.dropFirst())) else {
  FileHandle.standardError.write(Data(("review-demo: error: invalid arguments\n\n" + usage).utf8))
  exit(2)
}

// MARK: - A deterministic simulated world

/// The package's seeded generator (SplitMix64), so every run with a seed is the same.
struct Random {
  var generator: SeededGenerator
  init(state: UInt64) { generator = SeededGenerator(seed: state) }
  mutating func next() -> UInt64 { generator.next() }
  mutating func chance(_ percent: UInt64) -> Bool { next() % 100 < percent }
  mutating func below(_ bound: UInt64) -> UInt64 { next() % bound }
}

/// The simulated clock the manager reads.
final class SimulatedClock: @unchecked Sendable {
  private let lock = NSLock()
  private var current = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
  var now: Date { lock.lock(); defer { lock.unlock() }; return current }
  func advance(seconds: Double) { lock.lock(); current += seconds; lock.unlock() }
}

/// Hands out the user's answers in order; after the last one, repeats it.
final class Answers: @unchecked Sendable {
  private let lock = NSLock()
  private var remaining: [ReviewResponse]
  init(_ answers: [ReviewResponse]) { remaining = answers }
  func next() -> ReviewResponse {
    lock.lock()
    defer { lock.unlock() }
    return remaining.count > 1 ? remaining.removeFirst() : remaining[0]
  }
}

// MARK: - Terminal output

/// Drawing prompts in the terminal.
enum Terminal {
  static func describe(_ response: ReviewResponse, _ texts: PromptTexts) -> String {
    switch response {
    case .rated: texts.rateButton
    case .remindLater: texts.remindButton
    case .declined: texts.declineButton
    case .feedback: "send feedback"
    case .dismissed: "(closes the prompt)"
    case .unknown: "(unknown)"
    }
  }

  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if line.count + word.count + 1 > width, !line.isEmpty {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  static func box(_ texts: PromptTexts) -> String {
    let width = 54
    let buttons = "[\(texts.rateButton)]  [\(texts.remindButton)]  [\(texts.declineButton)]"
    var body =
      [texts.title, ""] + Terminal.wrap(texts.message, width: width) + [""] + Terminal.wrap(buttons, width: width)
    body = body.map { $0.count > width ? String($0.prefix(width)) : $0 }
    let edge = "    +" + String(repeating: "-", count: width + 2) + "+"
    return ([edge] + body.map { "    | " + $0 + String(repeating: " ", count: width - $0.count) + " |" } + [edge])
      .joined(separator: "\n")
  }

  static func stamp(_ date: Date, start: Date) -> String {
    let elapsed = date.timeIntervalSince(start)
    let day = Int(elapsed / 86_400) + 1
    let minutes = Int(elapsed.truncatingRemainder(dividingBy: 86_400) / 60)
    return String(format: "day %3d %02d:%02d", day, minutes / 60, minutes % 60)
  }
}

// MARK: - Run

let policyText: String
do {
  policyText = try String(contentsOfFile: options.policyPath, encoding: .utf8)
} catch {
  FileHandle.standardError.write(Data("review-demo: error: cannot read `\(options.policyPath)`\n".utf8))
  exit(2)
}

let clock = SimulatedClock()
let start = clock.now
let answers = Answers(options.answers)
let texts = PromptTexts.defaults(for: options.language)
let explain = options.explain
let store = InMemoryReviewStore()

/// A manager for `version` over the shared store: an app update is a relaunch with a new version.
func makeManager(version: String) -> ReviewManager {
  do {
    return try ReviewManager(
      configuration: .init(
        appVersion: version, bundledPolicy: policyText, appName: "Darkroom", store: store,
        clock: { clock.now }, texts: texts, reviewURL: try? ReviewURL.appStore(appID: "1234567890").url,
        presenter: ClosurePresenter { request, respond in
          let answer = answers.next()
          print("\(Terminal.stamp(clock.now, start: start))  the policy asks:\n\(Terminal.box(request.texts))")
          print("    why: \(request.explanation.summary)")
          if explain {
            print(request.explanation.text.split(separator: "\n").map { "      " + $0 }.joined(separator: "\n"))
          }
          print("    the user chooses: \(Terminal.describe(answer, request.texts))\n")
          respond(answer)
        }))
  } catch {
    FileHandle.standardError.write(Data("review-demo: error: \(error)\n".utf8))
    exit(1)
  }
}

var manager = makeManager(version: "3.1.0")

// App-specific facts that Examples/review.policy declares.
manager.setFact("plan", .string("free"))
manager.setFact("crashed_this_session", .bool(false))

print("Simulating \(options.days) days of a user of Darkroom with \(options.policyPath) (seed \(options.seed)).\n")
var random = Random(state: options.seed)
for day in 0..<options.days {
  let dayStart = clock.now
  // Most days the user opens the app once or twice; some days not at all.
  let opens = random.chance(25) ? 0 : 1 + Int(random.below(2))
  clock.advance(seconds: Double(8 * 3600 + random.below(4 * 3600)))
  for open in 0..<opens {
    if open == 0 { manager.appLaunched() } else { manager.appEnteredForeground() }
    manager.sessionStarted()
    for _ in 0..<(1 + random.below(4)) {
      clock.advance(seconds: Double(60 + random.below(600)))
      let good = random.chance(85)
      manager.action(score: good ? 30 : -40, isBad: !good && random.chance(30), mayPrompt: false)
      if random.chance(40) { manager.significantEvent("export") }
    }
    manager.sessionEnded()
    clock.advance(seconds: Double(2 * 3600 + random.below(3 * 3600)))
  }
  if day == 45 { manager.setFact("plan", .string("pro")) }  // the user upgrades
  if day == options.days / 2 {
    print(
      "\(Terminal.stamp(clock.now, start: start))  -- the app updates to 3.2.0 (per-version counts start again) --\n")
    manager = makeManager(version: "3.2.0")
    manager.setFact("plan", .string(day > 45 ? "pro" : "free"))
    manager.setFact("crashed_this_session", .bool(false))
  }
  clock.advance(seconds: 86_400 - clock.now.timeIntervalSince(dayStart))
}

let state = manager.currentState
print(
  "After \(options.days) days: \(state.totalUses) uses, \(state.totalEvents) exports, \(state.totalSessions) sessions, \(state.totalPrompts) prompt(s)."
)
print(
  "Answers: "
    + (state.responses.isEmpty ? "none" : state.responses.map { "\($0.response.rawValue)" }.joined(separator: ", ")))
print("Now: " + manager.explainCurrentDecision().summary)
