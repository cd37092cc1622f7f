import WaterfallModel

extension Layout {
    /// How far below a row's first top edge another element's top edge may be and still be in that row: one point,
    /// so that items the rule puts side by side (equal tops, or tops a rounding apart) read as one row, and an item
    /// one point lower starts the next.
    public static let readingRowTolerance = 1.0

    /// The elements of `rect` (both in flow coordinates) in `order`; see `elements(in:limit:)` for which are
    /// included. Reading order is the screen's: a horizontal layout's elements are ordered by their screen frames.
    /// In a vertical layout, the top edges of one section's elements are compared as the section placed them,
    /// relative to its origin, so that an item whose top is a point below another's reads in its row however the
    /// sums that put them on screen round (Geometry, "Reading order and neighbours").
    ///
    /// - Complexity: that of `elements(in:)`, plus O(k log k) to sort the k elements in reading order.
    public func elements(in rect: Rect, order: ElementOrder) -> [Element] {
        let found = elements(in: rect)
        guard order == .reading else { return found }
        let screen = screen
        let frames = found.map { screen.rect($0.frame) }
        let tops = screen.isIdentity ? found.map(readingTop) : frames.map { ReadingTop(section: 0, local: $0.y) }
        return Self.readingPermutation(frames, tops: tops, direction: direction).map { found[$0] }
    }

    /// `elements` (in document order) in reading order: sorted by top edge, cut into rows where a top edge is more
    /// than `readingRowTolerance` below the first of its row, each row by x (by right edge, descending, under
    /// `rtl`); elements that compare equal keep their document order. Judged by the frames alone.
    public static func readingOrder(_ elements: [Element], direction: Direction) -> [Element] {
        let tops = elements.map { ReadingTop(section: 0, local: $0.frame.y) }
        return readingPermutation(elements.map(\.frame), tops: tops, direction: direction).map { elements[$0] }
    }

    /// The positions of `frames` in reading order (`readingOrder(_:direction:)`'s rule), their top edges given by
    /// `tops`: by section, then local top; a row takes what is within `readingRowTolerance` of its first top, by
    /// local tops within a section and by frames across sections.
    static func readingPermutation(_ frames: [Rect], tops: [ReadingTop], direction: Direction) -> [Int] {
        let byTop = frames.indices.sorted { a, b in
            let (ta, tb) = (tops[a], tops[b])
            if ta.section != tb.section { return ta.section < tb.section }
            return ta.local != tb.local ? ta.local < tb.local : a < b
        }
        func inRow(_ k: Int, startedBy first: Int) -> Bool {
            let (top, rowTop) = (tops[k], tops[first])
            if top.section == rowTop.section { return top.local <= rowTop.local + readingRowTolerance }
            return frames[k].y <= frames[first].y + readingRowTolerance
        }
        var result: [Int] = []
        result.reserveCapacity(frames.count)
        var start = 0
        while start < byTop.count {
            var end = start + 1
            while end < byTop.count && inRow(byTop[end], startedBy: byTop[start]) { end += 1 }
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

    /// Where `element`'s top edge is in its section's placement: an item's local y, a stamp's, a header's or
    /// footer's local frame (a pinned header's placed y less the origin).
    private func readingTop(_ element: Element) -> ReadingTop {
        let section = sections[element.section]
        let local: Double
        switch element.kind {
        case .item: local = section.ys[element.index ?? 0]
        case .header:
            local = element.pinned ? element.frame.y - origins[element.section] : section.localHeaderFrame?.y ?? 0
        case .footer: local = section.localFooterFrame?.y ?? 0
        case .stamp: local = section.geometry.stamps.first { $0.index == element.index }?.top ?? 0
        }
        return ReadingTop(section: element.section, local: local)
    }
}

/// An element's top edge for reading order: its section and its top relative to the section's origin, or (section 0
/// for all) its top on screen.
struct ReadingTop {
    var section: Int
    var local: Double
}
