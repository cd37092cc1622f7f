extension PlacementKernel {
    /// Places `inputs[range]` of a section with stamps (the Geometry article, "Stamps"), exact or stable: each item
    /// goes where its columns' next position would put it, moved below every stamp it would overlap there, and
    /// `shortest` placement judges each start by that position; returns how many laid-out heights were not exact.
    ///
    /// Out of line and apart from the other loops, which then carry no stamp code: `place` tests for stamps once
    /// per call.
    ///
    /// - Complexity: O(n × columns × stamps), plus O(n × columns × span) under `spanPlacement: leastWhitespace`.
    @inline(never)
    static func placeStamped<Entries: ColumnEntrySink>(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, geometry: SectionGeometry,
        cursor: inout ColumnCursor, output: KernelOutput<Entries>
    ) -> Int {
        let c = geometry.columnCount
        var inexact = 0
        var next = cursor.next
        cursor.columnY.withUnsafeMutableBufferPointer { columnY in
            for index in range {
                let input = inputs[index]
                let span = input.span(in: c)
                let height = geometry.itemHeight(input)
                let (column, y) = ColumnCursor.chooseAroundStamps(
                    of: input, span: span, height: height, in: UnsafeBufferPointer(columnY), next: &next,
                    geometry: geometry)
                let bottom = y + height + geometry.rowSpacing
                for j in column..<(column + span) { columnY[j] = bottom }
                output.write(index, y: y, height: height, column: column, span: span)
                inexact &+= Exactness.isExact(height) ? 0 : 1
            }
        }
        cursor.next = next
        return inexact
    }
}

extension ColumnCursor {
    /// The start column and y of an item `height` long in a section with stamps: a stable section's kept column, or
    /// the one the section's rule chooses, each start judged by the y the stamps leave it; `next` becomes the
    /// cursor after it.
    static func chooseAroundStamps(
        of input: ItemInput, span: Int, height: Double, in columnY: UnsafeBufferPointer<Double>, next: inout Int,
        geometry: SectionGeometry
    ) -> (column: Int, y: Double) {
        let count = columnY.count
        let stamps = geometry.stamps
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
            let top = span == 1 ? columnY[column] : windowTops(in: columnY, span: span)[column]
            return (column, clear(top, column))
        }
        var tops = windowTops(in: columnY, span: span)
        for start in tops.indices { tops[start] = clear(tops[start], start) }
        let cursor = geometry.tieBreak == .cursor ? next : 0
        let picked =
            span > 1 && geometry.spanPlacement == .leastWhitespace
            ? leastWhitespace(tops, in: columnY, span: span, cursor: cursor)
            : lowest(tops, tolerance: geometry.tolerance, cursor: cursor)
        if geometry.tieBreak == .cursor { next = (picked.column + span) % count }
        return picked
    }
}
