extension PlacementKernel {
    /// Places `inputs[range]` window by window (the Geometry article, "Gaps filled by lookahead"): each window of
    /// `lookahead.items` items in the order `LookaheadSearch` picks, writing the items in that order so that every
    /// column's index entries stay in y order. `range` starts at a window and ends at one or at the section's end.
    ///
    /// Out of line: the plain kernel pays one branch per call for it, none per item.
    ///
    /// - Complexity: O(n × columns × orders weighed per window).
    @inline(never)
    static func placeLookahead<Entries: ColumnEntrySink>(
        _ inputs: UnsafeBufferPointer<ItemInput>, _ range: Range<Int>, geometry: SectionGeometry,
        cursor: inout ColumnCursor, output: KernelOutput<Entries>
    ) -> Int {
        let k = geometry.lookahead.items
        assert(range.lowerBound % k == 0, "a lookahead run starts inside a window")
        assert(range.upperBound % k == 0 || range.upperBound == inputs.count, "a lookahead run ends inside a window")
        var search = LookaheadSearch(geometry: geometry)
        var inexact = 0
        cursor.columnY.withUnsafeMutableBufferPointer { columnY in
            var start = range.lowerBound
            while start < range.upperBound {
                let window = start..<min(range.upperBound, start + k)
                let order = search.bestOrder(of: inputs, window, columnY: UnsafeBufferPointer(columnY))
                for position in order {
                    let index = window.lowerBound + position
                    let placed = search.place(inputs[index], in: columnY)
                    output.write(index, y: placed.y, height: placed.height, column: placed.column, span: placed.span)
                    inexact &+= Exactness.isExact(placed.height) ? 0 : 1
                }
                start = window.upperBound
            }
        }
        return inexact
    }
}

/// The bounded search for a window's order: the permutations of its positions in lexicographic order, the identity
/// first, at most `limit` of them, the first with strictly least whitespace winning.
///
/// Depth first, so a prefix shared by many orders is placed once. A prefix whose whitespace already reaches the best
/// is not placed further: whitespace only grows, so none of its orders can win, and they count as weighed all the
/// same, which keeps the winner that of weighing the first `limit` orders one by one.
struct LookaheadSearch {
    let geometry: SectionGeometry
    private let columns: Int
    /// The column tops before each depth of the search, `columns` per depth.
    private var levels: [Double]
    private var used = [Bool](repeating: false, count: Lookahead.maxItems)
    private var current = [Int](repeating: 0, count: Lookahead.maxItems)
    private var best = [Int](repeating: 0, count: Lookahead.maxItems)
    private var bestWhitespace = Double.infinity
    private var weighed = 0
    private var heights = [Double](repeating: 0, count: Lookahead.maxItems)
    private var spans = [Int](repeating: 0, count: Lookahead.maxItems)

    // MARK: Lifecycle

    init(geometry: SectionGeometry) {
        self.geometry = geometry
        columns = geometry.columnCount
        levels = [Double](repeating: 0, count: (Lookahead.maxItems + 1) * geometry.columnCount)
    }

    // MARK: Internal

    /// Places one item by the section's ordinary rule on `columnY`: its column, y, laid-out height and span.
    @inline(__always)
    func place(
        _ input: ItemInput, in columnY: UnsafeMutableBufferPointer<Double>
    ) -> (column: Int, y: Double, height: Double, span: Int) {
        let span = input.span(in: columns)
        // Lookahead goes with equal columns only: an item is as tall in every start.
        let height = geometry.itemHeight(input, column: 0)
        var next = 0
        let (column, y) = ColumnCursor.choose(
            in: UnsafeBufferPointer(columnY), next: &next, span: span, placement: geometry.placement,
            tolerance: geometry.tolerance, tieBreak: geometry.tieBreak, spanPlacement: geometry.spanPlacement)
        let bottom = y + height + geometry.rowSpacing
        for j in column..<(column + span) { columnY[j] = bottom }
        return (column, y, height, span)
    }

    /// The winning order of `window` (positions within it, in placement order) from the column tops `columnY`.
    ///
    /// - Complexity: O(orders weighed × window × columns).
    mutating func bestOrder(
        of inputs: UnsafeBufferPointer<ItemInput>, _ window: Range<Int>, columnY: UnsafeBufferPointer<Double>
    ) -> ArraySlice<Int> {
        let m = window.count
        for position in 0..<m {
            let input = inputs[window.lowerBound + position]
            heights[position] = geometry.itemHeight(input, column: 0)
            spans[position] = input.span(in: columns)
            used[position] = false
            best[position] = position
        }
        guard m > 1 else { return best[..<m] }
        bestWhitespace = .infinity
        weighed = 0
        // Taken out while the search writes it, so that the search may mutate the rest of `self`.
        var levels = self.levels
        self.levels = []
        levels.withUnsafeMutableBufferPointer { levels in
            for j in 0..<columns { levels[j] = columnY[j] }
            search(depth: 0, of: m, whitespace: 0, levels: levels)
        }
        self.levels = levels
        return best[..<m]
    }

    // MARK: Private

    /// Weighs the orders that begin with `current[..<depth]`, whose items leave `whitespace` and the column tops at
    /// level `depth`.
    private mutating func search(
        depth: Int, of m: Int, whitespace: Double, levels: UnsafeMutableBufferPointer<Double>
    ) {
        if depth == m {
            weighed += 1
            if whitespace < bestWhitespace {
                bestWhitespace = whitespace
                for k in 0..<m { best[k] = current[k] }
            }
            return
        }
        if whitespace >= bestWhitespace {
            weighed += Self.factorials[m - depth]
            return
        }
        let from = depth * columns
        let to = from + columns
        for position in 0..<m where !used[position] {
            guard weighed < geometry.lookahead.limit else { return }
            for j in 0..<columns { levels[to + j] = levels[from + j] }
            let tops = UnsafeMutableBufferPointer(rebasing: levels[to..<(to + columns)])
            var next = 0
            let span = spans[position]
            let (column, y) = ColumnCursor.choose(
                in: UnsafeBufferPointer(tops), next: &next, span: span, placement: geometry.placement,
                tolerance: geometry.tolerance, tieBreak: geometry.tieBreak, spanPlacement: geometry.spanPlacement)
            var sum = whitespace
            for j in column..<(column + span) { sum += y - tops[j] }
            let bottom = y + heights[position] + geometry.rowSpacing
            for j in column..<(column + span) { tops[j] = bottom }
            used[position] = true
            current[depth] = position
            search(depth: depth + 1, of: m, whitespace: sum, levels: levels)
            used[position] = false
        }
    }

    /// `factorials[n]` is n!, for n up to `Lookahead.maxItems`.
    private static let factorials = [1, 1, 2, 6, 24, 120, 720, 5040, 40320]
}
