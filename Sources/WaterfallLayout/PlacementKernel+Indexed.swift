import WaterfallModel

extension PlacementKernel {
    /// Places `inputs[range]` and appends each item's index to `lists[column]` of every column it covers; returns
    /// how many laid-out heights were not exact.
    ///
    /// Item `index` is written at `ys[index - offset]`, `heights[index - offset]` and `columns[index - offset]`.
    /// `exact` sizes lists that must grow at the end of the range exactly (a whole section's index, built once),
    /// rather than by doubling (a list that keeps growing).
    /// Up to 64 columns (and under lookahead at any count) the kernel writes the entries itself, chunk by chunk into
    /// scratch lists that stay in cache; wider sections append them from the placed columns afterwards.
    ///
    /// - Complexity: that of `place`, plus O(entries).
    static func placeIndexed(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, geometry: SectionGeometry,
        cursor: inout ColumnCursor, ys: UnsafeMutablePointer<Double>, heights: UnsafeMutablePointer<Double>,
        columns: ColumnOutput, offset: Int = 0, lists: inout [ContiguousArray<Int32>], exact: Bool = false,
        scratch: inout PlacementScratch
    ) -> Int {
        var none: [ContiguousArray<Double>]? = nil
        return placeIndexed(
            inputs, range, geometry: geometry, cursor: &cursor, ys: ys, heights: heights, columns: columns,
            offset: offset, lists: &lists, samples: &none, exact: exact, scratch: &scratch)
    }

    /// `placeIndexed`, also appending to `samples` (one list per column, in step with `lists`) the samples that
    /// the new entries are due for (see `SectionState.columnSamples`).
    static func placeIndexed(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, geometry: SectionGeometry,
        cursor: inout ColumnCursor, ys: UnsafeMutablePointer<Double>, heights: UnsafeMutablePointer<Double>,
        columns: ColumnOutput, offset: Int = 0, lists: inout [ContiguousArray<Int32>],
        samples: inout [ContiguousArray<Double>]?, exact: Bool, scratch: inout PlacementScratch
    ) -> Int {
        // Indexed by item index, as the kernel's outputs are.
        let itemYs = UnsafePointer(ys - offset)
        let c = geometry.columnCount
        // Lookahead places a window's items out of index order: only the kernel's own entries, written as it
        // places them, keep each list in y order.
        guard c <= ColumnEntries.maxColumns || geometry.lookahead.isActive else {
            let output = KernelOutput(
                ys: ys, heights: heights, columns: columns, entries: NoColumnEntries(), offset: offset)
            let inexact = place(inputs, range, geometry: geometry, cursor: &cursor, output: output)
            for index in range {
                let column = output.columns.get(index)
                for j in column..<(column + inputs[index].span(in: c)) {
                    lists[j].append(Int32(truncatingIfNeeded: index))
                }
            }
            if samples != nil {
                for j in 0..<c {
                    lists[j].withUnsafeBufferPointer { list in
                        SectionState.appendSamples(&samples![j], of: list, at: 0, ys: itemYs)
                    }
                }
            }
            return inexact
        }
        return ColumnEntries.withScratch(columnCount: c, items: range.count, scratch: &scratch) { entries in
            let output = KernelOutput(ys: ys, heights: heights, columns: columns, entries: entries, offset: offset)
            var inexact = 0
            // Chunks end at windows, which are placed whole.
            let k = geometry.lookahead.isActive ? geometry.lookahead.items : 1
            let chunk = entries.capacity >= range.count ? entries.capacity : entries.capacity - entries.capacity % k
            var start = range.lowerBound
            while start < range.upperBound {
                let end = min(range.upperBound, start + chunk)
                inexact += place(inputs, start..<end, geometry: geometry, cursor: &cursor, output: output)
                entries.flush(into: &lists, last: exact && end == range.upperBound, samples: &samples, ys: itemYs)
                start = end
            }
            return inexact
        }
    }

}
