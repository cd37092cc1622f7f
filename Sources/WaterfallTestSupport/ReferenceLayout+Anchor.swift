import WaterfallLayout

extension ReferenceLayout {
    /// Applies `commands` as `apply(_:)` does and finds where the item at `anchor` went by its identity: every item
    /// carries a mark through the same array operations, and the marked one is looked for afterwards.
    ///
    /// Nil (and nothing applied) when the anchor names no item or a command is invalid; `.removed` when no item
    /// carries the mark any more.
    package mutating func apply(_ commands: [LayoutCommand], anchor: ItemPath) -> AnchorOutcome? {
        let sections = spec.sections
        guard anchor.section >= 0, anchor.section < sections.count, anchor.item >= 0,
            anchor.item < sections[anchor.section].items.count
        else { return nil }
        // The move is the change of the anchor's distance into the feed (Geometry, "Horizontal feeds"), on the axis
        // (and in the direction) of the layout after the change.
        let old = layout().sections[anchor.section].leads[anchor.item]
        var marks = sections.map { [Bool](repeating: false, count: $0.items.count) }
        marks[anchor.section][anchor.item] = true
        guard apply(commands) else { return nil }
        for command in commands { Self.carry(&marks, through: command) }
        for (s, section) in marks.enumerated() {
            guard let i = section.firstIndex(of: true) else { continue }
            let delta = layout().sections[s].leads[i] - old
            let path = ItemPath(section: s, item: i)
            guard spec.axis == .horizontal else { return .moved(path, dy: delta) }
            return .movedAlongX(path, dx: spec.direction == .rtl && delta != 0 ? -delta : delta)
        }
        return .removed
    }

    /// Does to `marks` (one per item, by section) what `command`, already checked, does to the items.
    private static func carry(_ marks: inout [[Bool]], through command: LayoutCommand) {
        switch command {
        case .insertItems(let s, let at, let items):
            marks[s].insert(contentsOf: repeatElement(false, count: items.count), at: at)
        case .deleteItems(let s, let indices):
            for i in Set(indices).sorted(by: >) { marks[s].remove(at: i) }
        case .moveItem(let from, let to):
            let mark = marks[from.section].remove(at: from.item)
            marks[to.section].insert(mark, at: to.item)
        case .insertSections(let at, let sections):
            marks.insert(contentsOf: sections.map { [Bool](repeating: false, count: $0.items.count) }, at: at)
        case .deleteSections(let indices):
            for s in Set(indices).sorted(by: >) { marks.remove(at: s) }
        case .moveSection(let from, let to):
            marks.insert(marks.remove(at: from), at: to)
        case .updateItems, .configureSection, .configureLayout:
            break
        }
    }
}
