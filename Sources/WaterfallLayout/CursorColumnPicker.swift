import WaterfallModel

/// The column of `tieBreak: cursor` for the kernel's single-column loop: among the columns within `tolerance` of
/// the shortest, the first at or after the cursor, else the first; then the cursor moves past it. Scanning the
/// columns round from the cursor gives exactly that order.
protocol CursorColumnPicker {
    /// Picks the column, moves its bottom down to `y + height + spacing` and the cursor past it, and returns the
    /// column and `y`.
    mutating func place(height: Double, spacing: Double) -> (column: Int, y: Double)
    /// Writes the column heights back to the buffer and returns the cursor.
    func store(into columnY: UnsafeMutableBufferPointer<Double>) -> Int
}

/// Two columns in registers: with a cursor at 1, the right column wins when it is tied; otherwise the left does
/// when it is tied.
struct CursorTwoColumns: CursorColumnPicker {
    private var left: Double
    private var right: Double
    private var cursorAtRight: Bool
    private let tolerance: Double

    init(_ columnY: UnsafeMutableBufferPointer<Double>, cursor: Int, tolerance: Double) {
        left = columnY[0]
        right = columnY[1]
        cursorAtRight = cursor == 1
        self.tolerance = tolerance
    }

    @inline(__always)
    mutating func place(height: Double, spacing: Double) -> (column: Int, y: Double) {
        let limit = min(left, right) + tolerance
        let leftTied = left <= limit
        let pickRight = right <= limit && (cursorAtRight || !leftTied)
        let y = pickRight ? right : left
        let next = y + height + spacing
        left = pickRight ? left : next
        right = pickRight ? next : right
        cursorAtRight = !pickRight
        return (pickRight ? 1 : 0, y)
    }

    func store(into columnY: UnsafeMutableBufferPointer<Double>) -> Int {
        columnY[0] = left
        columnY[1] = right
        return cursorAtRight ? 1 : 0
    }
}

/// Three columns in registers, the round from the cursor written out.
struct CursorThreeColumns: CursorColumnPicker {
    private var first: Double
    private var second: Double
    private var third: Double
    private var cursor: Int
    private let tolerance: Double

    init(_ columnY: UnsafeMutableBufferPointer<Double>, cursor: Int, tolerance: Double) {
        first = columnY[0]
        second = columnY[1]
        third = columnY[2]
        self.cursor = cursor
        self.tolerance = tolerance
    }

    @inline(__always)
    mutating func place(height: Double, spacing: Double) -> (column: Int, y: Double) {
        let limit = min(first, second, third) + tolerance
        let t0 = first <= limit
        let t1 = second <= limit
        let t2 = third <= limit
        let column: Int
        switch cursor {
        case 0: column = t0 ? 0 : (t1 ? 1 : 2)
        case 1: column = t1 ? 1 : (t2 ? 2 : 0)
        default: column = t2 ? 2 : (t0 ? 0 : 1)
        }
        let y = column == 0 ? first : (column == 1 ? second : third)
        let next = y + height + spacing
        first = column == 0 ? next : first
        second = column == 1 ? next : second
        third = column == 2 ? next : third
        cursor = column == 2 ? 0 : column + 1
        return (column, y)
    }

    func store(into columnY: UnsafeMutableBufferPointer<Double>) -> Int {
        columnY[0] = first
        columnY[1] = second
        columnY[2] = third
        return cursor
    }
}

/// Any column count: the minimum by a scan, then the round from the cursor over the buffer.
struct CursorScan: CursorColumnPicker {
    private let columnY: UnsafeMutableBufferPointer<Double>
    private var cursor: Int
    private let tolerance: Double

    init(_ columnY: UnsafeMutableBufferPointer<Double>, cursor: Int, tolerance: Double) {
        self.columnY = columnY
        self.cursor = cursor
        self.tolerance = tolerance
    }

    @inline(__always)
    mutating func place(height: Double, spacing: Double) -> (column: Int, y: Double) {
        let (column, y) = ColumnCursor.pickAfterCursor(
            in: UnsafeBufferPointer(columnY), cursor: cursor, tolerance: tolerance)
        columnY[column] = y + height + spacing
        cursor = column + 1 == columnY.count ? 0 : column + 1
        return (column, y)
    }

    func store(into columnY: UnsafeMutableBufferPointer<Double>) -> Int { cursor }
}
