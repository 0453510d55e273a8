// Helpers shared by every fuzz target (Fuzz/run.sh compiles this file into each of them).

@testable import PolicyCore

/// Reports a broken invariant. Only the harnesses call this; it traps, so libFuzzer records the
/// input as a crash (`crash-<sha1>` in .build-fuzz/artifacts/TARGET/).
func fuzzFail(_ message: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) -> Never {
  fatalError("FUZZ INVARIANT: " + message(), file: file, line: line)
}

/// The package's seeded generator (SplitMix64) with the harnesses' helpers.
struct FuzzRandom {
  var generator: SeededGenerator
  init(state: UInt64) { generator = SeededGenerator(seed: state) }
  mutating func next() -> UInt64 { generator.next() }
  mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
  mutating func pick<T>(_ values: [T]) -> T? { values.isEmpty ? nil : values[below(values.count)] }
}

/// FNV-1a over the input: the seed of whatever a harness derives from the input.
func fuzzSeed(_ bytes: [UInt8]) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in bytes {
    hash ^= UInt64(byte)
    hash = hash &* 0x100_0000_01b3
  }
  return hash
}

/// Checks that `range` lies within a file of `count` bytes.
func checkRange(_ range: SourceRange, in count: Int, _ what: @autoclosure () -> String) {
  if range.start < 0 || range.start > range.end || range.end > count {
    fuzzFail("\(what()) has range \(range.start)..<\(range.end) in a file of \(count) bytes")
  }
}

#if FUZZ_NO_ASAN
  // Built without AddressSanitizer (Fuzz/run.sh with FUZZ_SANITIZE=fuzzer): nothing to pause.
  func lsanDisable() {}
  func lsanEnable() {}
#else
  @_silgen_name("__lsan_disable") func lsanDisable()
  @_silgen_name("__lsan_enable") func lsanEnable()
#endif

/// Runs `target` once on each of `samples` with leak detection off, from LLVMFuzzerInitialize.
///
/// The warm-up builds the harness's globals and the library's lazy tables before fuzzing starts.
/// They live until exit, and LeakSanitizer cannot follow Swift's pointers that carry enum tags in
/// their spare bits, so without this it reports them as leaked on the first input.
func fuzzWarmUp(_ samples: [String], _ target: (UnsafePointer<UInt8>, Int) -> CInt) {
  lsanDisable()
  defer { lsanEnable() }
  for sample in samples {
    let bytes = Array(sample.utf8)
    _ = bytes.withUnsafeBufferPointer { target($0.baseAddress!, $0.count) }
  }
}
