import WaterfallLayout

/// Seeded random layouts and commands for differential tests and benchmarks.
///
/// Values are mostly integers and halves (as real feeds send), with a share of awkward ones (tenths, aspect sizes
/// in thirds) so that both the exact and the inexact paths of the engine are exercised.
package struct RandomCommands {
    package var rng: SplitMix64
    /// The largest section a generated command creates or grows to, roughly.
    package var maxItems: Int
    /// Fixed column counts a generated section may have.
    package var columns: ClosedRange<Int>
    /// When set, plain items take one of these heights (images of a few standard sizes): exact ties everywhere.
    package var heights: [Double]?
    /// How often a generated set of properties sets `reflow` (to `stable` mostly); at 0 (the default) no draw is made
    /// for `reflow` or for items' `column`, so that a seed's sequence changes only when stable
    /// reflow is asked for.
    package var reflowChance = 0.0
    /// How often a generated layout is horizontal (and a layout patch sets `axis`); at 0 (the default) no draw is
    /// made for it, and aspect items' `h` may be 0, as before (a horizontal layout refuses that: its runs use 1…6).
    package var axisChance = 0.0
    /// How often a section or the defaults set `spanPlacement` (0: never, which leaves the draws as they were).
    package var spanPlacementChance = 0.0
    /// How often a section or the defaults set `stamps` (0: never, which leaves the draws as they were).
    package var stampsChance = 0.0
    /// How often a section with a fixed column count sets `columnWidths` (0: never, which leaves the draws as
    /// they were); the defaults a layout is created with never do, so that every section's count fits.
    package var columnWidthsChance = 0.0
    /// How often a change updates again the items an update of it just updated (0: never, which leaves the draws
    /// as they were): a second update of an item within one change, as a client's batch may send.
    package var updateAgainChance = 0.0
    /// How often a section or the defaults set `lookahead` (0: never, which leaves the draws as they were); most
    /// such sets also set the rules lookahead goes with.
    package var lookaheadChance = 0.0
    /// How often a generated item has an aspect size (its height then depends on the width); the draw is made
    /// whatever the chance, so that a seed's sequence does not depend on it.
    package var aspectChance = 0.15

    package init(seed: UInt64, maxItems: Int = 60, columns: ClosedRange<Int> = 1...5, heights: [Double]? = nil) {
        rng = SplitMix64(seed: seed)
        self.maxItems = maxItems
        self.columns = columns
        self.heights = heights
    }

    /// Layouts are this many times wider when sections may have many columns, so that most of them fit.
    var widthFactor: Int { max(1, columns.upperBound / 5) }

    package mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    package mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }

    package mutating func length(_ upTo: Int) -> Double {
        if chance(0.1) { return Double(int(0...upTo * 10)) / 10 }
        if chance(0.2) { return Double(int(0...upTo * 2)) / 2 }
        return Double(int(0...upTo))
    }

    /// The height of a random item.
    private mutating func height() -> Double {
        heights.map { $0[int(0...$0.count - 1)] } ?? length(200)
    }

    package mutating func item() -> Item {
        var item = Item(height: height())
        if chance(aspectChance) {
            item.aspectWidth = Double(int(1...4)) * (chance(0.5) ? 1 : 1.5)
            item.height = Double(int(axisChance > 0 ? 1...6 : 0...6))
        }
        if chance(0.15) { item.span = chance(0.3) ? .full : .columns(int(1...4)) }
        if chance(0.2) { item.id = "id\(int(0...999))" }
        if reflowChance > 0 && chance(0.08) { item.column = int(0...5) }
        return item
    }

    package mutating func items(_ count: Int) -> [Item] { (0..<count).map { _ in item() } }

    /// The items of an insert: random items, or (a third of the time) bare heights, as the wire decodes a bulk load.
    package mutating func insertedItems(_ count: Int) -> ItemList {
        guard chance(1.0 / 3) else { return ItemList(items(count)) }
        return ItemList(heights: (0..<count).map { _ in height() })
    }

    package mutating func insets() -> Insets {
        Insets(top: length(20), left: length(20), bottom: length(20), right: length(20))
    }

    /// One weight per column: small integers, halves and thirds (the thirds' shares are inexact).
    package mutating func weights(_ count: Int) -> [Double] {
        (0..<count).map { _ in Double(int(1...6)) / [1, 2, 3][int(0...2)] }
    }

    package mutating func properties(weighted: Bool = true) -> SectionProperties {
        var p = SectionProperties()
        if chance(0.5) {
            p.columns = int(columns)
        } else if chance(0.3) {
            p.minColumnWidth = Double(int(40...200))
            if chance(0.5) { p.maxColumns = int(1...6) }
        }
        if chance(0.3) { p.columnSpacing = length(16) }
        if chance(0.3) { p.rowSpacing = length(16) }
        if chance(0.3) { p.insets = insets() }
        if chance(0.3) { p.headerHeight = length(60) }
        if chance(0.3) { p.footerHeight = length(60) }
        if chance(0.2) { p.headerInsets = insets() }
        if chance(0.2) { p.footerInsets = insets() }
        if chance(0.3) { p.placement = chance(0.5) ? .next : .shortest }
        if chance(0.2) { p.tolerance = length(30) }
        if chance(0.3) { p.tieBreak = chance(0.5) ? .cursor : .leftmost }
        if spanPlacementChance > 0 && chance(spanPlacementChance) {
            p.spanPlacement = chance(0.8) ? .leastWhitespace : .lowest
        }
        if chance(0.4) { p.pinHeader = chance(0.7) }
        if reflowChance > 0 && chance(reflowChance) { p.reflow = chance(0.75) ? .stable : .exact }
        if stampsChance > 0 && chance(stampsChance) { p.stamps = stamps(columns: p.columns ?? 2) }
        if weighted, columnWidthsChance > 0, let n = p.columns, chance(columnWidthsChance) {
            p.columnWidths = weights(n)
        }
        if lookaheadChance > 0 && chance(lookaheadChance) { p.lookahead = lookahead(alongside: &p) }
        return p
    }

    /// One to four stamps within `columns` columns (a few of them wider, which a section with fewer refuses), some
    /// stacked, some below every item.
    package mutating func stamps(columns: Int) -> [Stamp] {
        (0..<int(1...4)).map { _ in
            let column = int(0...max(0, columns - 1))
            let span = chance(0.05) ? columns + 1 : int(1...max(1, columns - column))
            let y = chance(0.1) ? Double(int(500...3000)) : length(400)
            return Stamp(column: column, span: span, y: y, height: max(0.5, length(150)))
        }
    }

    /// A lookahead, mostly with the rules it goes with set beside it in `p`.
    private mutating func lookahead(alongside p: inout SectionProperties) -> Lookahead {
        if chance(0.85) {
            p.placement = .shortest
            p.tieBreak = .leftmost
            if reflowChance > 0 { p.reflow = .exact }
        }
        return Lookahead(items: int(1...5), limit: [1, 2, 3, 6, 24, 120][int(0...5)])
    }

    package mutating func section() -> SectionSpec {
        SectionSpec(properties: properties(), items: items(int(0...maxItems)))
    }

    package mutating func layout() -> LayoutSpec {
        var spec = LayoutSpec(
            width: Double(int(200...800) * widthFactor), scale: [0, 0, 1, 2, 3][int(0...4)],
            direction: chance(0.3) ? .rtl : .ltr,
            minContentHeight: chance(0.3) ? length(3000) : 0,
            defaults: chance(0.5) ? properties(weighted: false) : .init(),
            sections: (0..<int(0...4)).map { _ in section() })
        if axisChance > 0 && chance(axisChance) { spec.axis = .horizontal }
        // A new layout must be valid: a section whose lookahead meets a rule it cannot go with turns it off.
        for k in spec.sections.indices
        where spec.sections[k].properties.lookaheadConflict(defaults: spec.defaults) != nil {
            spec.sections[k].properties.lookahead = .off
        }
        return spec
    }

    /// `commands`, each update of them followed, under `updateAgainChance`, by another of the same items.
    package mutating func updatingAgain(_ commands: [LayoutCommand]) -> [LayoutCommand] {
        guard updateAgainChance > 0 else { return commands }
        var result: [LayoutCommand] = []
        for command in commands {
            result.append(command)
            if case .updateItems(let s, let updates) = command, chance(updateAgainChance) {
                result.append(
                    .updateItems(section: s, updates: updates.map { ItemUpdate(index: $0.index, item: item()) }))
            }
        }
        return result
    }

    /// A random command against a layout with these item counts; sometimes an invalid one.
    package mutating func command(counts: [Int]) -> LayoutCommand {
        let sections = counts.count
        let bad = chance(0.03)
        func anySection() -> Int { bad ? sections + int(0...2) : int(0...max(0, sections - 1)) }
        if sections == 0 || chance(0.08) {
            return .insertSections(at: int(0...sections), sections: (0..<int(1...2)).map { _ in section() })
        }
        let s = anySection()
        let n = s < sections ? counts[s] : 0
        switch int(0...11) {
        case 0, 1, 2:
            let at = bad ? n + 1 : int(0...n)
            let count = chance(0.5) ? 1 : int(1...max(1, maxItems / 4))
            return .insertItems(section: s, at: at, items: insertedItems(count))
        case 3, 4:
            guard n > 0 else { return .insertItems(section: s, at: 0, items: insertedItems(3)) }
            let picks = Set((0..<int(1...min(n, 5))).map { _ in int(0...n - 1) })
            return .deleteItems(section: s, indices: Array(picks) + (bad ? [n] : []))
        case 5, 6, 7:
            guard n > 0 else { return .insertItems(section: s, at: 0, items: insertedItems(2)) }
            let picks = Set((0..<int(1...min(n, 3))).map { _ in int(0...n - 1) })
            return .updateItems(section: s, updates: picks.sorted().map { ItemUpdate(index: $0, item: item()) })
        case 8:
            guard n > 0 else { return .insertItems(section: s, at: 0, items: insertedItems(1)) }
            let to = int(0...max(0, sections - 1))
            let limit = to == s ? n - 1 : counts[to]
            return .moveItem(
                from: ItemPath(section: s, item: int(0...n - 1)), to: ItemPath(section: to, item: int(0...limit)))
        case 9:
            if chance(0.5) { return .moveSection(from: s, to: int(0...sections - 1)) }
            return .deleteSections([s])
        case 10:
            var patch = SectionPatch()
            let p = properties()
            if chance(0.5) { patch.columns = p.columns.map { .set($0) } ?? .reset }
            if chance(0.3) { patch.rowSpacing = p.rowSpacing.map { .set($0) } ?? .reset }
            if chance(0.3) { patch.headerHeight = p.headerHeight.map { .set($0) } ?? .reset }
            if chance(0.3) { patch.placement = p.placement.map { .set($0) } ?? .reset }
            if chance(0.3) { patch.tieBreak = p.tieBreak.map { .set($0) } ?? .reset }
            if spanPlacementChance > 0 && chance(0.3) {
                patch.spanPlacement = p.spanPlacement.map { .set($0) } ?? .reset
            }
            if chance(0.2) { patch.pinHeader = p.pinHeader.map { .set($0) } ?? .reset }
            if reflowChance > 0 && chance(0.2) { patch.reflow = p.reflow.map { .set($0) } ?? .reset }
            if stampsChance > 0 && chance(0.3) { patch.stamps = p.stamps.map { .set($0) } ?? .reset }
            if columnWidthsChance > 0 && chance(0.4) {
                // Mostly with the count they were drawn for; a reset, or a list for another count, now and then.
                patch.columnWidths = p.columnWidths.map { .set($0) } ?? .reset
                if let n = p.columns, chance(0.8) { patch.columns = .set(n) }
            }
            if lookaheadChance > 0 && chance(0.3) { patch.lookahead = p.lookahead.map { .set($0) } ?? .reset }
            if chance(0.3) { patch.insets = .set(bad ? Insets(top: 0, left: 5000, bottom: 0, right: 0) : insets()) }
            return .configureSection(s, patch)
        default:
            var patch = LayoutPatch()
            if chance(0.5) { patch.width = bad ? 5 : Double(int(150...900) * widthFactor) }
            if chance(0.2) { patch.scale = [0, 1, 2, 3][int(0...3)] }
            if chance(0.2) { patch.direction = chance(0.5) ? .rtl : .ltr }
            if chance(0.2) { patch.minContentHeight = length(4000) }
            if chance(0.2) { patch.defaults = properties() }
            if axisChance > 0 && chance(0.15) { patch.axis = chance(axisChance) ? .horizontal : .vertical }
            return .configureLayout(patch)
        }
    }
}

extension RandomCommands {
    /// A random scroll anchor in a layout with these item counts; sometimes one that names no item.
    package mutating func anchor(counts: [Int]) -> ItemPath {
        let filled = counts.indices.filter { counts[$0] > 0 }
        guard !filled.isEmpty, !chance(0.03) else {
            let s = int(0...counts.count)
            return ItemPath(section: s, item: s < counts.count ? counts[s] + int(0...1) : 0)
        }
        let s = filled[int(0...filled.count - 1)]
        return ItemPath(section: s, item: int(0...counts[s] - 1))
    }
}
