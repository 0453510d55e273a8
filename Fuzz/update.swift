// Fuzz target `update`: a remote policy update given to a ReviewManager whose user declined,
// then relaunches and tracked calls (issue 23).
//
// The input's first byte chooses the tracked calls; the rest is the update's text (its bytes as
// UTF-8, invalid sequences replaced, as a `String` from the network arrives).
//
// Setup: a ReviewManager over a store of the state's bytes (`ByteStore`: every save encodes the
// state as the file store does and every load decodes it through the stores' decoder and read
// limit, so a state the manager writes and cannot read back fails), or, for one input in 64 (its
// last byte's low six bits all set), a JSONFileStore in a temporary folder (the real file,
// journal and read limit), bundled policy `ask when uses >= 3`, guardrails `never answered when declined_any or
// rated_any`: three launches, five `export` events, a prompt answered "no thanks" (recorded once by
// a manager; each input starts from that state saved by the store).
//
// Invariants (a violation calls `fuzzFail`):
// - updatePolicy never traps, and an update that is not accepted leaves the running policy;
// - after a relaunch (a new manager over the same folder) every stored count and the "no thanks"
//   are intact, and the accepted update runs (the rejected one does not);
// - no tracked call (launch, events, actions, prompt checks, wouldAsk) asks the user who declined;
// - after a second relaunch the counts are exactly those recorded, the answer still there;
// - no logger entry exceeds ReviewLogEntry's bounds.
//
// Built by Fuzz/run.sh with Fuzz/FuzzSupport.swift, linked with the modules PolicyCore and
// ReviewPolicy.
import Foundation
import ReliabilitySupport
import ReviewAnalysis

@testable import PolicyCore
@testable import ReviewPolicy

/// The honest bundled policy, and the guardrail that must hold whatever an update says.
let bundledPolicy = "ask when uses >= 3"
let guardrails = "never answered when declined_any or rated_any"

/// The folder this process's managers keep their state in (emptied before each input).
let folder: URL = {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-update-\(getpid())")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}()

/// Checks the size of every logger entry.
let logger: @Sendable (ReviewLogEntry) -> Void = { entry in
  if entry.summary.utf8.count > ReviewLogEntry.maximumSummaryBytes + 200
    || entry.details.utf8.count > ReviewLogEntry.maximumDetailsBytes + 200
    || entry.diagnostics.count > ReviewLogEntry.maximumDiagnostics
  {
    fuzzFail("an unbounded log entry: \(entry.summary.utf8.count) + \(entry.details.utf8.count) bytes")
  }
}

/// The clock: a fixed start, a millisecond later at each reading (prompt timeouts never pass).
final class FuzzClock: @unchecked Sendable {
  // @unchecked: `now` is only touched under `lock`.
  private let lock = NSLock()
  private var now = Date(timeIntervalSince1970: 1_772_366_400)
  func reset() {
    lock.lock()
    now = Date(timeIntervalSince1970: 1_772_366_400)
    lock.unlock()
  }
  var function: @Sendable () -> Date {
    { [self] in
      lock.lock()
      defer { lock.unlock() }
      now += 0.001
      return now
    }
  }
}
let clock = FuzzClock()

/// A store of the state's bytes: a save encodes the state as the file store does, a load decodes
/// them through the stores' decoder and read limit (no file system, so the target runs fast).
final class ByteStore: ReviewStore, @unchecked Sendable {
  // @unchecked: `bytes` is only touched under `lock`.
  private let lock = NSLock()
  private var bytes: Data?

  init(_ state: ReviewState) {
    bytes = Data(ReviewStateCoding.encodedBytes(state))
  }

  func load() -> StoreLoadResult {
    lock.lock()
    defer { lock.unlock() }
    guard let bytes else { return .empty }
    switch ReviewStateCoding.decode(bytes) {
    case .success(let state): return .loaded(state)
    case .failure(let problem): fuzzFail("the manager wrote \(bytes.count) bytes it cannot read back: \(problem)")
    }
  }

  func save(_ state: ReviewState) throws(StoreSaveError) {
    lock.lock()
    defer { lock.unlock() }
    bytes = Data(ReviewStateCoding.encodedBytes(state))
  }
}

/// The state file in ``folder``.
let stateFile = folder.appendingPathComponent("review-state.json")

func manager(_ store: any ReviewStore = JSONFileStore(url: stateFile)) -> ReviewManager {
  // Updates are analyzed (the analyzer is the costliest work an update can cause).
  var configuration = ReviewManager.Configuration(
    appVersion: "1.0", bundledPolicy: bundledPolicy,
    store: store, clock: clock.function,
    texts: .english, logger: logger, guardrails: guardrails)
  configuration.analyzeUpdates()
  do {
    return try ReviewManager(configuration: configuration)
  } catch {
    fuzzFail("the manager cannot be created: \(error)")
  }
}

/// The user's state before the update: three launches, five `export` events, a prompt answered
/// "no thanks" (made once, by a manager, then saved before each input).
let declinedState: ReviewState = {
  for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
    try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
  }
  let first = manager()
  for _ in 0..<3 { first.appLaunched() }
  for _ in 0..<5 { first.significantEvent("export", mayPrompt: false) }
  guard first.promptIfAppropriate(), case .success = first.record(.declined) else {
    fuzzFail("the bundled policy did not ask, or the answer was refused")
  }
  let state = first.currentState
  if !state.declinedAny || state.totalUses != 3 || state.totalEvents != 5 { fuzzFail("the setup went wrong") }
  return state
}()

/// libFuzzer's entry point: runs one input through the target and checks its invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let control = bytes.first ?? 0
  let source = String(decoding: bytes.dropFirst(), as: UTF8.self)
  let onFile = (bytes.last ?? 0) & 0x3F == 0x3F
  if onFile {
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }
  clock.reset()
  let store: any ReviewStore = onFile ? JSONFileStore(url: stateFile) : ByteStore(declinedState)

  var expected = KeptRecord(declinedState)
  var accepted = false
  do {
    // The user's state, as the setup left it, written as the store writes it (one save, not ten).
    if onFile {
      do {
        try JSONFileStore(url: stateFile).save(declinedState)
      } catch {
        fuzzFail("cannot save the state: \(error)")
      }
    }
    let first = manager(store)
    if KeptRecord(first.currentState) != expected { fuzzFail("the saved state did not load") }
    let running = first.currentPolicy.source.bytes
    let result = first.updatePolicy(source)
    accepted = result.isAccepted
    if !accepted && (first.policyOrigin != .bundled || first.currentPolicy.source.bytes != running) {
      fuzzFail("a rejected update replaced the running policy")
    }
    if accepted && result.diagnostics.hasErrors { fuzzFail("an update with errors was accepted") }
    if KeptRecord(first.currentState) != expected { fuzzFail("the update changed the counts") }
  }

  let second = manager(store)
  if KeptRecord(second.currentState) != expected {
    fuzzFail("lost at the relaunch: \(KeptRecord(second.currentState)) instead of \(expected)")
  }
  if accepted != (second.policyOrigin == .update) { fuzzFail("the relaunch runs the wrong policy") }
  // The control byte chooses the calls: bit i makes call i (a launch, events, ...) twice.
  for bit in 0..<8 where control & (1 << bit) != 0 {
    for _ in 0..<2 {
      var asked = false
      switch bit {
      case 0:
        second.appLaunched()
        expected.uses += 1
      case 1:
        asked = second.significantEvent("export")
        expected.events += 1
        expected.export += 1
      case 2:
        asked = second.significantEvent("e\(control)")
        expected.events += 1
      case 3: asked = second.action(score: 10)
      case 4: asked = second.promptIfAppropriate()
      case 5:
        second.appEnteredForeground()
        expected.uses += 1
      case 6: second.setFact("f0", .int(Int64(control)))
      default:
        _ = second.currentDecision()
        _ = second.explainCurrentDecision()
      }
      if asked || second.wouldAsk() { fuzzFail("the user who declined was asked (call \(bit))") }
    }
  }
  if second.promptIfAppropriate() { fuzzFail("the user who declined was asked") }
  expected.responses = second.currentState.responses.count

  let third = manager(store)
  if KeptRecord(third.currentState) != expected {
    fuzzFail("lost at the second relaunch: \(KeptRecord(third.currentState)) instead of \(expected)")
  }
  if third.promptIfAppropriate() || third.wouldAsk() { fuzzFail("asked after the second relaunch") }
  return 0
}

/// libFuzzer's start: builds the setup state and warms up the harness with LeakSanitizer paused.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: OpaquePointer?, _ argv: OpaquePointer?) -> CInt {
  fuzzWarmUp(["\u{3}ask when days >= 0", "\u{FF}never when uses > 1\nask when true", "\u{0}"], fuzz)
  return 0
}
