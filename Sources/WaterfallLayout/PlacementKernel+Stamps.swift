extension PlacementKernel {
    /// Places `inputs[range]` of a section with stamps (the Geometry article, "Stamps"), exact or stable: each item
    /// goes where its columns' next position would put it, moved below every stamp it would overlap there, and
    /// `shortest` placement judges each start by that position; returns how many laid-out heights were not exact.
    ///
    /// Out of line and apart from the other loops, which then carry no stamp code: `place` tests for stamps once
    /// per call.
    ///
    /// - Complexity: O(n × columns × stamps), plus O(n × columns × span) under `spanPlacement: leastWhitespace`;
    ///   stamps above every column's next position are no longer looked at.
    @inline(never)
    static func placeStamped<Entries: ColumnEntrySink>(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, geometry: SectionGeometry,
        cursor: inout ColumnCursor, output: KernelOutput<Entries>
    ) -> Int {
        let c = geometry.columnCount
        var inexact = 0
        var next = cursor.next
        var tops = [Double](repeating: 0, count: c)
        cursor.columnY.withUnsafeMutableBufferPointer { columnY in
            geometry.stamps.withUnsafeBufferPointer { stamps in
                tops.withUnsafeMutableBufferPointer { tops in
                    // Stamps are sorted by top: the first ones that end above every column's next position can no
                    // longer move an item (tops only grow), so the search starts after them.
                    var passed = 0
                    for index in range {
                        var lowest = columnY[0]
                        for j in 1..<c where columnY[j] < lowest { lowest = columnY[j] }
                        while passed < stamps.count && stamps[passed].next <= lowest { passed += 1 }
                        let input = inputs[index]
                        let span = input.span(in: c)
                        // Stamps go with equal columns only: an item is as tall in every start.
                        let height = geometry.itemHeight(input, column: 0)
                        let (column, y) = ColumnCursor.chooseAroundStamps(
                            UnsafeBufferPointer(rebasing: stamps[passed...]), of: input, span: span, height: height,
                            in: UnsafeBufferPointer(columnY), tops: tops, next: &next, geometry: geometry)
                        let bottom = y + height + geometry.rowSpacing
                        for j in column..<(column + span) { columnY[j] = bottom }
                        output.write(index, y: y, height: height, column: column, span: span)
                        inexact &+= Exactness.isExact(height) ? 0 : 1
                    }
                }
            }
        }
        cursor.next = next
        return inexact
    }
}

extension ColumnCursor {
    /// The start column and y of an item `height` long in a section with `stamps` (sorted by top): a stable
    /// section's kept column, or the one the section's rule chooses, each start judged by the y the stamps leave it;
    /// `next` becomes the cursor after it. `tops` (one per column) is scratch space.
    static func chooseAroundStamps(
        _ stamps: UnsafeBufferPointer<StampBlock>, of input: ItemInput, span: Int, height: Double,
        in columnY: UnsafeBufferPointer<Double>, tops: UnsafeMutableBufferPointer<Double>, next: inout Int,
        geometry: SectionGeometry
    ) -> (column: Int, y: Double) {
        let count = columnY.count
        let spacing = geometry.rowSpacing
        func clear(_ top: Double, _ start: Int) -> Double {
            stamps.clear(top, height: height, spacing: spacing, start: start, span: span)
        }
        if geometry.reflow == .stable && !input.needsColumn {
            let kept = stack(in: columnY, kept: input.column, span: span)
            next = (kept.column + span) % count
            return (kept.column, clear(kept.y, kept.column))
        }
        if geometry.placement == .next {
            if next + span > count { next = 0 }
            let column = next
            next = (column + span) % count
            var top = columnY[column]
            for j in column..<(column + span) where columnY[j] > top { top = columnY[j] }
            return (column, clear(top, column))
        }
        let starts = count - span + 1
        if span == 1 {
            for j in 0..<count { tops[j] = clear(columnY[j], j) }
        } else {
            let windows = windowTops(in: columnY, span: span)
            for start in 0..<starts { tops[start] = clear(windows[start], start) }
        }
        let candidates = UnsafeBufferPointer(rebasing: tops[0..<starts])
        let cursor = geometry.tieBreak == .cursor ? next : 0
        let picked =
            span > 1 && geometry.spanPlacement == .leastWhitespace
            ? leastWhitespace(Array(candidates), in: columnY, span: span, cursor: cursor)
            : lowest(candidates, tolerance: geometry.tolerance, cursor: cursor)
        if geometry.tieBreak == .cursor { next = (picked.column + span) % count }
        return picked
    }
}
