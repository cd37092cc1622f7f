import WaterfallModel

/// The shortest column (ties to the leftmost) for the kernel's single-column loop, in the form that is fastest for
/// its column count.
protocol ShortestColumnPicker {
    /// Whether `input` covers one column only (for two and three columns, exactly a span of 1, as 0 is `full`).
    func isSingleColumn(_ input: ItemInput) -> Bool
    /// Picks the shortest column, ties to the leftmost, moves its bottom down to `y + height + spacing` (evaluated
    /// left to right, as the Geometry article does), and returns the column and `y`.
    mutating func place(height: Double, spacing: Double) -> (column: Int, y: Double)
    /// Writes the column heights back to the cursor's buffer, for a picker that holds them in registers.
    func store(into columnY: UnsafeMutableBufferPointer<Double>)
}

extension ShortestColumnPicker {
    /// Pickers that work on the buffer itself have nothing to write back.
    func store(into columnY: UnsafeMutableBufferPointer<Double>) {}
}

/// Two columns, the most common feed, with both heights in registers and no branch on the pick: the loop is then
/// bound by the add chain alone rather than by a store and reload of the column array.
struct TwoColumns: ShortestColumnPicker {
    private var left: Double
    private var right: Double

    init(_ columnY: UnsafeMutableBufferPointer<Double>) {
        left = columnY[0]
        right = columnY[1]
    }

    @inline(__always)
    func isSingleColumn(_ input: ItemInput) -> Bool { input.span == 1 }

    @inline(__always)
    mutating func place(height: Double, spacing: Double) -> (column: Int, y: Double) {
        let pickRight = right < left
        let y = pickRight ? right : left
        let next = y + height + spacing
        left = pickRight ? left : next
        right = pickRight ? next : right
        return (pickRight ? 1 : 0, y)
    }

    func store(into columnY: UnsafeMutableBufferPointer<Double>) {
        columnY[0] = left
        columnY[1] = right
    }
}

/// Three columns the same way: ties to the leftmost, as the strict comparisons keep the earlier column.
struct ThreeColumns: ShortestColumnPicker {
    private var first: Double
    private var second: Double
    private var third: Double

    init(_ columnY: UnsafeMutableBufferPointer<Double>) {
        first = columnY[0]
        second = columnY[1]
        third = columnY[2]
    }

    @inline(__always)
    func isSingleColumn(_ input: ItemInput) -> Bool { input.span == 1 }

    @inline(__always)
    mutating func place(height: Double, spacing: Double) -> (column: Int, y: Double) {
        let secondWins = second < first
        var y = secondWins ? second : first
        var column = secondWins ? 1 : 0
        if third < y {
            y = third
            column = 2
        }
        let next = y + height + spacing
        first = column == 0 ? next : first
        second = column == 1 ? next : second
        third = column == 2 ? next : third
        return (column, y)
    }

    func store(into columnY: UnsafeMutableBufferPointer<Double>) {
        columnY[0] = first
        columnY[1] = second
        columnY[2] = third
    }
}

/// Five columns in registers, picked without a branch: at five, the scan's branches mispredict more on random
/// heights than at any other count near it, so a branch-free pick beats the scan there.
struct FiveColumns: ShortestColumnPicker {
    private var a: Double
    private var b: Double
    private var c: Double
    private var d: Double
    private var e: Double

    init(_ columnY: UnsafeMutableBufferPointer<Double>) {
        a = columnY[0]
        b = columnY[1]
        c = columnY[2]
        d = columnY[3]
        e = columnY[4]
    }

    @inline(__always)
    func isSingleColumn(_ input: ItemInput) -> Bool { input.span(in: 5) == 1 }

    @inline(__always)
    mutating func place(height: Double, spacing: Double) -> (column: Int, y: Double) {
        // A tournament: the left wins ties at every step, so the leftmost shortest column wins.
        let abRight = b < a
        let ab = abRight ? b : a
        let abColumn = abRight ? 1 : 0
        let cdRight = d < c
        let cd = cdRight ? d : c
        let cdColumn = cdRight ? 3 : 2
        let abcdRight = cd < ab
        var y = abcdRight ? cd : ab
        var column = abcdRight ? cdColumn : abColumn
        let eWins = e < y
        y = eWins ? e : y
        column = eWins ? 4 : column
        let next = y + height + spacing
        a = column == 0 ? next : a
        b = column == 1 ? next : b
        c = column == 2 ? next : c
        d = column == 3 ? next : d
        e = column == 4 ? next : e
        return (column, y)
    }

    func store(into columnY: UnsafeMutableBufferPointer<Double>) {
        columnY[0] = a
        columnY[1] = b
        columnY[2] = c
        columnY[3] = d
        columnY[4] = e
    }
}

/// Up to 15 columns: a scan, cheaper than a heap's bookkeeping at these counts.
struct ColumnScan: ShortestColumnPicker {
    private let columnY: UnsafeMutableBufferPointer<Double>

    init(_ columnY: UnsafeMutableBufferPointer<Double>) { self.columnY = columnY }

    @inline(__always)
    func isSingleColumn(_ input: ItemInput) -> Bool { input.span(in: columnY.count) == 1 }

    @inline(__always)
    func place(height: Double, spacing: Double) -> (column: Int, y: Double) {
        var column = 0
        var y = columnY[0]
        for j in 1..<columnY.count where columnY[j] < y {
            y = columnY[j]
            column = j
        }
        columnY[column] = y + height + spacing
        return (column, y)
    }
}

/// A binary min-heap of columns by (y, index) over the cursor's column heights: the shortest column, ties to the
/// leftmost, in O(log columns).
struct ColumnHeap: ShortestColumnPicker {
    private let columnY: UnsafeMutableBufferPointer<Double>
    private var order: [Int]

    init(_ columnY: UnsafeMutableBufferPointer<Double>) {
        self.columnY = columnY
        order = Array(columnY.indices)
        for k in stride(from: order.count / 2 - 1, through: 0, by: -1) { siftDown(k) }
    }

    @inline(__always)
    func isSingleColumn(_ input: ItemInput) -> Bool { input.span(in: columnY.count) == 1 }

    /// The top's new bottom is never higher than its old one, so one sift down restores the heap.
    @inline(__always)
    mutating func place(height: Double, spacing: Double) -> (column: Int, y: Double) {
        let column = order[0]
        let y = columnY[column]
        columnY[column] = y + height + spacing
        siftDown(0)
        return (column, y)
    }

    @inline(__always)
    private mutating func siftDown(_ start: Int) {
        let columnY = self.columnY
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
