/// One change to a file: the bytes of ``range`` are replaced by ``replacement``.
///
/// An empty range inserts; an empty replacement deletes. Offsets are UTF-8 byte offsets into
/// the file as it was read, before any edit.
public struct SourceEdit: Sendable, Hashable {
  /// The bytes replaced.
  public var range: SourceRange
  /// The text put in their place.
  public var replacement: String

  /// Creates an edit that replaces `range` with `replacement`.
  public init(replacing range: SourceRange, with replacement: String) {
    self.range = range
    self.replacement = replacement
  }

  /// An edit that inserts `text` at `offset`.
  public static func insert(_ text: String, at offset: Int) -> SourceEdit {
    SourceEdit(replacing: .empty(at: offset), with: text)
  }

  /// An edit that deletes `range`.
  public static func delete(_ range: SourceRange) -> SourceEdit {
    SourceEdit(replacing: range, with: "")
  }

  /// `bytes` with every edit of `edits` applied, or why they cannot all be.
  ///
  /// Edits are applied in order of their ranges (``SourceRange`` order, which sorts an insertion
  /// before a replacement that starts at the same offset; insertions at one offset keep their
  /// order in `edits`). Edits that overlap (one starts before the previous one ends) or reach
  /// past the end of `bytes` are rejected, and nothing is applied. Edits may touch: a
  /// replacement may end where the next begins.
  public static func apply(_ edits: [SourceEdit], to bytes: [UInt8]) -> Result<[UInt8], SourceEditError> {
    // Stable: edits of one range apply in the order given.
    let sorted = edits.stablySorted { $0.range < $1.range }
    var previous: SourceEdit?
    var replacedLength = 0
    var insertedLength = 0
    for edit in sorted {
      guard edit.range.start >= 0, edit.range.end <= bytes.count else { return .failure(.outOfBounds(edit)) }
      if let previous, edit.range.start < previous.range.end { return .failure(.overlapping(previous, edit)) }
      previous = edit
      replacedLength += edit.range.length
      insertedLength += edit.replacement.utf8.count
    }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count - replacedLength + insertedLength)
    var position = 0
    for edit in sorted {
      result.append(contentsOf: bytes[position..<edit.range.start])
      result.append(contentsOf: edit.replacement.utf8)
      position = edit.range.end
    }
    result.append(contentsOf: bytes[position...])
    return .success(result)
  }
}

/// Why a set of ``SourceEdit``s cannot be applied.
public enum SourceEditError: Error, Sendable, Hashable {
  /// The edit's range reaches outside the file.
  case outOfBounds(SourceEdit)
  /// The second edit starts before the first one ends.
  case overlapping(SourceEdit, SourceEdit)
}
