import WaterfallModel

/// What a client holds of a layout: every section's frames, kept in sync by replaying each change on its indices
/// and applying its diff, as the Diffs article says.
///
/// Start from a full `layout.get`; then for each change (a result of this client's own request, or a
/// `layout.changed` event from any connection) the model replays the request's commands, adds `dy` to the old frames of
/// each listed section and of each section in a shift, and overwrites the listed items. A change whose seq the
/// model already holds is skipped, so a subscriber may apply both its own results and their events; a gap throws
/// `outOfSequence`, and the client should `layout.get` again.
///
///     var model = FrameModel(try await client.frames(of: "feed"))
///     for try await case .changed(let change) in try await client.subscribe("feed") { try model.apply(change) }
public struct FrameModel: Sendable, Hashable {
    /// An item's frame and id.
    public struct Item: Sendable, Hashable {
        public var frame: Rect
        public var id: String?

        public init(frame: Rect, id: String? = nil) {
            self.frame = frame
            self.id = id
        }
    }

    /// A section's frames; an item is nil between a replay and the diff that fills it.
    public struct Section: Sendable, Hashable {
        public var origin: Double
        public var height: Double
        public var header: Rect?
        public var footer: Rect?
        /// A pinned header's `pinMaxY`, as `layout.get` gives it; moved with its section, and replaced with the
        /// diff's when a diff sets the header.
        public var pinMaxY: Double?
        public var items: [Item?]

        public init(
            origin: Double, height: Double, header: Rect? = nil, footer: Rect? = nil, pinMaxY: Double? = nil,
            items: [Item?]
        ) {
            self.origin = origin
            self.height = height
            self.header = header
            self.footer = footer
            self.pinMaxY = pinMaxY
            self.items = items
        }

        /// Adds `dy` to every frame, or with `alongX` (a horizontal layout's `dx`) adds it to every x.
        mutating func shift(by dy: Double, alongX: Bool = false) {
            origin += dy
            pinMaxY? += dy
            header?.move(by: dy, alongX: alongX)
            footer?.move(by: dy, alongX: alongX)
            for k in items.indices { items[k]?.frame.move(by: dy, alongX: alongX) }
        }
    }

    public var seq: Int
    /// The content size of the last `layout.get`, mutation result or event.
    public var contentSize: Size
    public var sections: [Section]

    // MARK: Lifecycle

    public init(seq: Int, contentSize: Size, sections: [Section]) {
        self.seq = seq
        self.contentSize = contentSize
        self.sections = sections
    }

    /// The model of a full `layout.get` (every section).
    public init(_ frames: LayoutFrames) {
        seq = frames.seq
        contentSize = frames.contentSize
        sections = frames.sections.map { section in
            Section(
                origin: section.origin, height: section.height, header: section.header, footer: section.footer,
                pinMaxY: section.pinMaxY,
                items: section.items.map { Item(frame: $0.frame, id: $0.id) })
        }
    }

    // MARK: Public

    /// The number of items in all sections.
    public var itemCount: Int { sections.reduce(0) { $0 + $1.items.count } }

    /// Whether every item's frame is known (false only between a replay and its diff).
    public var isComplete: Bool { sections.allSatisfy { $0.items.allSatisfy { $0 != nil } } }

    /// Applies the result of this client's own request, given by the commands it sent (a `batch`'s in order); a
    /// result the model already holds is skipped.
    ///
    /// - Throws: `outOfSequence` if a change was missed, `mismatch` if the result has no diff or does not fit.
    public mutating func apply(_ result: MutationResult, replaying commands: [LayoutCommand]) throws(FrameModelError) {
        guard result.seq > seq else { return }
        guard result.seq == seq + 1 else { throw .outOfSequence(held: seq, received: result.seq) }
        guard let diff = result.diff else { throw .mismatch("the result has no diff (the request said diff: false)") }
        try replay(commands)
        try apply(diff)
        seq = result.seq
        contentSize = result.contentSize
    }

    /// Applies a `layout.changed` event, replaying the commands its `ops` decode to; an event the model already
    /// holds is skipped.
    ///
    /// - Throws: `outOfSequence` if an event was missed, `mismatch` if it does not fit.
    public mutating func apply(_ change: LayoutChange) throws(FrameModelError) {
        guard change.seq > seq else { return }
        guard change.seq == seq + 1 else { throw .outOfSequence(held: seq, received: change.seq) }
        try replay(change.commands)
        try apply(change.diff)
        seq = change.seq
        contentSize = change.contentSize
    }

    /// Replays commands on the indices: items and sections move with their frames, new ones are unknown (nil).
    ///
    /// - Complexity: O(items of the sections concerned) per command.
    public mutating func replay(_ commands: [LayoutCommand]) throws(FrameModelError) {
        for command in commands {
            try replay(command)
        }
    }

    /// Applies a diff after its request's replay: shifts listed and shifted sections by their `dy`, then
    /// overwrites what the diff lists.
    ///
    /// - Complexity: O(listed items + items of the sections that moved).
    public mutating func apply(_ diff: LayoutDiff) throws(FrameModelError) {
        // A horizontal layout's diff moves sections along x (Geometry, "Horizontal feeds").
        let alongX = diff.screen.axis == .horizontal
        for entry in diff.sections {
            guard sections.indices.contains(entry.section) else {
                throw .mismatch("diff lists section \(entry.section) of \(sections.count)")
            }
            var section = sections[entry.section]
            if entry.isNew {
                section = Section(
                    origin: entry.origin, height: entry.height, items: Array(repeating: nil, count: entry.count))
            }
            guard section.items.count == entry.count else {
                throw .mismatch(
                    "section \(entry.section) has \(section.items.count) items, the diff says \(entry.count)")
            }
            if entry.dy != 0 { section.shift(by: entry.dy, alongX: alongX) }
            section.origin = entry.origin
            section.height = entry.height
            (section.header, section.pinMaxY, section.footer) = entry.headerAndFooter(
                after: section.header, pinMaxY: section.pinMaxY, footer: section.footer)
            for item in entry.items {
                guard section.items.indices.contains(item.index) else {
                    throw .mismatch("diff lists item \(item.index) of section \(entry.section) (\(entry.count) items)")
                }
                section.items[item.index] = Item(frame: item.frame, id: item.id)
            }
            sections[entry.section] = section
        }
        for shift in diff.shifts {
            guard shift.from >= 0, shift.from <= shift.to, shift.to < sections.count else {
                throw .mismatch("shift of sections \(shift.from)...\(shift.to) of \(sections.count)")
            }
            for s in shift.from...shift.to { sections[s].shift(by: shift.dy, alongX: alongX) }
        }
    }

    // MARK: Private

    /// What `command` does to the indices. Exhaustive, so that a command added to the engine cannot be skipped here
    /// unnoticed.
    private mutating func replay(_ command: LayoutCommand) throws(FrameModelError) {
        switch command {
        case .insertItems(let s, let at, let items):
            try check(section: s, item: at, inclusive: true)
            sections[s].items.insert(contentsOf: repeatElement(nil, count: items.count), at: at)
        case .deleteItems(let s, let indices):
            for i in indices { try check(section: s, item: i) }
            guard Set(indices).count == indices.count else { throw .mismatch("delete items \(indices) twice over") }
            for i in indices.sorted(by: >) { sections[s].items.remove(at: i) }
        case .updateItems(let s, let updates):
            // An update whose frame did not change is not in the diff, even when its id changed: the id comes from here.
            for update in updates {
                try check(section: s, item: update.index)
                sections[s].items[update.index]?.id = update.item.id
            }
        case .moveItem(let from, let to):
            try check(section: from.section, item: from.item)
            // Checked against the counts after the removal, before it, so that a refused move changes nothing.
            try check(section: to.section, item: to.item, inclusive: from.section != to.section)
            let item = sections[from.section].items.remove(at: from.item)
            // An item moved to another section is new there, and the diff lists it.
            sections[to.section].items.insert(from.section == to.section ? item : nil, at: to.item)
        case .insertSections(let at, let specs):
            guard at >= 0, at <= sections.count else {
                throw .mismatch("insert sections at \(at) of \(sections.count)")
            }
            let blanks = specs.map {
                Section(origin: .nan, height: .nan, items: Array(repeating: nil, count: $0.items.count))
            }
            sections.insert(contentsOf: blanks, at: at)
        case .deleteSections(let indices):
            for s in indices where !sections.indices.contains(s) {
                throw .mismatch("delete section \(s) of \(sections.count)")
            }
            guard Set(indices).count == indices.count else { throw .mismatch("delete sections \(indices) twice over") }
            for s in indices.sorted(by: >) { sections.remove(at: s) }
        case .moveSection(let from, let to):
            guard sections.indices.contains(from), to >= 0, to < sections.count else {
                throw .mismatch("move section \(from) to \(to) of \(sections.count)")
            }
            sections.insert(sections.remove(at: from), at: to)
        case .configureSection(let s, _):
            // Indices stay; the diff lists what moved.
            guard sections.indices.contains(s) else { throw .mismatch("configure section \(s) of \(sections.count)") }
        case .configureLayout:
            break
        }
    }

    private func check(section s: Int, item i: Int, inclusive: Bool = false) throws(FrameModelError) {
        guard sections.indices.contains(s) else { throw .mismatch("section \(s) of \(sections.count)") }
        let count = sections[s].items.count
        guard i >= 0, inclusive ? i <= count : i < count else {
            throw .mismatch("item \(i) of section \(s) (\(count) items)")
        }
    }
}
