import WaterfallModel

extension PlacementKernel {
    /// Places `inputs[range]` of a section with `reflow: stable` (the Geometry article's "Stable reflow"): an item that keeps a
    /// column is stacked in it (its start moved left as far as its span needs to fit), one that has none yet is
    /// given one by the section's rule, exactly as exact placement would; returns how many laid-out heights were
    /// not exact.
    ///
    /// Out of line and apart from the exact loops, which then carry no stable-reflow code: `place` tests the reflow
    /// once per call.
    ///
    /// - Complexity: O(n × span) for kept columns; O(n × columns) for the items it chooses columns for.
    @inline(never)
    static func placeStable<Entries: ColumnEntrySink>(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, geometry: SectionGeometry,
        cursor: inout ColumnCursor, output: KernelOutput<Entries>
    ) -> Int {
        let c = geometry.columnCount
        let spacing = geometry.rowSpacing
        let width = geometry.itemWidth(span: 1)
        let scale = geometry.scale
        // The loop's usual item is sized at the one column width: columns of different widths size each by its own.
        let equalColumns = geometry.shares == nil
        var inexact = 0
        var next = cursor.next
        cursor.columnY.withUnsafeMutableBufferPointer { columnY in
            for index in range {
                let input = inputs[index]
                let span = input.span(in: c)
                if span == 1 && !input.needsColumn && equalColumns {
                    // The usual item: one column, kept. Sized as `HeightSizing` sizes it.
                    let column = Int(input.column) < c ? Int(input.column) : c - 1
                    var height = input.height
                    if input.aspectWidth > 0 { height = (input.height * width) / input.aspectWidth }
                    if scale > 0 { height = (height * scale).rounded() / scale }
                    let y = columnY[column]
                    columnY[column] = y + height + spacing
                    output.write(index, y: y, height: height, column: column)
                    inexact &+= Exactness.isExact(height) ? 0 : 1
                    next = column + 1 == c ? 0 : column + 1
                    continue
                }
                let (column, y) = ColumnCursor.stableColumn(
                    of: input, span: span, in: UnsafeBufferPointer(columnY), next: &next, geometry: geometry)
                let height = geometry.itemHeight(input, column: column)
                let bottom = y + height + spacing
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
    /// The start column and y of an item of a stable section: its kept column, or when it has none yet the one the
    /// section's rule chooses; `next` becomes the cursor after it either way.
    @inline(__always)
    static func stableColumn(
        of input: ItemInput, span: Int, in columnY: UnsafeBufferPointer<Double>, next: inout Int,
        geometry: SectionGeometry
    ) -> (column: Int, y: Double) {
        guard !input.needsColumn else {
            return choose(
                in: columnY, next: &next, span: span, placement: geometry.placement, tolerance: geometry.tolerance,
                tieBreak: geometry.tieBreak, spanPlacement: geometry.spanPlacement)
        }
        let kept = stack(in: columnY, kept: input.column, span: span)
        next = (kept.column + span) % columnY.count
        return kept
    }

    /// Where an item that keeps start column `kept` goes: its start, `kept` moved left so that `span` columns fit,
    /// and its y, the lowest next position of those columns.
    @inline(__always)
    static func stack(in columnY: UnsafeBufferPointer<Double>, kept: UInt16, span: Int) -> (column: Int, y: Double) {
        let column = Swift.min(Int(kept), columnY.count - span)
        var y = columnY[column]
        for j in (column + 1)..<(column + span) where columnY[j] > y { y = columnY[j] }
        return (column, y)
    }
}
