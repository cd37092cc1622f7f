import WaterfallLayout

extension ReferenceLayout {
    /// Applies `commands` to plain arrays, all or nothing; false when one is invalid by index or geometry.
    ///
    /// Value ranges (negative heights and the like) are the engine's unit tests' business; this checks what depends
    /// on state.
    package mutating func apply(_ commands: [LayoutCommand]) -> Bool {
        var copy = self
        for command in commands {
            let keys = copy.spec.sections.map { copy.columnKey($0.properties) }
            guard copy.applyOne(command) else { return false }
            copy.resetColumns(keys, after: command)
            copy.settleColumns()
            for section in copy.spec.sections where copy.columnWidth(section.properties) < 0 { return false }
            // Geometry, "Stamps": every stamp within its section's columns.
            for section in copy.spec.sections where !copy.stampsFit(section.properties) { return false }
            for section in copy.spec.sections where !copy.weightsFit(section.properties) { return false }
            for section in copy.spec.sections where copy.refusesLookahead(section.properties) { return false }
            // Geometry, "Horizontal feeds": along x an aspect item is row height × w / h long, so h must be > 0.
            if copy.spec.axis == .horizontal {
                for section in copy.spec.sections {
                    if section.items.contains(where: { $0.aspectWidth != nil && $0.height < 1e-6 }) { return false }
                }
            }
        }
        self = copy
        return true
    }

    private mutating func applyOne(_ command: LayoutCommand) -> Bool {
        let count = spec.sections.count
        switch command {
        case .insertItems(let s, let at, let items):
            guard s >= 0, s < count, at >= 0, at <= spec.sections[s].items.count else { return false }
            spec.sections[s].items.insert(contentsOf: items, at: at)
        case .deleteItems(let s, let indices):
            guard s >= 0, s < count, Set(indices).count == indices.count else { return false }
            guard indices.allSatisfy({ $0 >= 0 && $0 < spec.sections[s].items.count }) else { return false }
            for i in indices.sorted(by: >) { spec.sections[s].items.remove(at: i) }
        case .updateItems(let s, let updates):
            guard s >= 0, s < count, Set(updates.map(\.index)).count == updates.count else { return false }
            guard updates.allSatisfy({ $0.index >= 0 && $0.index < spec.sections[s].items.count }) else { return false }
            for u in updates {
                // A stable item keeps its column unless the update names one (others keep none anyway).
                let kept = spec.sections[s].items[u.index].column
                spec.sections[s].items[u.index] = u.item
                if u.item.column == nil { spec.sections[s].items[u.index].column = kept }
            }
        case .moveItem(let from, let to):
            guard from.section >= 0, from.section < count, to.section >= 0, to.section < count else { return false }
            guard from.item >= 0, from.item < spec.sections[from.section].items.count else { return false }
            var item = spec.sections[from.section].items.remove(at: from.item)
            // New in another section: given a column there as an inserted item is.
            if from.section != to.section { item.column = nil }
            guard to.item >= 0, to.item <= spec.sections[to.section].items.count else { return false }
            spec.sections[to.section].items.insert(item, at: to.item)
        case .insertSections(let at, let sections):
            guard at >= 0, at <= count else { return false }
            spec.sections.insert(contentsOf: sections, at: at)
        case .deleteSections(let indices):
            guard Set(indices).count == indices.count, indices.allSatisfy({ $0 >= 0 && $0 < count }) else {
                return false
            }
            for s in indices.sorted(by: >) { spec.sections.remove(at: s) }
        case .moveSection(let from, let to):
            guard from >= 0, from < count, to >= 0, to < count else { return false }
            spec.sections.insert(spec.sections.remove(at: from), at: to)
        case .configureSection(let s, let patch):
            guard s >= 0, s < count else { return false }
            spec.sections[s].properties = Self.apply(patch, to: spec.sections[s].properties)
        case .configureLayout(let patch):
            spec.width = patch.width ?? spec.width
            spec.scale = patch.scale ?? spec.scale
            spec.direction = patch.direction ?? spec.direction
            spec.axis = patch.axis ?? spec.axis
            spec.minContentHeight = patch.minContentHeight ?? spec.minContentHeight
            spec.defaults = patch.defaults ?? spec.defaults
        }
        return true
    }

    /// After a configure: each stable section whose column key changed (it became stable, or its count or rule
    /// changed) forgets its columns, which are then chosen again in order.
    private mutating func resetColumns(_ keys: [ColumnKey], after command: LayoutCommand) {
        let touched: [Int]
        switch command {
        case .configureSection(let s, _): touched = [s]
        case .configureLayout: touched = Array(spec.sections.indices)
        default: return
        }
        for s in touched where columnKey(spec.sections[s].properties) != keys[s] {
            for k in spec.sections[s].items.indices { spec.sections[s].items[k].column = nil }
        }
    }

    private static func apply(_ patch: SectionPatch, to properties: SectionProperties) -> SectionProperties {
        var p = properties
        func merge<T>(_ change: PropertyChange<T>?, _ value: inout T?) {
            if case .set(let v)? = change { value = v }
            if case .reset? = change { value = nil }
        }
        merge(patch.columns, &p.columns)
        merge(patch.minColumnWidth, &p.minColumnWidth)
        if case .set = patch.columns { p.minColumnWidth = nil }
        if case .set = patch.minColumnWidth { p.columns = nil }
        merge(patch.maxColumns, &p.maxColumns)
        merge(patch.columnSpacing, &p.columnSpacing)
        merge(patch.rowSpacing, &p.rowSpacing)
        merge(patch.insets, &p.insets)
        merge(patch.headerHeight, &p.headerHeight)
        merge(patch.footerHeight, &p.footerHeight)
        merge(patch.headerInsets, &p.headerInsets)
        merge(patch.footerInsets, &p.footerInsets)
        merge(patch.placement, &p.placement)
        merge(patch.tolerance, &p.tolerance)
        merge(patch.tieBreak, &p.tieBreak)
        merge(patch.pinHeader, &p.pinHeader)
        merge(patch.reflow, &p.reflow)
        merge(patch.spanPlacement, &p.spanPlacement)
        merge(patch.stamps, &p.stamps)
        merge(patch.columnWidths, &p.columnWidths)
        merge(patch.lookahead, &p.lookahead)
        return p
    }
}
