/// Sorting through one routine for every element type.
///
/// The standard library's `sort(by:)` is generic, so a program carries a copy of it, about
/// 3 KB, for each element type and each comparison it sorts by. The compiler, the tracker and the
/// store sort a dozen kinds of things, most of them a few elements long, and an app carries all of
/// them (issue 27's size budget), so they sort through this one instead: a stable merge sort of
/// positions, which never sees the element type.
package enum StableOrder {
  /// A comparison of two positions, wrapped so the optimizer does not copy ``positions(count:by:)``
  /// for each closure it is called with.
  package struct Comparison {
    /// Whether the element at the first position goes before the one at the second.
    let isLess: (Int, Int) -> Bool
  }

  /// The positions `0..<count`, stably ordered by `comparison`: positions whose elements are
  /// equivalent keep their order.
  @inline(never)
  package static func positions(count: Int, by comparison: Comparison) -> [Int] {
    var order = Array(0..<max(count, 0))
    guard order.count > 1 else { return order }
    if order.count <= 16 {
      // A few positions (nearly every sort here): insertion in place, without the merge's buffer.
      for next in 1..<order.count {
        let position = order[next]
        var slot = next
        // Moves past only the strictly greater, so equal elements keep their order.
        while slot > 0 && comparison.isLess(position, order[slot - 1]) {
          order[slot] = order[slot - 1]
          slot -= 1
        }
        order[slot] = position
      }
      return order
    }
    var merged = order
    var width = 1
    // Each pass merges neighbouring runs of `width` positions into runs twice as long.
    while width < order.count {
      var start = 0
      while start < order.count {
        let middle = min(start + width, order.count)
        let end = min(middle + width, order.count)
        var left = start
        var right = middle
        var next = start
        while left < middle && right < end {
          // The right run's element goes first only when strictly less: equal ones keep their order.
          if comparison.isLess(order[right], order[left]) {
            merged[next] = order[right]
            right += 1
          } else {
            merged[next] = order[left]
            left += 1
          }
          next += 1
        }
        while left < middle {
          merged[next] = order[left]
          left += 1
          next += 1
        }
        while right < end {
          merged[next] = order[right]
          right += 1
          next += 1
        }
        start = end
      }
      swap(&order, &merged)
      width *= 2
    }
    return order
  }
}

extension Sequence {
  /// The elements, stably sorted by `areInIncreasingOrder` through ``StableOrder`` (one sorting
  /// routine for every element type): elements neither of which goes before the other keep their
  /// order.
  package func stablySorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> [Element] {
    let elements = Array(self)
    // Nothing to order (most of the compiler's sorts): no comparison, so no closure context either.
    guard elements.count > 1 else { return elements }
    return withoutActuallyEscaping(areInIncreasingOrder) { isLess in
      StableOrder.positions(count: elements.count, by: .init { isLess(elements[$0], elements[$1]) })
        .map { elements[$0] }
    }
  }
}
