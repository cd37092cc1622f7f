/// The order of a query's elements (Geometry, "Reading order").
public enum ElementOrder: String, Sendable, Hashable, CaseIterable {
    /// By section, then header, items by index, footer: the order of the layout's inputs.
    case document
    /// Rows top to bottom, each left to right (right to left under `rtl`): the order a reader's eye takes.
    case reading
}

extension Layout {
    /// How far below a row's first top edge another element's top edge may be and still be in that row: one point,
    /// so that items the rule puts side by side (equal tops, or tops a rounding apart) read as one row, and an item
    /// one point lower starts the next.
    public static let readingRowTolerance = 1.0

    /// The elements of `rect` (both in flow coordinates) in `order`; see `elements(in:limit:)` for which are
    /// included. Reading order is the screen's: a horizontal layout's elements are ordered by their screen frames.
    ///
    /// - Complexity: that of `elements(in:)`, plus O(k log k) to sort the k elements in reading order.
    public func elements(in rect: Rect, order: ElementOrder) -> [Element] {
        let found = elements(in: rect)
        guard order == .reading else { return found }
        let screen = screen
        let order = Self.readingPermutation(found.map { screen.rect($0.frame) }, direction: direction)
        return order.map { found[$0] }
    }

    /// `elements` (in document order) in reading order: sorted by top edge, cut into rows where a top edge is more
    /// than `readingRowTolerance` below the first of its row, each row by x (by right edge, descending, under
    /// `rtl`); elements that compare equal keep their document order.
    public static func readingOrder(_ elements: [Element], direction: Direction) -> [Element] {
        readingPermutation(elements.map(\.frame), direction: direction).map { elements[$0] }
    }

    /// The positions of `frames` in reading order (`readingOrder(_:direction:)`'s rule).
    static func readingPermutation(_ frames: [Rect], direction: Direction) -> [Int] {
        let byTop = frames.indices.sorted { a, b in
            frames[a].y != frames[b].y ? frames[a].y < frames[b].y : a < b
        }
        var result: [Int] = []
        result.reserveCapacity(frames.count)
        var start = 0
        while start < byTop.count {
            let rowTop = frames[byTop[start]].y
            var end = start + 1
            while end < byTop.count && frames[byTop[end]].y <= rowTop + readingRowTolerance { end += 1 }
            let row = byTop[start..<end].sorted { a, b in
                let (fa, fb) = (frames[a], frames[b])
                if direction == .rtl { return fa.maxX != fb.maxX ? fa.maxX > fb.maxX : a < b }
                return fa.x != fb.x ? fa.x < fb.x : a < b
            }
            result.append(contentsOf: row)
            start = end
        }
        return result
    }
}
