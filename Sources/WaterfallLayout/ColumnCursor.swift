import WaterfallModel

/// The running state of placement in one section: each column's next y, and the cursor.
struct ColumnCursor: Sendable, Equatable {
    var columnY: [Double]
    /// The cursor of `next` placement, or of `shortest` placement with `tieBreak: cursor`: both are the previous
    /// item's `(column + span) % columns` (0 for the first item), which is how a resumed placement recovers it. For
    /// the tie rule, the plain `j + s` and its remainder pick alike: at `columns` no tied start is at or after it,
    /// and at 0 every one is, so either way the leftmost tied start wins.
    var next: Int

    // MARK: Lifecycle

    init(columnCount: Int, top: Double) {
        columnY = Array(repeating: top, count: columnCount)
        next = 0
    }

    /// A cursor whose column tops are written into `storage` (empty), which saves an allocation.
    init(columnCount: Int, top: Double, storage: consuming [Double]) {
        columnY = storage
        columnY.append(contentsOf: repeatElement(top, count: columnCount))
        next = 0
    }

    // MARK: Internal

    /// Picks the start column for an item of `span` columns (already clamped) and returns it with its y
    /// (the Geometry article, "Ties after the cursor").
    ///
    /// - Complexity: O(columns); a sliding-window maximum keeps wide spans from costing O(columns × span).
    @inline(__always)
    static func choose(
        in columnY: UnsafeBufferPointer<Double>, next: inout Int, span: Int, placement: Placement,
        tolerance: Double, tieBreak: TieBreak, spanPlacement: SpanPlacement
    ) -> (column: Int, y: Double) {
        let count = columnY.count
        if placement == .next {
            if next + span > count { next = 0 }
            let column = next
            next = (column + span) % count
            var y = columnY[column]
            for j in (column + 1)..<(column + span) where columnY[j] > y { y = columnY[j] }
            return (column, y)
        }
        if tieBreak == .cursor {
            let picked =
                span == 1
                ? pickAfterCursor(in: columnY, cursor: next, tolerance: tolerance)
                : chooseSpanning(in: columnY, span: span, tolerance: tolerance, cursor: next, rule: spanPlacement)
            next = (picked.column + span) % count
            return picked
        }
        if span == 1 {
            var best = 0
            var minimum = columnY[0]
            for j in 1..<count where columnY[j] < minimum {
                minimum = columnY[j]
                best = j
            }
            if tolerance > 0 {
                let limit = minimum + tolerance
                for j in 0..<best where columnY[j] <= limit { return (j, columnY[j]) }
            }
            return (best, minimum)
        }
        return chooseSpanning(in: columnY, span: span, tolerance: tolerance, cursor: 0, rule: spanPlacement)
    }

    /// `tieBreak: cursor` for one column: the first column at or after `cursor` within `tolerance` of the shortest,
    /// else the first one before it (the shortest itself is always tied, so there is one).
    @inline(__always)
    static func pickAfterCursor(
        in columnY: UnsafeBufferPointer<Double>, cursor: Int, tolerance: Double
    ) -> (column: Int, y: Double) {
        var minimum = columnY[0]
        for j in 1..<columnY.count { minimum = Swift.min(minimum, columnY[j]) }
        let limit = minimum + tolerance
        for j in cursor..<columnY.count where columnY[j] <= limit { return (j, columnY[j]) }
        for j in 0..<cursor where columnY[j] <= limit { return (j, columnY[j]) }
        assertionFailure("no column within the minimum")
        return (0, columnY[0])
    }

    /// The top of each window of `span` columns, by start: its highest column's next position, found with a
    /// monotonic deque.
    ///
    /// - Complexity: O(columns).
    static func windowTops(in columnY: UnsafeBufferPointer<Double>, span: Int) -> [Double] {
        let count = columnY.count
        var tops = [Double](repeating: 0, count: count - span + 1)
        var deque = [Int](repeating: 0, count: count)
        var head = 0
        var tail = 0
        for j in 0..<count {
            while tail > head && columnY[deque[tail - 1]] <= columnY[j] { tail -= 1 }
            deque[tail] = j
            tail += 1
            if deque[head] <= j - span { head += 1 }
            if j >= span - 1 { tops[j - span + 1] = columnY[deque[head]] }
        }
        return tops
    }

    /// The tolerance rule over the tops of each start: the first start at or after `cursor` within `tolerance` of
    /// the lowest top, else the first (`cursor` 0 is the leftmost rule).
    ///
    /// - Complexity: O(starts).
    static func lowest(
        _ tops: UnsafeBufferPointer<Double>, tolerance: Double, cursor: Int
    ) -> (column: Int, y: Double) {
        let starts = tops.count
        var minimum = tops[0]
        for j in 1..<starts where tops[j] < minimum { minimum = tops[j] }
        let limit = minimum + tolerance
        if cursor < starts {
            for j in cursor..<starts where tops[j] <= limit { return (j, tops[j]) }
        }
        for j in 0..<Swift.min(cursor, starts) where tops[j] <= limit { return (j, tops[j]) }
        assertionFailure("no candidate column within the minimum")
        return (0, tops[0])
    }

    /// `spanPlacement: leastWhitespace` (the Geometry article, "Spans placed by whitespace"): the start whose
    /// window leaves least whitespace, Σ over its columns left to right of (`tops[start]` − the column's next
    /// position); of those, the lowest top; of those still equal, the first at or after `cursor`, else the first.
    ///
    /// - Complexity: O(starts × span).
    static func leastWhitespace(
        _ tops: [Double], in columnY: UnsafeBufferPointer<Double>, span: Int, cursor: Int
    ) -> (column: Int, y: Double) {
        var wastes = [Double](repeating: 0, count: tops.count)
        for start in tops.indices {
            var waste = 0.0
            for j in start..<(start + span) { waste += tops[start] - columnY[j] }
            wastes[start] = waste
        }
        var best = 0
        for j in 1..<tops.count where (wastes[j], tops[j]) < (wastes[best], tops[best]) { best = j }
        func tied(_ j: Int) -> Bool { wastes[j] == wastes[best] && tops[j] == tops[best] }
        if cursor < tops.count {
            for j in cursor..<tops.count where tied(j) { return (j, tops[j]) }
        }
        return (best, tops[best])
    }

    // MARK: Private

    /// `shortest` for spans over one column: the window maxima by a monotonic deque, then, under `lowest`, the
    /// tolerance rule: the first tied start at or after `cursor`, else the first (`cursor` 0 is the leftmost rule);
    /// under `leastWhitespace`, `leastWhitespace(_:in:span:cursor:)`.
    private static func chooseSpanning(
        in columnY: UnsafeBufferPointer<Double>, span: Int, tolerance: Double, cursor: Int, rule: SpanPlacement
    ) -> (column: Int, y: Double) {
        let candidates = windowTops(in: columnY, span: span)
        if rule == .leastWhitespace { return leastWhitespace(candidates, in: columnY, span: span, cursor: cursor) }
        return candidates.withUnsafeBufferPointer { lowest($0, tolerance: tolerance, cursor: cursor) }
    }
}
