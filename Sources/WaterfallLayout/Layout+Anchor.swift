extension Layout {
    /// Applies `commands` atomically, as `apply(_:listingItems:namingOps:)` does, and follows the item at `anchor`
    /// (indices before the change) through them: where it went and how far its y moved.
    ///
    /// The item is followed forward, command by command, by its identity: an item moved to another section stays
    /// the anchor (the diff's `IndexMap` maps new indices to old ones within a section and, by the diff's rules,
    /// counts such an item as new there, so it cannot follow it).
    ///
    /// - Throws: `LayoutError.notFound` naming `anchor.section` or `anchor.i` when there is no such item before the
    ///   change, or the first invalid command's error; the layout is then unchanged.
    /// - Complexity: that of `apply`, plus O(size of the commands) to follow the anchor.
    public mutating func apply(
        _ commands: [LayoutCommand], anchor: ItemPath, listingItems: Bool = true, namingOps: Bool? = nil
    ) async throws(LayoutError) -> (diff: LayoutDiff, anchor: AnchorOutcome) {
        try checkAnchor(anchor)
        let oldY = frame(ofItem: anchor).frame.y
        let diff = try await apply(commands, listingItems: listingItems, namingOps: namingOps)
        guard let path = anchor.following(commands) else { return (diff, .removed) }
        let dy = frame(ofItem: path).frame.y - oldY
        // Plus zero, never minus zero, for an item that did not move: the wire says 0.
        return (diff, .moved(path, dy: dy == 0 ? 0 : dy))
    }

    /// Checks that `anchor` names an item of the layout as it is.
    private func checkAnchor(_ anchor: ItemPath) throws(LayoutError) {
        guard anchor.section >= 0, anchor.section < sections.count else {
            throw .notFound(
                field: "anchor.section", value: String(anchor.section),
                reason: "is not a section (there are \(sections.count))")
        }
        let count = sections[anchor.section].count
        guard anchor.item >= 0, anchor.item < count else {
            throw .notFound(
                field: "anchor.i", value: String(anchor.item),
                reason: "is not an item of section \(anchor.section) (it has \(count))")
        }
    }
}

extension ItemPath {
    /// Where the item at this path is after `commands`, which must be valid in turn; nil once one removes it.
    public func following(_ commands: [LayoutCommand]) -> ItemPath? {
        var path = self
        for command in commands {
            guard let next = path.following(command) else { return nil }
            path = next
        }
        return path
    }

    /// Where the item at this path is after `command`; nil when it removes it.
    func following(_ command: LayoutCommand) -> ItemPath? {
        var path = self
        switch command {
        case .insertItems(let s, let at, let items):
            if s == section && item >= at { path.item += items.count }
        case .deleteItems(let s, let indices):
            guard s == section else { break }
            // The change applied, so each index names an item before the delete, once (the engine refuses repeats).
            let deleted = Set(indices)
            if deleted.contains(item) { return nil }
            path.item -= deleted.count { $0 < item }
        case .moveItem(let from, let to):
            if from == self { return to }
            // The move takes the item out first, then puts it in at `to`, an index among the others.
            if from.section == section && from.item < item { path.item -= 1 }
            if to.section == section && to.item <= path.item { path.item += 1 }
        case .insertSections(let at, let specs):
            if section >= at { path.section += specs.count }
        case .deleteSections(let indices):
            let deleted = Set(indices)
            if deleted.contains(section) { return nil }
            path.section -= deleted.count { $0 < section }
        case .moveSection(let from, let to):
            if from == section { path.section = to; break }
            if from < section { path.section -= 1 }
            if to <= path.section { path.section += 1 }
        case .updateItems, .configureSection, .configureLayout:
            break
        }
        return path
    }
}
