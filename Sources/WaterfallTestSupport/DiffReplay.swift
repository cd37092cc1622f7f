import WaterfallLayout

/// What a client holds: every section's frames. It replays commands on its indices and applies diffs, as
/// PROTOCOL.md tells clients to, so tests can check that a diff brings old frames to the new ones exactly.
public struct ClientFrames: Sendable, Equatable {
    public struct Section: Sendable, Equatable {
        public var origin: Double
        public var height: Double
        public var header: Rect?
        public var footer: Rect?
        public var items: [Rect?]
    }

    public var sections: [Section]

    public init(_ layout: Layout) {
        sections = (0..<layout.sectionCount).map { s in
            let f = layout.frames(ofSection: s)
            return Section(
                origin: f.origin, height: f.height, header: f.header, footer: f.footer, items: f.items.map(\.frame))
        }
    }

    public init(_ reference: [ReferenceLayout.Section]) {
        sections = reference.map {
            Section(origin: $0.origin, height: $0.height, header: $0.header, footer: $0.footer, items: $0.items)
        }
    }

    /// Replays `commands` on the indices (new items and sections are unknown until the diff fills them).
    public mutating func replay(_ commands: [LayoutCommand]) {
        for command in commands {
            switch command {
            case .insertItems(let s, let at, let items):
                sections[s].items.insert(contentsOf: repeatElement(nil, count: items.count), at: at)
            case .deleteItems(let s, let indices):
                for i in indices.sorted(by: >) { sections[s].items.remove(at: i) }
            case .moveItem(let from, let to):
                let frame = sections[from.section].items.remove(at: from.item)
                sections[to.section].items.insert(frame, at: to.item)
            case .insertSections(let at, let new):
                let blanks = new.map {
                    Section(
                        origin: .nan, height: .nan, header: nil, footer: nil,
                        items: Array(repeating: nil, count: $0.items.count))
                }
                sections.insert(contentsOf: blanks, at: at)
            case .deleteSections(let indices):
                for s in indices.sorted(by: >) { sections.remove(at: s) }
            case .moveSection(let from, let to):
                sections.insert(sections.remove(at: from), at: to)
            case .updateItems, .configureSection, .configureLayout:
                break
            }
        }
    }

    /// Applies a diff: shifts listed sections by `dy`, then overwrites what it lists.
    public mutating func apply(_ diff: LayoutDiff) {
        for entry in diff.sections {
            var section = sections[entry.section]
            if entry.isNew {
                section = Section(origin: entry.origin, height: entry.height, header: nil, footer: nil, items: [])
                section.items = Array(repeating: nil, count: entry.count)
            }
            if entry.dy != 0 {
                for k in section.items.indices { section.items[k]?.y += entry.dy }
                section.header?.y += entry.dy
                section.footer?.y += entry.dy
            }
            section.origin = entry.origin
            section.height = entry.height
            switch entry.header {
            case .unchanged: break
            case .set(let frame): section.header = frame
            case .removed: section.header = nil
            }
            switch entry.footer {
            case .unchanged: break
            case .set(let frame): section.footer = frame
            case .removed: section.footer = nil
            }
            for item in entry.items { section.items[item.index] = item.frame }
            sections[entry.section] = section
        }
    }
}
