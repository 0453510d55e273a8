/// The structured fields a tracked call adds to its log entry (the decision's or the note's).
struct EntryDetails {
  /// ``ReviewLogEntry/name``.
  var name: String?
  /// ``ReviewLogEntry/counted``.
  var counted: Bool?
  /// ``ReviewLogEntry/score``.
  var score: Double?
  /// ``ReviewLogEntry/isBad``.
  var isBad: Bool?

  /// Sets the fields given on `entry`.
  func apply(to entry: inout ReviewLogEntry) {
    if let name { entry.name = name }
    if let counted { entry.counted = counted }
    if let score { entry.score = score }
    if let isBad { entry.isBad = isBad }
  }
}
