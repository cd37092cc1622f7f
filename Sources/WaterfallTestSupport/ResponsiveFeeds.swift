import WaterfallLayout

/// Seeded random feeds for responsive layouts (`layout.css`): fixed heights, aspect sizes, spans, headers, footers,
/// insets, adaptive and fixed column counts, columns of different widths, several sections, and a range of container
/// widths they all fit.
///
/// Lengths are real-valued (not integers from a few standard sizes): two columns holding the same aspect items in
/// another order are equal in exact arithmetic and differ in the last bit by width, a tie the engine breaks by
/// rounding width by width, which no finite set of pieces follows (`ResponsiveLayout` says so).
package struct ResponsiveFeeds {
    package var random: RandomCommands
    /// How often a section gets a fixed column count and `columnWidths` (0: never, which leaves the draws as they
    /// are without it).
    package var columnWidthsChance = 0.0

    package init(seed: UInt64, columnWidthsChance: Double = 0) {
        random = RandomCommands(seed: seed)
        self.columnWidthsChance = columnWidthsChance
    }

    /// A real value in `range`.
    package mutating func real(_ range: ClosedRange<Double>) -> Double {
        Double.random(in: range, using: &random.rng)
    }

    /// A feed and the range of widths to lay it out over; `maxItems` bounds each section.
    package mutating func feed(maxItems: Int = 40) -> (spec: LayoutSpec, minWidth: Double, maxWidth: Double) {
        let sections = (0..<random.int(1...3)).map { _ in section(maxItems: maxItems) }
        var spec = LayoutSpec(width: 0, direction: random.chance(0.2) ? .rtl : .ltr, sections: sections)
        if random.chance(0.2) { spec.minContentHeight = real(0...3000) }
        if random.chance(0.3) { spec.defaults = SectionProperties(minColumnWidth: real(90...220), maxColumns: 6) }
        let minWidth = Double(random.int(300 * 64...700 * 64)) / 64
        return (spec, minWidth, minWidth + Double(random.int(200...1400)))
    }

    /// One section: at most 5 fixed columns or an adaptive count, insets and spacings up to 20.
    package mutating func section(maxItems: Int) -> SectionSpec {
        var p = SectionProperties()
        switch random.int(0...2) {
        case 0: p.columns = random.int(1...5)
        case 1:
            p.minColumnWidth = real(80...260)
            if random.chance(0.4) { p.maxColumns = random.int(2...6) }
        default: break  // the defaults' rule, else 2 columns
        }
        if columnWidthsChance > 0, random.chance(columnWidthsChance) {
            // Weights need a fixed count; ratios up to 20 between columns.
            let c = p.columns ?? random.int(1...5)
            p.columns = c
            p.minColumnWidth = nil
            p.maxColumns = nil
            p.columnWidths = (0..<c).map { _ in real(0.25...5) }
        }
        if random.chance(0.5) { p.columnSpacing = real(0...16) }
        if random.chance(0.5) { p.rowSpacing = real(0...16) }
        if random.chance(0.5) { p.insets = insets() }
        if random.chance(0.5) { p.headerHeight = real(10...60) }
        if random.chance(0.5) { p.footerHeight = real(10...60) }
        if random.chance(0.3) { p.headerInsets = insets() }
        if random.chance(0.3) { p.footerInsets = insets() }
        if random.chance(0.2) { p.placement = .next }
        if random.chance(0.2) { p.tolerance = real(0...40) }
        if random.chance(0.3) { p.tieBreak = .cursor }
        if random.chance(0.3) { p.spanPlacement = .leastWhitespace }
        let items = (0..<random.int(0...maxItems)).map { _ in item() }
        return SectionSpec(properties: p, items: items)
    }

    /// An item: fixed or aspect-sized, sometimes spanning.
    package mutating func item() -> Item {
        var item = Item(height: real(20...300))
        if random.chance(0.6) {
            item.aspectWidth = real(60...200)
            item.height = real(40...300)
        }
        if random.chance(0.12) { item.span = random.chance(0.3) ? .full : .columns(random.int(2...3)) }
        return item
    }

    package mutating func insets() -> Insets {
        Insets(top: real(0...20), left: real(0...20), bottom: real(0...20), right: real(0...20))
    }

    /// `spec` at container width `width`, each section cut to its first `firstItems` items.
    package static func spec(_ spec: LayoutSpec, width: Double, firstItems: Int? = nil) -> LayoutSpec {
        var result = spec
        result.width = width
        if let firstItems {
            for s in result.sections.indices {
                result.sections[s].items = Array(result.sections[s].items.prefix(firstItems))
            }
        }
        return result
    }
}

extension ResponsiveFeeds {
    /// The photo feed `layout.css` is sized on: `count` photos of real-valued aspect ratios between 2:3 and 16:9
    /// (seed 18), in adaptive columns at least 180 px wide, at most 8, 8 px apart both ways.
    package static func photoFeed(count: Int) -> LayoutSpec {
        var random = SplitMix64(seed: 18)
        let items = (0..<count).map { _ in
            let w = Double.random(in: 100...178, using: &random)
            return Item(height: Double.random(in: 100...150, using: &random), aspectWidth: w)
        }
        return LayoutSpec(
            width: 1000,
            defaults: SectionProperties(minColumnWidth: 180, maxColumns: 8, columnSpacing: 8, rowSpacing: 8),
            sections: [SectionSpec(items: items)])
    }
}
