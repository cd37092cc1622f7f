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
