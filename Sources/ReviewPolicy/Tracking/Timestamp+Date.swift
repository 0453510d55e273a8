import Foundation
import PolicyCore

extension Timestamp {
  /// The instant of `date`, to the millisecond (clamped to the representable range).
  public init(_ date: Date) {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
    if milliseconds.isNaN {
      self.init(millisecondsSince1970: 0)
    } else if milliseconds >= 9.2e18 {
      self.init(millisecondsSince1970: .max)
    } else if milliseconds <= -9.2e18 {
      self.init(millisecondsSince1970: .min)
    } else {
      self.init(millisecondsSince1970: Int64(milliseconds))
    }
  }
}

extension Date {
  /// The date of an instant.
  public init(_ timestamp: Timestamp) {
    self.init(timeIntervalSince1970: Double(timestamp.millisecondsSince1970) / 1000)
  }
}
