import WaterfallModel

/// One item list placed at two widths in one pass: the same items, each width with its own item width and column
/// heights. The placement loop is bound by the chain from one item's column top to the next; the two widths' chains
/// are independent, so in one loop they overlap, and each input is read once.
extension PlacementKernel {
    /// Whether `geometry` places single-column items with the kernel's plain shortest-column loop, which
    /// `placeAtTwoWidths` runs at two widths at once.
    static func placesPlainly(_ geometry: SectionGeometry) -> Bool {
        geometry.stamps.isEmpty && geometry.reflow != .stable && !geometry.lookahead.isActive
            && geometry.placement == .shortest && geometry.shares == nil && geometry.tolerance == 0
            && geometry.tieBreak == .leftmost
    }

    /// Places `inputs[range]` at two widths, whose geometries `geometries` both place plainly
    /// (`placesPlainly`) with the same column count, up to the first item that spans several columns; writes each
    /// width's placement to its output (its column heights to its `columnY`) and returns that item's
    /// index (or the range's end), with each width's count of inexact laid-out heights added to `inexact`.
    ///
    /// Each width's frames are bit for bit those of `place` at that width alone: the same sizing and the same
    /// picker, in the same order.
    static func placeAtTwoWidths<Entries: ColumnEntrySink>(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>,
        geometries: (SectionGeometry, SectionGeometry),
        columnY: (UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>),
        outputs: (KernelOutput<Entries>, KernelOutput<Entries>), inexact: inout (Int, Int)
    ) -> Int {
        let sizing = (HeightSizing(geometries.0), HeightSizing(geometries.1))
        @inline(__always)
        func run<Picker: ShortestColumnPicker>(_ make: (UnsafeMutableBufferPointer<Double>) -> Picker) -> Int {
            placeRun(
                inputs, range, sizing: sizing, pickers: (make(columnY.0), make(columnY.1)), columnY: columnY,
                outputs: outputs, inexact: &inexact)
        }
        switch columnY.0.count {
        case 2:
            return placeTwoColumns(
                inputs, range, sizing: sizing, columnY: columnY, outputs: outputs, inexact: &inexact)
        case 3: return run(ThreeColumns.init)
        case 5: return run(FiveColumns.init)
        case 16...: return run(ColumnHeap.init)
        default: return run(ColumnScan.init)
        }
    }

    // MARK: Private

    /// Two columns at two widths, the widths' column heights side by side in vectors: each pick is a compare and a
    /// blend at both widths at once, where scalar picks at two widths compile to branches that the pattern of
    /// picks, random in a feed, keeps mispredicting. Each lane's arithmetic is `TwoColumns` and `HeightSizing`'s,
    /// operation for operation, so each width's values are bit for bit its own.
    @inline(__always)
    private static func placeTwoColumns<Entries: ColumnEntrySink>(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, sizing: (HeightSizing, HeightSizing),
        columnY: (UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>),
        outputs: (KernelOutput<Entries>, KernelOutput<Entries>), inexact: inout (Int, Int)
    ) -> Int {
        var left = SIMD2(columnY.0[0], columnY.1[0])
        var right = SIMD2(columnY.0[1], columnY.1[1])
        let widths = SIMD2(sizing.0.width, sizing.1.width)
        let scales = SIMD2(sizing.0.scale, sizing.1.scale)
        let spacing = SIMD2(sizing.0.rowSpacing, sizing.1.rowSpacing)
        let snaps = (sizing.0.scale > 0, sizing.1.scale > 0)
        var counts = (0, 0)
        defer {
            inexact.0 &+= counts.0
            inexact.1 &+= counts.1
            columnY.0[0] = left[0]
            columnY.0[1] = right[0]
            columnY.1[0] = left[1]
            columnY.1[1] = right[1]
        }
        for index in range {
            let input = inputs[index]
            if input.span != 1 { return index }
            var height = SIMD2(repeating: input.height)
            if input.aspectWidth > 0 { height = (height * widths) / SIMD2(repeating: input.aspectWidth) }
            if snaps.0 || snaps.1 {
                let snapped = (height * scales).rounded(.toNearestOrAwayFromZero) / scales
                height = SIMD2(snaps.0 ? snapped[0] : height[0], snaps.1 ? snapped[1] : height[1])
            }
            let pickRight = right .< left
            let y = left.replacing(with: right, where: pickRight)
            let next = y + height + spacing
            left = left.replacing(with: next, where: .!pickRight)
            right = right.replacing(with: next, where: pickRight)
            outputs.0.write(index, y: y[0], height: height[0], column: pickRight[0] ? 1 : 0)
            outputs.1.write(index, y: y[1], height: height[1], column: pickRight[1] ? 1 : 0)
            counts.0 &+= Exactness.isExact(height[0]) ? 0 : 1
            counts.1 &+= Exactness.isExact(height[1]) ? 0 : 1
        }
        return range.upperBound
    }

    /// The loop itself, specialized for each picker; each picker's column heights go back to its `columnY` after.
    @inline(__always)
    private static func placeRun<Picker: ShortestColumnPicker, Entries: ColumnEntrySink>(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, sizing: (HeightSizing, HeightSizing),
        pickers: (Picker, Picker), columnY: (UnsafeMutableBufferPointer<Double>, UnsafeMutableBufferPointer<Double>),
        outputs: (KernelOutput<Entries>, KernelOutput<Entries>), inexact: inout (Int, Int)
    ) -> Int {
        var first = pickers.0
        var second = pickers.1
        var counts = (0, 0)
        defer {
            inexact.0 &+= counts.0
            inexact.1 &+= counts.1
            first.store(into: columnY.0)
            second.store(into: columnY.1)
        }
        for index in range {
            let input = inputs[index]
            if !first.isSingleColumn(input) { return index }
            let height0 = sizing.0.height(input)
            let height1 = sizing.1.height(input)
            let (column0, y0) = first.place(height: height0, spacing: sizing.0.rowSpacing)
            let (column1, y1) = second.place(height: height1, spacing: sizing.1.rowSpacing)
            outputs.0.write(index, y: y0, height: height0, column: column0)
            outputs.1.write(index, y: y1, height: height1, column: column1)
            counts.0 &+= Exactness.isExact(height0) ? 0 : 1
            counts.1 &+= Exactness.isExact(height1) ? 0 : 1
        }
        return range.upperBound
    }
}
