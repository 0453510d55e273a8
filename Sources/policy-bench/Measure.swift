#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Timing helpers: a monotonic clock, medians, and a sink the optimiser cannot remove.
enum Measure {
  /// Nanoseconds from a monotonic clock.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
  }

  /// The median of `values`.
  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted.count % 2 == 1
      ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
  }

  /// Runs `body` `batch` times per sample, `samples` times, and returns the median nanoseconds per call.
  static func nanosecondsPerCall(samples: Int, batch: Int, _ body: (Int) -> Void) -> Double {
    var results: [Double] = []
    for _ in 0..<samples {
      let start = now()
      for index in 0..<batch { body(index) }
      results.append(Double(now() - start) / Double(batch))
    }
    return median(results)
  }

  /// The number of cores the process may use.
  static var cores: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

  /// The machine, as `Linux x86_64, 2 cores`.
  static var machine: String {
    var name = utsname()
    guard uname(&name) == 0 else { return "\(cores) cores" }
    func text<T>(_ field: T) -> String {
      withUnsafeBytes(of: field) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
    }
    return "\(text(name.sysname)) \(text(name.machine)), \(cores) cores"
  }

  /// The system's load average over the last minute, or nil where it cannot be read.
  static func loadAverage() -> Double? {
    var loads = [0.0, 0.0, 0.0]
    return getloadavg(&loads, 3) >= 1 ? loads[0] : nil
  }

  /// The process's peak resident memory in kibibytes.
  static func peakMemoryKiB() -> Int {
    var usage = rusage()
    #if os(Linux)
      getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
      getrusage(RUSAGE_SELF, &usage)
    #endif
    #if os(Linux)
      return Int(usage.ru_maxrss)
    #else
      return Int(usage.ru_maxrss) / 1024
    #endif
  }
}

/// Keeps results alive so the optimiser cannot drop the measured work.
final class Sink: @unchecked Sendable {
  // @unchecked: only ever touched from one thread.
  var count = 0

  @inline(never)
  func consume(_ value: Bool) {
    if value { count &+= 1 }
  }
}
