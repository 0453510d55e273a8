import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Parses `--name value` options and `--flag` switches; anything else is a usage error.
struct OptionParser {
  private var values: [String: String] = [:]
  private var flags: Set<String> = []

  /// Parses `arguments`, accepting the options in `valued` (which take a value) and the switches in `switches`.
  init(_ arguments: [String], command: String, valued: Set<String>, switches: Set<String> = []) {
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if valued.contains(argument) {
        guard index + 1 < arguments.count else { usageError("`\(argument)` needs a value") }
        values[argument] = arguments[index + 1]
        index += 2
      } else if switches.contains(argument) {
        flags.insert(argument)
        index += 1
      } else {
        usageError("`\(command)` does not take `\(argument)`")
      }
    }
  }

  /// The integer value of `name` within `range`, or `fallback` when not given.
  func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>) -> Int {
    guard let text = values[name] else { return fallback }
    guard let value = Int(text.replacingOccurrences(of: "_", with: "")), range.contains(value) else {
      usageError("`\(name)` needs a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }

  /// The text value of `name`, if given.
  func text(_ name: String) -> String? { values[name] }

  /// Whether the switch `name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }
}

/// Writes all of `text` to the file descriptor with `write(2)` (no buffering): when it returns,
/// the bytes are in the pipe, whatever happens to this process next.
func writeUnbuffered(_ text: String, to descriptor: Int32 = 1) {
  let bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeBytes { buffer -> Int in
      guard let base = buffer.baseAddress else { return 0 }
      return write(descriptor, base + offset, buffer.count - offset)
    }
    if written <= 0 {
      if written < 0 && errno == EINTR { continue }
      return
    }
    offset += written
  }
}

/// Seconds elapsed since `start` (a `DispatchTime` in nanoseconds).
func seconds(since start: UInt64) -> Double {
  Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// `value` with thousands separators (`1,234,567`).
func grouped(_ value: Int) -> String {
  let digits = String(value.magnitude)
  var result = ""
  for (offset, character) in digits.enumerated() {
    if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
    result.append(character)
  }
  return (value < 0 ? "-" : "") + result
}
