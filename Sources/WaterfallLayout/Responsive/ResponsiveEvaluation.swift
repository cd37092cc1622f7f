import WaterfallModel

/// A layout placed at one width twice over: with the engine's floating-point arithmetic, which gives the engine's
/// decisions at that width, and with every position as a `LinearLength`, which those decisions keep valid up to
/// `nextFlip`, the nearest width above where one of them flips.
///
/// Every decision is a comparison of two positions; each is recorded with `keep(_:atLeast:)`, which solves the
/// comparison, linear in the width, for where it flips. The arithmetic follows the Geometry article (and the test suite's
/// reference layout) operation by operation, so that the decisions are the engine's, ties included.
struct ResponsiveEvaluation {
    /// A position as the engine computes it at `width`, and as a function of the width.
    struct Tracked {
        var value: Double
        var form: LinearLength

        init(_ value: Double, _ form: LinearLength) {
            self.value = value
            self.form = form
        }

        init(constant: Double) { self.init(constant, LinearLength(constant: constant)) }
    }

    let width: Double
    let maxWidth: Double
    let defaults: SectionProperties
    let direction: Direction
    let columnLimit: Int
    /// The nearest width where a decision made so far may flip (+∞: none).
    private(set) var nextFlip = Double.infinity
    /// `pickShortest`'s candidates, kept from item to item.
    private var candidateBuffer: [Tracked] = []

    init(width: Double, maxWidth: Double, defaults: SectionProperties, direction: Direction, columnLimit: Int) {
        self.width = width
        self.maxWidth = maxWidth
        self.defaults = defaults
        self.direction = direction
        self.columnLimit = columnLimit
    }

    // MARK: Internal

    /// The piece that starts at `width`.
    ///
    /// - Throws: `LayoutError.invalidGeometry` when a section's column width is negative at `width`.
    /// - Complexity: O(Σ items × columns × span + elements).
    mutating func piece(_ sections: [SectionSpec], minContentHeight: Double) throws(LayoutError) -> ResponsivePiece {
        var origin = Tracked(constant: 0)
        var placed: [ResponsiveSection] = []
        placed.reserveCapacity(sections.count)
        for (s, section) in sections.enumerated() {
            let (frames, height) = try place(section, index: s, origin: origin.form)
            placed.append(frames)
            origin = Tracked(origin.value + height.value, origin.form + height.form)
        }
        let content = highest([origin, Tracked(constant: minContentHeight)])
        return ResponsivePiece(start: width, contentHeight: content.form, sections: placed)
    }

    // MARK: Private

    /// Records that `p ≥ q` at `width` and must stay so: the piece ends where `q` overtakes `p`.
    ///
    /// Positions equal in exact arithmetic at every width (differences of rounding only) never flip.
    private mutating func keep(_ p: LinearLength, atLeast q: LinearLength) {
        let d = p - q
        guard d.slope < 0 else { return }
        let scale = 1 + p.constant.magnitude + q.constant.magnitude + (p.slope.magnitude + q.slope.magnitude) * maxWidth
        guard d.constant.magnitude + d.slope.magnitude * maxWidth > 1e-12 * scale else { return }
        nextFlip = min(nextFlip, -d.constant / d.slope)
    }

    /// The highest of `values` by the engine's arithmetic (ties: the one rising fastest, which stays highest
    /// above `width`), recorded as a decision.
    private mutating func highest(_ values: some Collection<Tracked>) -> Tracked {
        var best = values[values.startIndex]
        for v in values where v.value > best.value || (v.value == best.value && v.form.slope > best.form.slope) {
            best = v
        }
        for v in values { keep(best.form, atLeast: v.form) }
        return best
    }

    /// The lowest of `values` (ties: the one rising slowest), recorded as a decision; its index.
    private mutating func lowest(_ values: [Tracked]) -> Int {
        var best = 0
        for (k, v) in values.enumerated()
        where v.value < values[best].value || (v.value == values[best].value && v.form.slope < values[best].form.slope)
        {
            best = k
        }
        for v in values { keep(v.form, atLeast: values[best].form) }
        return best
    }

    /// Places one section at `width`; its frames (local) and its height.
    private mutating func place(
        _ section: SectionSpec, index s: Int, origin: LinearLength
    ) throws(LayoutError) -> (ResponsiveSection, height: Tracked) {
        let own = section.properties
        let g = SectionGeometry(
            own: own, defaults: defaults, width: width, scale: 0, direction: direction, columnLimit: columnLimit)
        guard g.columnWidth >= 0 else {
            throw .invalidGeometry(field: "sections[\(s)]", section: s, columnWidth: g.columnWidth)
        }
        let c = g.columnCount
        let cs = g.columnSpacing
        let sideInsets = g.insets.left + g.insets.right
        noteColumnCountChange(own, columns: c, sideInsets: sideInsets)
        let columnForms = LinearColumns(g, weights: own.columnWidths ?? defaults.columnWidths)

        var header: LinearRect?
        if g.headerHeight > 0 {
            let i = g.headerInsets
            header = LinearRect(
                x: LinearLength(constant: i.left), y: LinearLength(constant: i.top),
                width: LinearLength(constant: -i.left - i.right, slope: 1),
                height: LinearLength(constant: g.headerHeight))
        }
        let top = g.itemsTop
        var columns = [Tracked](repeating: Tracked(constant: top), count: c)
        var bottoms: [Tracked] = [Tracked(constant: top)]
        bottoms.reserveCapacity(section.items.count + 1)
        var frames: [LinearRect] = []
        frames.reserveCapacity(section.items.count)
        var placements: [ResponsivePlacement] = []
        placements.reserveCapacity(section.items.count)
        var cursor = 0
        var tieCursor = 0
        for item in section.items {
            var span: Int
            switch item.span {
            case .full: span = c
            case .columns(let n): span = min(n, c)
            }
            span = max(1, span)
            let j: Int
            let y: Tracked
            if g.placement == .shortest && span > 1 && g.spanPlacement == .leastWhitespace {
                j = pickLeastWhitespace(columns, span: span, tieBreak: g.tieBreak, cursor: &tieCursor)
            } else if g.placement == .shortest {
                j = pickShortest(columns, span: span, tolerance: g.tolerance, tieBreak: g.tieBreak, cursor: &tieCursor)
            } else {
                if cursor + span > c { cursor = 0 }
                j = cursor
                cursor = (j + span) % c
            }
            y = highest(columns[j..<(j + span)])
            let itemWidth = g.itemWidth(column: j, span: span)
            let widthForm = columnForms.width(column: j, span: span)
            var height = Tracked(constant: item.height)
            if let aspect = item.aspectWidth {
                height = Tracked((item.height * itemWidth) / aspect, (item.height / aspect) * widthForm)
            }
            let next = Tracked(y.value + height.value + g.rowSpacing, y.form + height.form + g.rowSpacing)
            for k in j..<(j + span) { columns[k] = next }
            frames.append(LinearRect(x: columnForms.x(ofColumn: j), y: y.form, width: widthForm, height: height.form))
            let leading = direction == .rtl ? c - j - span : j
            placements.append(ResponsivePlacement(column: Int32(leading), span: Int32(span)))
            bottoms.append(Tracked(y.value + height.value, y.form + height.form))
        }
        let itemsBottom = highest(bottoms)
        var footer: LinearRect?
        if g.footerHeight > 0 {
            let i = g.footerInsets
            footer = LinearRect(
                x: LinearLength(constant: i.left), y: itemsBottom.form + (g.insets.bottom + i.top),
                width: LinearLength(constant: -i.left - i.right, slope: 1),
                height: LinearLength(constant: g.footerHeight))
        }
        let height = Tracked(
            itemsBottom.value + g.insets.bottom + g.footerBlock,
            itemsBottom.form + (g.insets.bottom + g.footerBlock))
        if direction == .rtl {
            header = header?.mirrored()
            footer = footer?.mirrored()
            frames = frames.map { $0.mirrored() }
        }
        var result = ResponsiveSection(
            origin: origin, height: height.form, columnCount: c, header: header, footer: footer, items: frames)
        result.columns = ResponsiveColumns(
            gutters: sideInsets + Double(c - 1) * cs, spacing: cs,
            leadingInset: direction == .rtl ? g.insets.right : g.insets.left,
            shares: direction == .rtl ? columnForms.shares?.reversed() : columnForms.shares)
        result.placements = placements
        return (result, height)
    }

    /// The start column `shortest` placement picks for an item of `span` columns, as the Geometry article says, recording
    /// every comparison it makes.
    private mutating func pickShortest(
        _ columns: [Tracked], span: Int, tolerance: Double, tieBreak: TieBreak, cursor: inout Int
    ) -> Int {
        let starts = columns.count - span + 1
        // One buffer for every item's candidates: an allocation per item would cost as much as the comparisons.
        var candidates = candidateBuffer
        candidates.removeAll(keepingCapacity: true)
        for start in 0..<starts { candidates.append(highest(columns[start..<(start + span)])) }
        let m = candidates[lowest(candidates)]
        let limit = m.form + tolerance
        // The first tied start (the lowest is one), and the first at or after the cursor.
        var first: Int?
        var afterCursor: Int?
        for (start, candidate) in candidates.enumerated() {
            if candidate.value <= m.value + tolerance {
                if first == nil { first = start }
                if afterCursor == nil, start >= cursor { afterCursor = start }
                keep(limit, atLeast: candidate.form)
            } else {
                keep(candidate.form, atLeast: limit)
            }
        }
        candidateBuffer = candidates
        let j = tieBreak == .cursor ? (afterCursor ?? first ?? 0) : (first ?? 0)
        cursor = j + span
        return j
    }

    /// The start column `spanPlacement: leastWhitespace` picks for an item of `span` (> 1) columns, by the engine's
    /// arithmetic (each window's whitespace summed left to right), recording every comparison it makes.
    private mutating func pickLeastWhitespace(
        _ columns: [Tracked], span: Int, tieBreak: TieBreak, cursor: inout Int
    ) -> Int {
        let starts = columns.count - span + 1
        var tops: [Tracked] = []
        var wastes: [Tracked] = []
        for start in 0..<starts {
            let top = highest(columns[start..<(start + span)])
            var waste = Tracked(constant: 0)
            for k in start..<(start + span) {
                waste = Tracked(waste.value + (top.value - columns[k].value), waste.form + (top.form - columns[k].form))
            }
            tops.append(top)
            wastes.append(waste)
        }
        var best = 0
        for k in 1..<starts where (wastes[k].value, tops[k].value) < (wastes[best].value, tops[best].value) {
            best = k
        }
        for k in 0..<starts {
            keep(wastes[k].form, atLeast: wastes[best].form)
            if wastes[k].value == wastes[best].value { keep(tops[k].form, atLeast: tops[best].form) }
        }
        let tied = (0..<starts).filter { wastes[$0].value == wastes[best].value && tops[$0].value == tops[best].value }
        let j = tieBreak == .cursor ? (tied.first { $0 >= cursor } ?? best) : best
        cursor = j + span
        return j
    }

    /// Records the width where an adaptive column count next grows: where `(W - insets + spacing) / (minColumnWidth
    /// + spacing)` reaches `columns + 1`, unless the count is at its cap.
    private mutating func noteColumnCountChange(_ own: SectionProperties, columns c: Int, sideInsets: Double) {
        let minColumnWidth: Double
        if own.columns != nil {
            return
        } else if let m = own.minColumnWidth {
            minColumnWidth = m
        } else if defaults.columns != nil {
            return
        } else if let m = defaults.minColumnWidth {
            minColumnWidth = m
        } else {
            return
        }
        let cap = min(own.maxColumns ?? defaults.maxColumns ?? .max, columnLimit)
        guard c < cap else { return }
        let spacing = SectionPropertyTable.columnSpacing.resolve(own, defaults)
        let flip = Double(c + 1) * (minColumnWidth + spacing) - spacing + sideInsets
        nextFlip = min(nextFlip, flip)
    }
}
