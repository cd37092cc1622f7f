import WaterfallModel

/// What commands do to the kept columns of sections with `reflow: stable` (Geometry, "Stable reflow"): each hook is
/// called by `perform` at the point of a command where the columns must be settled, and does nothing for sections
/// with exact reflow.
extension Layout {
    /// Before an edit of section `s` at item `index`: chooses the columns still waiting there, recording the inputs
    /// replaced in `change` so that the diff compares with the old columns.
    static func settleColumns(_ section: inout SectionState, before index: Int, _ change: inout SectionChange) {
        for (k, previous) in section.chooseColumns(before: index) {
            if let old = change.map.oldIndex(of: k) { change.previousInputs.keepFirst(previous, at: old) }
        }
    }

    /// `settleColumns` for section `s` of a batch, whether or not its changes are recorded.
    mutating func settleColumns(ofSection s: Int, before index: Int, _ batch: inout Batch) {
        guard sections[s].lastPending >= index else { return }
        if batch.changes.has(s) {
            var section = sections[s]
            sections[s] = .placeholder
            batch.changes.update(s) { change in Self.settleColumns(&section, before: index, &change) }
            sections[s] = section
        } else {
            _ = sections[s].chooseColumns(before: index)
        }
    }

    /// After section `s`'s geometry changed from `old`: a section that became stable, or whose column count or
    /// rule changed, chooses every column again, as if its items were inserted anew in order.
    mutating func resetColumnsIfNeeded(ofSection s: Int, from old: SectionGeometry, _ batch: inout Batch) {
        guard sections[s].geometry.resetsColumns(from: old) else { return }
        sections[s].resetColumns()
        let count = sections[s].count
        batch.changes.update(s) { $0.recordReset(count: count) }
    }
}

extension Layout {
    /// What puts back the kept column of an item that a move takes out of a stable section to another (moved back,
    /// it would be given a column anew): an update naming its column; nothing for other moves.
    func restoringColumn(movedFrom from: ItemPath, to: ItemPath) -> [LayoutCommand] {
        guard from.section != to.section, from.section >= 0, from.section < sectionCount,
            from.item >= 0, from.item < itemCount(inSection: from.section),
            sections[from.section].geometry.reflow == .stable
        else { return [] }
        return [.updateItems(section: from.section, updates: [ItemUpdate(index: from.item, item: item(at: from))])]
    }
}

extension SectionChange {
    /// Every item of the section must be placed again (its stable columns were reset).
    mutating func recordReset(count: Int) {
        firstDirty = 0
        lastDirty = max(lastDirty, count)
    }
}
