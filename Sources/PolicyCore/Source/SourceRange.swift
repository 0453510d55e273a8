/// A half-open range of UTF-8 byte offsets into a ``SourceFile``.
///
/// Every token, node and diagnostic carries one. Line and column numbers are
/// computed from it only when something is displayed.
public struct SourceRange: Sendable, Hashable, Comparable {
  /// The offset of the first byte in the range.
  public var start: Int
  /// The offset one past the last byte in the range.
  public var end: Int

  /// Creates a range from `start` up to, but not including, `end`.
  public init(start: Int, end: Int) {
    self.start = start
    self.end = max(start, end)
  }

  /// An empty range at `offset`.
  public static func empty(at offset: Int) -> SourceRange {
    SourceRange(start: offset, end: offset)
  }

  /// The number of bytes in the range.
  public var length: Int { end - start }

  /// Whether the range covers no bytes.
  public var isEmpty: Bool { start == end }

  /// The smallest range that covers both this range and `other`.
  public func union(_ other: SourceRange) -> SourceRange {
    SourceRange(start: min(start, other.start), end: max(end, other.end))
  }

  /// Orders ranges by start offset, then by end offset.
  public static func < (lhs: SourceRange, rhs: SourceRange) -> Bool {
    (lhs.start, lhs.end) < (rhs.start, rhs.end)
  }
}

/// A 1-based line and column, computed from a UTF-8 offset for display.
public struct SourceLocation: Sendable, Hashable {
  /// The 1-based line number.
  public var line: Int
  /// The 1-based column, counted in Unicode scalars (an invalid byte counts as one).
  public var column: Int

  /// Creates a location from a line and a column.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }
}
