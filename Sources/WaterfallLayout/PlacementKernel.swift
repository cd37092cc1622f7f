import WaterfallModel

/// The placement loop over raw buffers: the engine's hot path.
///
/// Separate from `ColumnCursor` so the common case (shortest column, no tolerance, single-column items) runs with
/// nothing else in the loop: in registers for two, three and five columns, as a plain scan over a buffer, or, from
/// 16 columns on, as a min-heap so that an item does not scan every column. Each item is read once: the
/// fast loops stop at the first item spanning several columns (placed by the general rule) rather than checking
/// the whole range first, and the query index is written in the same pass (`ColumnEntrySink`).
enum PlacementKernel {
    /// Places `inputs[range]`, writing each item's y, laid-out height, column and index entries to `output`;
    /// returns how many laid-out heights were not exact.
    ///
    /// - Complexity: O(n × columns), or O(n × log columns) with the heap.
    static func place<Entries: ColumnEntrySink>(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, geometry: SectionGeometry,
        cursor: inout ColumnCursor, output: KernelOutput<Entries>
    ) -> Int {
        if !geometry.stamps.isEmpty {
            return placeStamped(inputs, range, geometry: geometry, cursor: &cursor, output: output)
        }
        if geometry.reflow == .stable {
            return placeStable(inputs, range, geometry: geometry, cursor: &cursor, output: output)
        }
        if geometry.lookahead.isActive {
            return placeLookahead(inputs, range, geometry: geometry, cursor: &cursor, output: output)
        }
        let c = geometry.columnCount
        // The run loops size every item at one column width: columns of different widths take the general loop.
        let shortest = geometry.placement == .shortest && geometry.shares == nil
        let simple = shortest && geometry.tolerance == 0 && geometry.tieBreak == .leftmost
        let cursorRule = shortest && geometry.tieBreak == .cursor
        var inexact = 0
        var next = cursor.next
        cursor.columnY.withUnsafeMutableBufferPointer { columnY in
            var index = range.lowerBound
            while index < range.upperBound {
                if simple {
                    index = placeSingleColumnRun(
                        inputs, index..<range.upperBound, geometry: geometry, columnY: columnY, output: output,
                        inexact: &inexact)
                    guard index < range.upperBound else { break }
                } else if cursorRule {
                    index = placeCursorRun(
                        inputs, index..<range.upperBound, geometry: geometry, columnY: columnY, next: &next,
                        output: output, inexact: &inexact)
                    guard index < range.upperBound else { break }
                }
                let input = inputs[index]
                let span = input.span(in: c)
                let (column, y) = ColumnCursor.choose(
                    in: UnsafeBufferPointer(columnY), next: &next, span: span, placement: geometry.placement,
                    tolerance: geometry.tolerance, tieBreak: geometry.tieBreak, spanPlacement: geometry.spanPlacement)
                let height = geometry.itemHeight(input, column: column)
                let bottom = y + height + geometry.rowSpacing
                for j in column..<(column + span) { columnY[j] = bottom }
                output.write(index, y: y, height: height, column: column, span: span)
                inexact &+= Exactness.isExact(height) ? 0 : 1
                index += 1
            }
        }
        cursor.next = next
        return inexact
    }

    // MARK: Private

    /// Places single-column items from `range.lowerBound` on with the shortest-column rule and no tolerance, up to
    /// the first item that spans several columns; returns that item's index (or the range's end).
    @inline(__always)
    private static func placeSingleColumnRun<Entries: ColumnEntrySink>(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, geometry: SectionGeometry,
        columnY: UnsafeMutableBufferPointer<Double>, output: KernelOutput<Entries>, inexact: inout Int
    ) -> Int {
        let sizing = HeightSizing(geometry)
        @inline(__always)
        func run(_ picker: some ShortestColumnPicker) -> Int {
            placeRun(inputs, range, sizing: sizing, picker: picker, columnY: columnY, output: output, inexact: &inexact)
        }
        switch columnY.count {
        case 2: return run(TwoColumns(columnY))
        case 3: return run(ThreeColumns(columnY))
        case 5: return run(FiveColumns(columnY))
        case 16...: return run(ColumnHeap(columnY))
        default: return run(ColumnScan(columnY))
        }
    }

    /// Places single-column items from `range.lowerBound` on with the shortest-column rule and `tieBreak: cursor`
    /// (any tolerance), up to the first item that spans several columns; returns that item's index (or the range's
    /// end). Kept apart from the leftmost loops, and out of line (called once per run, not per item), so that
    /// it leaves `place`'s code for them untouched.
    @inline(never)
    private static func placeCursorRun<Entries: ColumnEntrySink>(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, geometry: SectionGeometry,
        columnY: UnsafeMutableBufferPointer<Double>, next: inout Int, output: KernelOutput<Entries>,
        inexact: inout Int
    ) -> Int {
        let sizing = HeightSizing(geometry)
        let tolerance = geometry.tolerance
        @inline(__always)
        func run(_ picker: some CursorColumnPicker) -> Int {
            var picker = picker
            let c = columnY.count
            var count = 0
            defer {
                inexact &+= count
                next = picker.store(into: columnY)
            }
            for index in range {
                let input = inputs[index]
                if input.span(in: c) != 1 { return index }
                let height = sizing.height(input)
                let (column, y) = picker.place(height: height, spacing: sizing.rowSpacing)
                output.write(index, y: y, height: height, column: column)
                count &+= Exactness.isExact(height) ? 0 : 1
            }
            return range.upperBound
        }
        switch columnY.count {
        case 2: return run(CursorTwoColumns(columnY, cursor: next, tolerance: tolerance))
        case 3: return run(CursorThreeColumns(columnY, cursor: next, tolerance: tolerance))
        default: return run(CursorScan(columnY, cursor: next, tolerance: tolerance))
        }
    }

    /// The loop itself, specialized for each picker; the picker's column heights go back to `columnY` after it.
    @inline(__always)
    private static func placeRun<Picker: ShortestColumnPicker, Entries: ColumnEntrySink>(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, sizing: HeightSizing, picker: Picker,
        columnY: UnsafeMutableBufferPointer<Double>, output: KernelOutput<Entries>, inexact: inout Int
    ) -> Int {
        var picker = picker
        var count = 0
        defer {
            inexact &+= count
            picker.store(into: columnY)
        }
        for index in range {
            let input = inputs[index]
            if !picker.isSingleColumn(input) { return index }
            let height = sizing.height(input)
            let (column, y) = picker.place(height: height, spacing: sizing.rowSpacing)
            output.write(index, y: y, height: height, column: column)
            count &+= Exactness.isExact(height) ? 0 : 1
        }
        return range.upperBound
    }
}

/// `SectionGeometry.itemHeight` for single-column items, with the geometry's values read once into registers.
struct HeightSizing {
    let width: Double
    let scale: Double
    let rowSpacing: Double

    init(_ geometry: SectionGeometry) {
        width = geometry.itemWidth(span: 1)
        scale = geometry.scale
        rowSpacing = geometry.rowSpacing
    }

    /// Aspect sizing, then pixel snapping, in the Geometry article's order.
    @inline(__always)
    func height(_ input: ItemInput) -> Double {
        var height = input.height
        if input.aspectWidth > 0 { height = (input.height * width) / input.aspectWidth }
        if scale > 0 { height = (height * scale).rounded() / scale }
        return height
    }
}
