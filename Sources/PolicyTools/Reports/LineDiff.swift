/// A line diff (Myers' O(ND) algorithm) printed in unified format, for `policyc fmt --check`.
package enum LineDiff {
  /// One line of the diff.
  package enum Edit: Equatable, Sendable {
    /// A line in both.
    case same(String)
    /// A line only in the old text.
    case removed(String)
    /// A line only in the new text.
    case added(String)
  }

  /// The edits turning `old` into `new`, shortest first.
  package static func edits(_ old: [String], _ new: [String]) -> [Edit] {
    let n = old.count
    let m = new.count
    let maximum = n + m
    guard maximum > 0 else { return [] }
    var frontier = [Int](repeating: 0, count: 2 * maximum + 2)
    var trace: [[Int]] = []
    var found = false
    for d in 0...maximum {
      trace.append(frontier)
      for k in stride(from: -d, through: d, by: 2) {
        var x: Int
        if k == -d || (k != d && frontier[maximum + k - 1] < frontier[maximum + k + 1]) {
          x = frontier[maximum + k + 1]
        } else {
          x = frontier[maximum + k - 1] + 1
        }
        var y = x - k
        while x < n && y < m && old[x] == new[y] {
          x += 1
          y += 1
        }
        frontier[maximum + k] = x
        if x >= n && y >= m {
          found = true
          break
        }
      }
      if found { break }
    }
    // Walk back through the trace.
    var edits: [Edit] = []
    var x = n
    var y = m
    for d in stride(from: trace.count - 1, through: 0, by: -1) {
      let v = trace[d]
      let k = x - y
      let previousK: Int
      if k == -d || (k != d && v[maximum + k - 1] < v[maximum + k + 1]) {
        previousK = k + 1
      } else {
        previousK = k - 1
      }
      let previousX = v[maximum + previousK]
      let previousY = previousX - previousK
      while x > previousX && y > previousY {
        edits.append(.same(old[x - 1]))
        x -= 1
        y -= 1
      }
      if d > 0 {
        if x == previousX {
          edits.append(.added(new[y - 1]))
        } else {
          edits.append(.removed(old[x - 1]))
        }
      }
      x = previousX
      y = previousY
    }
    return edits.reversed()
  }

  /// A unified diff of `old` and `new` with three lines of context; empty when they are equal.
  package static func unified(old: String, new: String, path: String) -> String {
    let oldLines = lines(old)
    let newLines = lines(new)
    let edits = edits(oldLines, newLines)
    guard
      edits.contains(where: {
        if case .same = $0 { return false }; return true
      })
    else { return "" }
    var output = "--- \(path)\n+++ \(path) (formatted)\n"
    // Group edits into hunks with context.
    let context = 3
    var index = 0
    var oldLine = 1
    var newLine = 1
    var positions: [(old: Int, new: Int)] = []
    for edit in edits {
      positions.append((oldLine, newLine))
      switch edit {
      case .same: oldLine += 1; newLine += 1
      case .removed: oldLine += 1
      case .added: newLine += 1
      }
    }
    while index < edits.count {
      guard
        let change = edits[index...].firstIndex(where: {
          if case .same = $0 { return false }; return true
        })
      else { break }
      let start = max(index, change - context)
      var end = change
      var lastChange = change
      while end < edits.count {
        if case .same = edits[end] {
          if end - lastChange > 2 * context { break }
        } else {
          lastChange = end
        }
        end += 1
      }
      end = min(edits.count, lastChange + context + 1)
      let hunk = edits[start..<end]
      let oldCount = hunk.filter {
        if case .added = $0 { return false }; return true
      }.count
      let newCount = hunk.filter {
        if case .removed = $0 { return false }; return true
      }.count
      output += "@@ -\(positions[start].old),\(oldCount) +\(positions[start].new),\(newCount) @@\n"
      for edit in hunk {
        switch edit {
        case .same(let line): output += " \(line)\n"
        case .removed(let line): output += "-\(line)\n"
        case .added(let line): output += "+\(line)\n"
        }
      }
      index = end
    }
    return output
  }

  static func lines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
  }
}
