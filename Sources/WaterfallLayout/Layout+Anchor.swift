extension Layout {
    /// Applies `commands` atomically, as `apply(_:listingItems:namingOps:)` does, and follows the item at `anchor`
    /// (indices before the change) through them: where it went and how far its y moved (see
    /// `apply(_:listingItems:)`).
    ///
    /// - Throws: `LayoutError.notFound` naming `anchor.section` or `anchor.i` when there is no such item before the
    ///   change, or the first invalid command's error; the layout is then unchanged.
    public mutating func apply(
        _ commands: [LayoutCommand], anchor: ItemPath, listingItems: Bool = true, namingOps: Bool? = nil
    ) async throws(LayoutError) -> (diff: LayoutDiff, anchor: AnchorOutcome) {
        let change = try validate(commands, anchor: anchor, namingOps: namingOps)
        let (diff, outcome) = try await apply(change, listingItems: listingItems)
        return (diff, outcome ?? .removed)
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
