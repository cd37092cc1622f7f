/// The placement loop over raw buffers: the engine's hot path.
///
/// Separate from `ColumnCursor` so the common case (shortest column, no tolerance, single-column items) runs as a
/// plain scan over a buffer with nothing else in the loop, or, from 16 columns on, as a min-heap so that an item
/// does not scan every column (FIELD-NOTES: the heap wins from about 12–16 columns).
enum PlacementKernel {
    /// Places `inputs[range]`, writing each item's y, laid-out height and column at its index minus
    /// `outputOffset`; returns how many laid-out heights were not exact.
    ///
    /// - Complexity: O(n × columns), or O(n × log columns) with the heap.
    static func place(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, geometry: SectionGeometry,
        cursor: inout ColumnCursor, ys: UnsafeMutablePointer<Double>, heights: UnsafeMutablePointer<Double>,
        columns: ColumnOutput, outputOffset: Int = 0
    ) -> Int {
        // Index the outputs by item index: pointers moved back by the offset are only ever used inside the range.
        let ys = ys - outputOffset
        let heights = heights - outputOffset
        let columns = columns.shifted(by: outputOffset)
        let c = geometry.columnCount
        let rowSpacing = geometry.rowSpacing
        let simple = geometry.placement == .shortest && geometry.tolerance == 0
        var inexact = 0
        if simple && c >= 16 && range.allSatisfy({ inputs[$0].span(in: c) == 1 }) {
            var heap = ColumnHeap(cursor.columnY)
            for index in range {
                let height = geometry.itemHeight(inputs[index])
                let (column, y) = heap.top
                heap.replaceTop(y + height + rowSpacing)
                ys[index] = y
                heights[index] = height
                columns.set(index, column)
                if !Exactness.isExact(height) { inexact += 1 }
            }
            cursor.columnY = heap.columnY
            return inexact
        }
        if simple && range.allSatisfy({ inputs[$0].span(in: c) == 1 }) {
            return cursor.columnY.withUnsafeMutableBufferPointer { columnY in
                placeSingleColumnItems(
                    inputs, range, geometry: geometry, columnY: columnY, ys: ys, heights: heights, columns: columns)
            }
        }
        var next = cursor.next
        defer { cursor.next = next }
        cursor.columnY.withUnsafeMutableBufferPointer { columnY in
            for index in range {
                let input = inputs[index]
                let span = input.span(in: c)
                let height = geometry.itemHeight(input)
                var column = 0
                var y = columnY[0]
                if simple && span == 1 {
                    for j in 1..<c where columnY[j] < y {
                        y = columnY[j]
                        column = j
                    }
                    columnY[column] = y + height + rowSpacing
                } else {
                    (column, y) = ColumnCursor.choose(
                        in: UnsafeBufferPointer(columnY), next: &next, span: span, placement: geometry.placement,
                        tolerance: geometry.tolerance)
                    let bottom = y + height + rowSpacing
                    for j in column..<(column + span) { columnY[j] = bottom }
                }
                ys[index] = y
                heights[index] = height
                columns.set(index, column)
                if !Exactness.isExact(height) { inexact += 1 }
            }
        }
        return inexact
    }

    /// The common case as its own loop: shortest column, no tolerance, every item one column wide.
    @inline(__always)
    private static func placeSingleColumnItems(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, geometry: SectionGeometry,
        columnY: UnsafeMutableBufferPointer<Double>, ys: UnsafeMutablePointer<Double>,
        heights: UnsafeMutablePointer<Double>, columns: ColumnOutput
    ) -> Int {
        let c = columnY.count
        let rowSpacing = geometry.rowSpacing
        let width = geometry.itemWidth(span: 1)
        let scale = geometry.scale
        var inexact = 0
        if c == 2 {
            // Two columns, the most common feed, with both heights in registers and no branch on the pick: the
            // loop is then bound by the add chain alone rather than by a store and reload of the column array.
            var left = columnY[0]
            var right = columnY[1]
            for index in range {
                let input = inputs[index]
                var height = input.height
                if input.aspectWidth > 0 { height = (input.height * width) / input.aspectWidth }
                if scale > 0 { height = (height * scale).rounded() / scale }
                let pickRight = right < left
                let y = pickRight ? right : left
                let next = y + height + rowSpacing
                left = pickRight ? left : next
                right = pickRight ? next : right
                ys[index] = y
                heights[index] = height
                columns.set(index, pickRight ? 1 : 0)
                inexact &+= Exactness.isExact(height) ? 0 : 1
            }
            columnY[0] = left
            columnY[1] = right
            return inexact
        }
        if c == 3 {
            // Three columns the same way: ties to the leftmost, as the strict comparisons keep the earlier column.
            var first = columnY[0]
            var second = columnY[1]
            var third = columnY[2]
            for index in range {
                let input = inputs[index]
                var height = input.height
                if input.aspectWidth > 0 { height = (input.height * width) / input.aspectWidth }
                if scale > 0 { height = (height * scale).rounded() / scale }
                let secondWins = second < first
                var y = secondWins ? second : first
                var column = secondWins ? 1 : 0
                if third < y {
                    y = third
                    column = 2
                }
                let next = y + height + rowSpacing
                first = column == 0 ? next : first
                second = column == 1 ? next : second
                third = column == 2 ? next : third
                ys[index] = y
                heights[index] = height
                columns.set(index, column)
                inexact &+= Exactness.isExact(height) ? 0 : 1
            }
            columnY[0] = first
            columnY[1] = second
            columnY[2] = third
            return inexact
        }
        for index in range {
            let input = inputs[index]
            var height = input.height
            if input.aspectWidth > 0 { height = (input.height * width) / input.aspectWidth }
            if scale > 0 { height = (height * scale).rounded() / scale }
            var column = 0
            var y = columnY[0]
            for j in 1..<c where columnY[j] < y {
                y = columnY[j]
                column = j
            }
            columnY[column] = y + height + rowSpacing
            ys[index] = y
            heights[index] = height
            columns.set(index, column)
            inexact &+= Exactness.isExact(height) ? 0 : 1
        }
        return inexact
    }

    /// Fills the per-column index lists of items `0 ..< count` by a counting sort, reusing the lists' storage,
    /// rather than appending to nested arrays item by item.
    ///
    /// - Complexity: O(n + columns).
    static func fillColumnLists(
        _ lists: inout [ContiguousArray<Int32>], inputs: UnsafeBufferPointer<ItemInput>, columnCount c: Int
    ) {
        var starts = [Int](repeating: 0, count: c + 1)
        var spanning = false
        starts.withUnsafeMutableBufferPointer { starts in
            for index in 0..<inputs.count {
                let span = inputs[index].span(in: c)
                let column = Int(inputs[index].column)
                if span == 1 {
                    starts[column &+ 1] &+= 1
                } else {
                    spanning = true
                    for j in column..<(column + span) { starts[j &+ 1] &+= 1 }
                }
            }
            for j in 0..<c { starts[j + 1] &+= starts[j] }
        }
        let flat = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, starts[c]))
        defer { flat.deallocate() }
        var next = starts
        next.withUnsafeMutableBufferPointer { next in
            for index in 0..<inputs.count {
                let column = Int(inputs[index].column)
                let value = Int32(truncatingIfNeeded: index)
                if !spanning {
                    flat[next[column]] = value
                    next[column] &+= 1
                    continue
                }
                for j in column..<(column + inputs[index].span(in: c)) {
                    flat[next[j]] = value
                    next[j] &+= 1
                }
            }
        }
        if lists.count != c { lists = Array(repeating: [], count: c) }
        for j in 0..<c {
            lists[j].removeAll(keepingCapacity: true)
            lists[j].append(contentsOf: UnsafeBufferPointer(rebasing: flat[starts[j]..<starts[j + 1]]))
        }
    }
}

/// Where the kernel writes each item's column: a plain `UInt16` buffer, or the `column` field of the inputs
/// themselves (a strided write into the line just read, cheaper than a separate array).
struct ColumnOutput {
    private let base: UnsafeMutableRawPointer
    private let stride: Int

    /// Columns written to `buffer[index]`.
    init(_ buffer: UnsafeMutablePointer<UInt16>) {
        base = UnsafeMutableRawPointer(buffer)
        stride = MemoryLayout<UInt16>.stride
    }

    /// Columns written to `inputs[index].column`.
    init(inputs: UnsafeMutablePointer<ItemInput>) {
        base = UnsafeMutableRawPointer(inputs) + MemoryLayout<ItemInput>.offset(of: \.column)!
        stride = MemoryLayout<ItemInput>.stride
    }

    private init(base: UnsafeMutableRawPointer, stride: Int) {
        self.base = base
        self.stride = stride
    }

    /// The same output, indexed `offset` lower (only ever written inside the range it was made for).
    func shifted(by offset: Int) -> ColumnOutput { ColumnOutput(base: base - offset * stride, stride: stride) }

    @inline(__always)
    func set(_ index: Int, _ column: Int) {
        base.storeBytes(of: UInt16(truncatingIfNeeded: column), toByteOffset: index * stride, as: UInt16.self)
    }
}

/// A binary min-heap of columns by (y, index): the shortest column, ties to the leftmost, in O(log columns).
struct ColumnHeap {
    private(set) var columnY: [Double]
    private var order: [Int]

    init(_ columnY: [Double]) {
        self.columnY = columnY
        order = Array(columnY.indices)
        for k in stride(from: order.count / 2 - 1, through: 0, by: -1) { siftDown(k) }
    }

    /// The shortest column and its y.
    @inline(__always)
    var top: (column: Int, y: Double) { (order[0], columnY[order[0]]) }

    /// Sets the shortest column's y to `y` (never lower) and restores the heap.
    @inline(__always)
    mutating func replaceTop(_ y: Double) {
        columnY[order[0]] = y
        siftDown(0)
    }

    @inline(__always)
    private mutating func siftDown(_ start: Int) {
        columnY.withUnsafeBufferPointer { columnY in
            order.withUnsafeMutableBufferPointer { order in
                let count = order.count
                var k = start
                let moving = order[k]
                let y = columnY[moving]
                while true {
                    let left = 2 * k + 1
                    guard left < count else { break }
                    var child = left
                    var childIndex = order[left]
                    var childY = columnY[childIndex]
                    if left + 1 < count {
                        let rightIndex = order[left + 1]
                        let rightY = columnY[rightIndex]
                        if rightY < childY || (rightY == childY && rightIndex < childIndex) {
                            child = left + 1
                            childIndex = rightIndex
                            childY = rightY
                        }
                    }
                    guard childY < y || (childY == y && childIndex < moving) else { break }
                    order[k] = childIndex
                    k = child
                }
                order[k] = moving
            }
        }
    }
}
