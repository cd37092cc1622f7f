import WaterfallLayout

/// A deliberately simple layout written straight from the Geometry article: a list of sections, every command applied to plain
/// arrays, every layout computed from scratch. The engine must agree with it bit for bit.
///
/// It evaluates in the engine's order: positions are computed relative to the section's origin and then added to it
/// (Geometry, "Arithmetic"), which is how the engine can move a section without placing it again.
///
/// A horizontal layout (Geometry, "Horizontal feeds") is computed here along its own axes, every frame on screen:
/// each section's rows run across y and its items along x, an aspect item `{w, h}` being its row's height × w / h
/// long; under rtl the feed runs from x = 0 toward −x. A section's `origin`, `height` and `pinMaxY` are then its
/// left edge, its width and its header's `pinMaxX` (`pinMinX` under rtl).
package struct ReferenceLayout: Sendable {
    package var spec: LayoutSpec
    package var columnLimit: Int

    package init(_ spec: LayoutSpec, columnLimit: Int = 1024) {
        self.spec = spec
        self.columnLimit = columnLimit
        settleColumns()
    }

    /// The frames of one section, as the reference computes them.
    package struct Section: Sendable, Equatable {
        package var origin: Double
        package var height: Double
        package var header: Rect?
        /// A pinned header's `pinMaxY`.
        package var pinMaxY: Double?
        package var footer: Rect?
        package var items: [Rect]
        package var ids: [String?]
        /// Each item's start column.
        package var columns: [Int]
        /// How many columns each item covers.
        package var spans: [Int]
        /// Each item's top and height along the feed relative to the section's start, as placement computed them.
        package var tops: [Double]
        package var lengths: [Double]
        /// The header's and footer's tops along the feed relative to the section's start.
        package var headerTop: Double?
        package var footerTop: Double?
        /// Each stamp's frame on screen, by index (Geometry, "Stamps").
        package var stamps: [Rect]
        /// Each stamp's top along the feed relative to the section's start.
        package var stampTops: [Double]
        /// How far each item's leading edge is from the start of the feed: its y, or in a horizontal layout its
        /// left edge's x, or under rtl minus its right edge's x (what an anchor's move is measured by).
        package var leads: [Double]
    }

    /// Lays everything out from scratch.
    package func layout() -> (sections: [Section], contentHeight: Double) {
        var origin = 0.0
        var result: [Section] = []
        for section in spec.sections {
            let placed = place(section, origin: origin)
            result.append(placed)
            origin += placed.height
        }
        return (result, max(origin, spec.minContentHeight))
    }

    /// The column width a section would get, to tell whether a command is valid.
    package func columnWidth(_ own: SectionProperties) -> Double {
        Resolved(own, spec.defaults, spec, columnLimit).columnWidth
    }

    /// Whether every stamp of a section lies within its columns.
    package func stampsFit(_ own: SectionProperties) -> Bool {
        let r = Resolved(own, spec.defaults, spec, columnLimit)
        // Stamps need equal columns (Geometry, "Stamps"): with columnWidths they are refused.
        return r.stamps.allSatisfy { $0.column + $0.span <= r.columns } && (r.stamps.isEmpty || r.widths == nil)
    }

    /// Whether a section's `columnWidths`, if any, fit its columns: a fixed count with one weight per column.
    package func weightsFit(_ own: SectionProperties) -> Bool {
        guard own.columnWidths ?? spec.defaults.columnWidths != nil else { return true }
        return Resolved(own, spec.defaults, spec, columnLimit).widths != nil
    }

    /// Whether a section would combine lookahead with a rule it cannot go with (Geometry, "Gaps filled by
    /// lookahead": round robin, `tieBreak: cursor`, stable reflow).
    func refusesLookahead(_ own: SectionProperties) -> Bool {
        let r = Resolved(own, spec.defaults, spec, columnLimit)
        guard r.lookahead.items > 1 && r.lookahead.limit > 1 else { return false }
        return r.placement == .next || r.tieBreak == .cursor || r.reflow == .stable || !r.stamps.isEmpty
            || (own.columnWidths ?? spec.defaults.columnWidths) != nil
    }

    /// What decides a section's columns: the reflow, the column count and the rule (Geometry, "Stable reflow": a
    /// stable section whose key changes chooses its columns again).
    func columnKey(_ own: SectionProperties) -> ColumnKey {
        let r = Resolved(own, spec.defaults, spec, columnLimit)
        return ColumnKey(
            reflow: r.reflow, columns: r.columns, placement: r.placement, tolerance: r.tolerance, tieBreak: r.tieBreak,
            spanPlacement: r.spanPlacement)
    }

    struct ColumnKey: Equatable {
        var reflow: Reflow
        var columns: Int
        var placement: Placement
        var tolerance: Double
        var tieBreak: TieBreak
        var spanPlacement: SpanPlacement
    }

    /// After each command: a stable section keeps, on each item, the column it was placed in (chosen now for the
    /// items that had none); other sections keep none.
    mutating func settleColumns() {
        for s in spec.sections.indices {
            let stable = columnKey(spec.sections[s].properties).reflow == .stable
            let columns = stable ? place(spec.sections[s], origin: 0).columns : []
            for k in spec.sections[s].items.indices { spec.sections[s].items[k].column = stable ? columns[k] : nil }
        }
    }

    // MARK: Private

    private func place(_ section: SectionSpec, origin: Double) -> Section {
        let r = Resolved(section.properties, spec.defaults, spec, columnLimit)
        let width = spec.width
        let horizontal = spec.axis == .horizontal
        let towardMinusX = horizontal && spec.direction == .rtl
        // Below, `x`/`w` run across the feed and `y`/`h` along it; `screen` puts such a local frame where it shows.
        func mirror(_ frame: Rect) -> Rect {
            spec.direction == .rtl && !horizontal
                ? Rect(x: width - frame.x - frame.width, y: frame.y, width: frame.width, height: frame.height) : frame
        }
        func screen(_ local: Rect) -> Rect {
            let frame = mirror(local)
            let along = origin + frame.y
            guard horizontal else { return Rect(x: frame.x, y: along, width: frame.width, height: frame.height) }
            let x = towardMinusX ? -(along + frame.height) : along
            return Rect(x: x == 0 ? 0 : x, y: frame.x, width: frame.height, height: frame.width)
        }
        var header: Rect?
        var headerBlock = 0.0
        if r.headerHeight > 0 {
            header = Rect(
                x: r.headerInsets.left, y: r.headerInsets.top,
                width: width - r.headerInsets.left - r.headerInsets.right, height: r.headerHeight)
            headerBlock = r.headerInsets.top + r.headerHeight + r.headerInsets.bottom
        }
        let top = headerBlock + r.insets.top
        let c = r.columns
        var colY = [Double](repeating: top, count: c)
        var cursor = 0
        var tieCursor = 0
        var itemsBottom = top
        let count = section.items.count
        var frames = [Rect](repeating: Rect(x: 0, y: 0, width: 0, height: 0), count: count)
        var columns = [Int](repeating: 0, count: count)
        var spans = [Int](repeating: 0, count: count)
        // Geometry, "Stamps": each stamp's columns and its top and bottom in the section.
        let stamps = r.stamps.map { (columns: $0.column..<($0.column + $0.span), top: top + $0.y, height: $0.height) }
        for stamp in stamps { itemsBottom = max(itemsBottom, stamp.top + stamp.height) }
        /// The least top from `t` on where an item `h` long in columns `cols` keeps `rowSpacing` from every stamp
        /// there: moved below any stamp it overlaps until none is left.
        func clear(_ t: Double, _ h: Double, _ cols: Range<Int>) -> Double {
            var t = t
            var moved = true
            while moved {
                moved = false
                for stamp in stamps where stamp.columns.overlaps(cols) {
                    let below = stamp.top + stamp.height + r.rowSpacing
                    if t + h + r.rowSpacing > stamp.top && t < below {
                        t = below
                        moved = true
                    }
                }
            }
            return t
        }
        // Places item `i` on `colY` and adds the whitespace it leaves above its columns to `whitespace`.
        func place(_ i: Int, _ whitespace: inout Double) {
            let item = section.items[i]
            var s: Int
            switch item.span {
            case .full: s = c
            case .columns(let n): s = min(n, c)
            }
            s = max(1, s)
            var w = Double(s) * r.columnWidth + Double(s - 1) * r.columnSpacing
            var h = item.height
            // Along y the picture's height at width w; along x its width at height w.
            if let aw = item.aspectWidth { h = horizontal ? (aw * w) / item.height : (item.height * w) / aw }
            if spec.scale > 0 { h = (h * spec.scale).rounded(.toNearestOrAwayFromZero) / spec.scale }
            var j = 0
            if r.reflow == .stable, let kept = item.column {
                // Geometry, "Stable reflow": a kept column, moved left as far as the span needs.
                j = min(kept, c - s)
                cursor = (j + s) % c
                tieCursor = j + s
            } else if r.placement == .shortest {
                var cands: [Double] = []
                for start in 0...(c - s) {
                    cands.append(clear(colY[start..<(start + s)].max()!, h, start..<(start + s)))
                }
                let m = cands.min()!
                var tied = cands.indices.filter { cands[$0] <= m + r.tolerance }
                if s > 1 && r.spanPlacement == .leastWhitespace {
                    // Geometry, "Spans placed by whitespace": least Σ (top − column), then lowest top.
                    let wastes = cands.indices.map { start in
                        (start..<(start + s)).reduce(0.0) { $0 + (cands[start] - colY[$1]) }
                    }
                    let least = cands.indices.map { (wastes[$0], cands[$0]) }.min { $0 < $1 }!
                    tied = cands.indices.filter { (wastes[$0], cands[$0]) == least }
                }
                if r.tieBreak == .cursor {
                    // CSS grid-lanes: the smallest tied start at or after the cursor, else the smallest tied one.
                    j = tied.first { $0 >= tieCursor } ?? tied[0]
                    tieCursor = j + s
                } else {
                    j = tied[0]
                }
            } else {
                if cursor + s > c { cursor = 0 }
                j = cursor
                cursor = (j + s) % c
            }
            // Stamps never go with columnWidths (refused), so clearing with the equal columns' height is exact.
            let y = clear(colY[j..<(j + s)].max()!, h, j..<(j + s))
            for k in j..<(j + s) { whitespace += y - colY[k] }
            var x = r.insets.left + Double(j) * (r.columnWidth + r.columnSpacing)
            if let widths = r.widths {
                // Geometry, "Columns of different widths": x the widths and spacings before, w the covered widths
                // plus the spacings between them, each summed left to right.
                x = r.insets.left
                for k in 0..<j { x = x + widths[k] + r.columnSpacing }
                w = widths[j..<(j + s)].reduce(0, +) + Double(s - 1) * r.columnSpacing
                h = item.height
                // Along y the picture's height at width w; along x its width at height w.
                if let aw = item.aspectWidth { h = horizontal ? (aw * w) / item.height : (item.height * w) / aw }
                if spec.scale > 0 { h = (h * spec.scale).rounded(.toNearestOrAwayFromZero) / spec.scale }
            }
            for k in j..<(j + s) { colY[k] = y + h + r.rowSpacing }
            frames[i] = Rect(x: x, y: y, width: w, height: h)
            columns[i] = j
            spans[i] = s
            itemsBottom = max(itemsBottom, y + h)
        }
        // Geometry, "Gaps filled by lookahead": windows of k by index, each in the first of the first `limit`
        // orders (lexicographic) with the least whitespace, found by placing every order in full.
        let k = r.lookahead.items > 1 && r.lookahead.limit > 1 ? r.lookahead.items : 1
        for first in stride(from: 0, to: count, by: k) {
            let window = Array(first..<min(count, first + k))
            var ignored = 0.0
            guard window.count > 1 else {
                place(first, &ignored)
                continue
            }
            var order = window
            var best = window
            var least = Double.infinity
            var tried = 0
            let saved = (colY, itemsBottom)
            repeat {
                var whitespace = 0.0
                for i in order { place(i, &whitespace) }
                (colY, itemsBottom) = saved
                if whitespace < least { (least, best) = (whitespace, order) }
                tried += 1
            } while tried < r.lookahead.limit && Self.permuteForward(&order)
            for i in best { place(i, &ignored) }
        }
        var footer: Rect?
        var footerBlock = 0.0
        if r.footerHeight > 0 {
            footer = Rect(
                x: r.footerInsets.left, y: itemsBottom + r.insets.bottom + r.footerInsets.top,
                width: width - r.footerInsets.left - r.footerInsets.right, height: r.footerHeight)
            footerBlock = r.footerInsets.top + r.footerHeight + r.footerInsets.bottom
        }
        let bottom = itemsBottom + r.insets.bottom + footerBlock
        // Geometry, "Pinned headers": max(header.y, itemsBottom + insets.bottom - headerHeight), local, then + origin.
        var pinMaxY: Double?
        if r.pinHeader, let header {
            pinMaxY = origin + max(header.y, itemsBottom + r.insets.bottom - r.headerHeight)
            // Under rtl the header's left edge is bounded from below: it stops where its right edge, moving left,
            // is as far as a vertical header's top could go.
            if towardMinusX, let bound = pinMaxY {
                let x = -(bound + r.headerHeight)
                pinMaxY = x == 0 ? 0 : x
            }
        }
        var start = origin
        if towardMinusX {
            start = -(origin + bottom)
            if start == 0 { start = 0 }
        }
        let stampFrames = stamps.map { stamp in
            let s = stamp.columns.count
            return Rect(
                x: r.insets.left + Double(stamp.columns.lowerBound) * (r.columnWidth + r.columnSpacing), y: stamp.top,
                width: Double(s) * r.columnWidth + Double(s - 1) * r.columnSpacing, height: stamp.height)
        }
        return Section(
            origin: start, height: bottom, header: header.map(screen), pinMaxY: pinMaxY, footer: footer.map(screen),
            items: frames.map(screen), ids: section.items.map(\.id), columns: columns, spans: spans,
            tops: frames.map(\.y), lengths: frames.map(\.height), headerTop: header?.y, footerTop: footer?.y,
            stamps: stampFrames.map(screen), stampTops: stamps.map(\.top), leads: frames.map { origin + $0.y })
    }
}

extension ReferenceLayout {
    /// The next permutation of `order` in lexicographic order; false (leaving it as it was) after the last.
    static func permuteForward(_ order: inout [Int]) -> Bool {
        guard var i = order.indices.dropLast().last(where: { order[$0] < order[$0 + 1] }) else { return false }
        var j = order.count - 1
        while order[j] <= order[i] { j -= 1 }
        order.swapAt(i, j)
        i += 1
        order[i...].reverse()
        return true
    }
}

/// The Geometry article's property resolution ("Where a property comes from"), written out on its own.
private struct Resolved {
    var columns: Int
    var columnWidth: Double
    var columnSpacing: Double
    var rowSpacing: Double
    var insets: Insets
    var headerHeight: Double
    var footerHeight: Double
    var headerInsets: Insets
    var footerInsets: Insets
    var placement: Placement
    var tolerance: Double
    var tieBreak: TieBreak
    var spanPlacement: SpanPlacement
    var stamps: [Stamp]
    var lookahead: Lookahead
    var pinHeader: Bool
    var reflow: Reflow
    /// Each column's width under `columnWidths`; nil for equal columns.
    var widths: [Double]?

    init(_ own: SectionProperties, _ defaults: SectionProperties, _ spec: LayoutSpec, _ columnLimit: Int) {
        columnSpacing = own.columnSpacing ?? defaults.columnSpacing ?? 10
        rowSpacing = own.rowSpacing ?? defaults.rowSpacing ?? 10
        insets = own.insets ?? defaults.insets ?? .zero
        headerHeight = own.headerHeight ?? defaults.headerHeight ?? 0
        footerHeight = own.footerHeight ?? defaults.footerHeight ?? 0
        headerInsets = own.headerInsets ?? defaults.headerInsets ?? .zero
        footerInsets = own.footerInsets ?? defaults.footerInsets ?? .zero
        placement = own.placement ?? defaults.placement ?? .shortest
        tolerance = own.tolerance ?? defaults.tolerance ?? 0
        tieBreak = own.tieBreak ?? defaults.tieBreak ?? .leftmost
        spanPlacement = own.spanPlacement ?? defaults.spanPlacement ?? .lowest
        stamps = own.stamps ?? defaults.stamps ?? []
        lookahead = own.lookahead ?? defaults.lookahead ?? Lookahead(items: 1, limit: 1)
        pinHeader = own.pinHeader ?? defaults.pinHeader ?? false
        reflow = own.reflow ?? defaults.reflow ?? .exact
        let avail = spec.width - insets.left - insets.right
        let maxColumns = own.maxColumns ?? defaults.maxColumns
        let spacing = columnSpacing
        func adaptive(_ minWidth: Double) -> Int {
            var n = max(1, Int(min(((avail + spacing) / (minWidth + spacing)).rounded(.down), 1e6)))
            if let maxColumns { n = min(n, maxColumns) }
            return max(1, min(n, columnLimit))
        }
        if let n = own.columns {
            columns = n
        } else if let m = own.minColumnWidth {
            columns = adaptive(m)
        } else if let n = defaults.columns {
            columns = n
        } else if let m = defaults.minColumnWidth {
            columns = adaptive(m)
        } else {
            columns = 2
        }
        var cw = (avail - Double(columns - 1) * columnSpacing) / Double(columns)
        if spec.scale > 0 { cw = (cw * spec.scale).rounded(.down) / spec.scale }
        columnWidth = cw
        let fixed = own.columns != nil || (own.minColumnWidth == nil && defaults.minColumnWidth == nil)
        if let weights = own.columnWidths ?? defaults.columnWidths, weights.count == columns, fixed {
            let total = weights.reduce(0, +)
            let content = avail - Double(columns - 1) * columnSpacing
            widths = weights.map { weight in
                let w = (content * weight) / total
                return spec.scale > 0 ? (w * spec.scale).rounded(.down) / spec.scale : w
            }
        }
    }
}
