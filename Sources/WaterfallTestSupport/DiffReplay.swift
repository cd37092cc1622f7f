import WaterfallClient
import WaterfallLayout

/// What a client holds: every section's frames. It replays commands on its indices and applies diffs, as
/// the Diffs article tells clients to, so tests can check that a diff brings old frames to the new ones exactly.
package struct ClientFrames: Sendable, Equatable {
    package struct Section: Sendable, Equatable {
        package var origin: Double
        package var height: Double
        package var header: Rect?
        /// A pinned header's `pinMaxY`.
        package var pinMaxY: Double?
        package var footer: Rect?
        package var items: [Rect?]
        /// Whether the replay changed the item count, which lets a diff list the section for that alone; not
        /// part of the frames, so not compared.
        var isRecounted = false

        package static func == (a: Self, b: Self) -> Bool {
            a.origin == b.origin && a.height == b.height && a.header == b.header && a.pinMaxY == b.pinMaxY
                && a.footer == b.footer && a.items == b.items
        }
    }

    package var sections: [Section]

    package init(_ layout: Layout) {
        sections = (0..<layout.sectionCount).map { s in
            let f = layout.frames(ofSection: s)
            return Section(
                origin: f.origin, height: f.height, header: f.header, pinMaxY: f.pinMaxY, footer: f.footer,
                items: f.items.map(\.frame))
        }
    }

    package init(_ reference: [ReferenceLayout.Section]) {
        sections = reference.map {
            Section(
                origin: $0.origin, height: $0.height, header: $0.header, pinMaxY: $0.pinMaxY, footer: $0.footer,
                items: $0.items)
        }
    }

    /// Replays `commands` on the indices (new items and sections are unknown until the diff fills them).
    package mutating func replay(_ commands: [LayoutCommand]) {
        for command in commands {
            switch command {
            case .insertItems(let s, let at, let items):
                sections[s].items.insert(contentsOf: repeatElement(nil, count: items.count), at: at)
                sections[s].isRecounted = true
            case .deleteItems(let s, let indices):
                for i in indices.sorted(by: >) { sections[s].items.remove(at: i) }
                sections[s].isRecounted = true
            case .moveItem(let from, let to):
                let frame = sections[from.section].items.remove(at: from.item)
                sections[to.section].items.insert(frame, at: to.item)
                if from.section != to.section {
                    sections[from.section].isRecounted = true
                    sections[to.section].isRecounted = true
                }
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

    /// Applies a diff: moves listed sections and those in shifts by `dy`, then overwrites what it lists.
    ///
    /// Throws, before changing anything, when the diff is larger than the Diffs article allows: a listed section that
    /// could have been a shift (or that changed in nothing; a section whose old origin plus `dy` is not its new
    /// origin to the last bit must be listed), a shift that overlaps a listed section or another
    /// shift, or two adjacent shifts with the same `dy` (runs are maximal). `screen` is the layout's after the change:
    /// under a horizontal rtl one a section is listed, not shifted, where its start on screen, −(origin + height),
    /// moved by −dy misses the new one in the last bit.
    package mutating func apply(_ diff: LayoutDiff, screen: ScreenMapping = .identity) throws(WireFormatError) {
        try check(diff, screen: screen)
        // The client library's model applies it: every diff the engine tests replay checks the client too.
        var model = FrameModel(
            seq: 0, contentSize: Size(width: 0, height: 0),
            sections: sections.map { section in
                FrameModel.Section(
                    origin: section.origin, height: section.height, header: section.header, footer: section.footer,
                    pinMaxY: section.pinMaxY, items: section.items.map { $0.map { FrameModel.Item(frame: $0) } })
            })
        do {
            try model.apply(diff)
        } catch {
            throw WireFormatError("\(error)")
        }
        sections = model.sections.map { section in
            Section(
                origin: section.origin, height: section.height, header: section.header, pinMaxY: section.pinMaxY,
                footer: section.footer, items: section.items.map { $0?.frame })
        }
    }

    // MARK: Private

    /// Refuses a diff that lists what it need not (see `apply`), given the frames held after the replay.
    private func check(_ diff: LayoutDiff, screen: ScreenMapping) throws(WireFormatError) {
        var listed = Set<Int>()
        for entry in diff.sections {
            listed.insert(entry.section)
            guard !entry.isNew, entry.items.isEmpty, entry.header == .unchanged, entry.footer == .unchanged,
                sections.indices.contains(entry.section)
            else { continue }
            let held = sections[entry.section]
            // Listed for its origin alone is right only where old origin + dy misses the new one in the last bit.
            if entry.height == held.height && !held.isRecounted && held.origin + entry.dy == entry.origin
                && screen.start(held.origin, extent: held.height) + screen.delta(entry.dy)
                    == screen.start(entry.origin, extent: entry.height)
            {
                throw WireFormatError(
                    "section \(entry.section) is listed but only moved (dy \(entry.dy), from \(held.origin) to "
                        + "\(entry.origin), height \(entry.height), count \(entry.count)): a shift")
            }
        }
        var previous: SectionShift?
        for shift in diff.shifts {
            guard shift.from <= shift.to, shift.dy != 0, sections.indices.contains(shift.from),
                sections.indices.contains(shift.to)
            else { throw WireFormatError("shift \(shift) is empty, of dy 0 or out of range") }
            if let previous {
                guard previous.to < shift.from else { throw WireFormatError("shifts \(previous), \(shift) overlap") }
                guard previous.to + 1 < shift.from || previous.dy != shift.dy else {
                    throw WireFormatError("shifts \(previous), \(shift) are one run")
                }
            }
            if let s = (shift.from...shift.to).first(where: listed.contains) {
                throw WireFormatError("section \(s) is both listed and in shift \(shift)")
            }
            previous = shift
        }
    }
}
