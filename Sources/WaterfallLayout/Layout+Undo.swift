import WaterfallModel

extension Layout {
    /// The commands that put this layout back as it is now once `change` has been applied to it, for the changes
    /// whose undo is small: nil when one of its commands would need much of the layout kept (configure commands),
    /// and then a caller that must be able to go back keeps a copy instead.
    ///
    /// Ask before applying the change. It is validated, so every index in it is in range and no sum below can
    /// overflow; nil, too, for a change validated against another state (a caller's bug). Undo commands are applied
    /// in order, in one change (see `LayoutWidths.replay(_:seq:)`), and always apply.
    ///
    /// Why not a copy: `Layout` is a value, and a copy kept across a change makes the change's first write to each
    /// section copy that section whole (40 MB for a million items), where the undo of an insert is one delete.
    public func undoing(_ change: ValidatedChange) -> [LayoutCommand]? {
        guard change.stamp == stamp else { return nil }
        let commands = change.commands
        guard commands.count == 1, let command = commands.first else {
            // The undo of a later command of a batch depends on the state the earlier ones leave: not worth
            // simulating for what batches are (a few commands, rarely on a large layout).
            return commands.isEmpty ? [] : nil
        }
        switch command {
        case .insertItems(let s, let at, let items):
            return items.isEmpty ? [] : [.deleteItems(section: s, indices: Array(at..<(at + items.count)))]
        case .deleteItems(let s, let indices):
            guard validSection(s) else { return [] }
            let count = itemCount(inSection: s)
            return Self.runs(of: indices, below: count).map { run in
                .insertItems(
                    section: s, at: run.lowerBound,
                    items: ItemList(run.map { item(at: ItemPath(section: s, item: $0)) }))
            }
        case .updateItems(let s, let updates):
            guard validSection(s) else { return [] }
            let count = itemCount(inSection: s)
            // An update replaces the whole item: putting each one back is the undo.
            let previous = updates.compactMap { update in
                update.index >= 0 && update.index < count
                    ? ItemUpdate(index: update.index, item: item(at: ItemPath(section: s, item: update.index))) : nil
            }
            return previous.isEmpty ? [] : [.updateItems(section: s, updates: previous)]
        case .moveItem(let from, let to):
            return from == to ? [] : [.moveItem(from: to, to: from)] + restoringColumn(movedFrom: from, to: to)
        case .insertSections(let at, let sections):
            return sections.isEmpty ? [] : [.deleteSections(Array(at..<(at + sections.count)))]
        case .deleteSections(let indices):
            return Self.runs(of: indices, below: sectionCount).map { run in
                .insertSections(at: run.lowerBound, sections: run.map(sectionSpec))
            }
        case .moveSection(let from, let to):
            return from == to ? [] : [.moveSection(from: to, to: from)]
        case .configureSection, .configureLayout:
            return nil
        }
    }

    // MARK: Private

    private func validSection(_ s: Int) -> Bool { s >= 0 && s < sectionCount }

    /// Section `s`'s inputs: its own properties and its items.
    private func sectionSpec(_ s: Int) -> SectionSpec {
        SectionSpec(
            properties: properties(ofSection: s),
            items: (0..<itemCount(inSection: s)).map { item(at: ItemPath(section: s, item: $0)) })
    }

    /// The runs of consecutive values of `indices` that are below `count` (others make the command fail), in
    /// ascending order: inserting each run back at its first index, in that order, undoes the delete.
    private static func runs(of indices: [Int], below count: Int) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for index in indices.sorted() where index >= 0 && index < count {
            // No index repeats: the engine refuses a delete that lists one twice.
            if let last = runs.last, last.upperBound + 1 == index {
                runs[runs.count - 1] = last.lowerBound...index
            } else {
                runs.append(index...index)
            }
        }
        return runs
    }
}
