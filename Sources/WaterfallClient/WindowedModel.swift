import WaterfallModel

/// What a client of a long feed holds: only the frames its viewport shows, kept in sync by scoped diffs and events
/// (Diffs.md, "Scoped diffs").
///
/// Start from a scoped snapshot (`subscribe(_:viewport:)` answers one); then for each change replay its commands
/// on the indices of what it holds, apply its scoped diff, move the viewport by the anchor's `dy` (for the result
/// of its own request), and drop what left the viewport. To scroll, move to the snapshot `moveViewport(of:to:)`
/// answers. The invariant: `elements` equals a fresh `query` of `viewport.rect`, but for stamps, which scoped
/// diffs do not list (a section's stamps are its `stamps` property, in the section's coordinates: the client that
/// set them places them). Memory and work per change are those of the viewport, not of the layout.
public struct WindowedModel: Sendable, Hashable {
    /// What is held of one section.
    public struct Section: Sendable, Hashable {
        /// The header's resting frame and, when pinned, its `pinMaxY` (absolute; a horizontal layout's `pinMaxX`, or
        /// under rtl its `pinMinX`).
        public var header: Rect?
        public var pinMaxY: Double?
        /// Whether `pinMaxY` is a horizontal rtl layout's `pinMinX`: the header then pins to the band's right edge.
        public var pinReversed = false
        public var footer: Rect?
        public var items: [Int: FrameModel.Item] = [:]

        var isEmpty: Bool { header == nil && footer == nil && items.isEmpty }

        /// Adds `delta` to every frame along the feed: y, or x for a horizontal layout.
        mutating func shift(by delta: Double, alongX: Bool) {
            pinMaxY? += delta
            header?.move(by: delta, alongX: alongX)
            footer?.move(by: delta, alongX: alongX)
            for key in items.keys { items[key]?.frame.move(by: delta, alongX: alongX) }
        }
    }

    public private(set) var seq: Int
    public private(set) var contentSize: Size
    public private(set) var viewport: Viewport
    /// The sections held, by index.
    public private(set) var sections: [Int: Section] = [:]

    // MARK: Lifecycle

    /// The model of a scoped snapshot of `viewport` at `seq`.
    public init(seq: Int, contentSize: Size, viewport: Viewport, snapshot: LayoutDiff) throws(FrameModelError) {
        self.seq = seq
        self.contentSize = contentSize
        self.viewport = viewport
        try apply(snapshot)
        prune()
    }

    /// The model of a scoped `subscribe`'s answer.
    public init(_ snapshot: ViewportSnapshot) throws(FrameModelError) {
        try self.init(
            seq: snapshot.seq, contentSize: snapshot.contentSize, viewport: snapshot.viewport, snapshot: snapshot.diff)
    }

    // MARK: Public

    /// The headers, items and footers in the viewport, as `query` orders and places them (pinned headers included).
    public var elements: [Element] {
        var result: [Element] = []
        let rect = viewport.rect
        let alongX = viewport.axis == .horizontal
        for s in sections.keys.sorted() {
            guard let section = sections[s] else { continue }
            if let element = Self.header(section, s, in: rect, alongX: alongX) { result.append(element) }
            for index in section.items.keys.sorted() {
                guard let item = section.items[index] else { continue }
                result.append(Element(kind: .item, section: s, index: index, frame: item.frame, id: item.id))
            }
            if let footer = section.footer {
                result.append(Element(kind: .footer, section: s, index: nil, frame: footer, id: nil))
            }
        }
        return result
    }

    /// Moves to another viewport: `snapshot` is the scoped snapshot of `viewport` at `seq` (what `subscribe`
    /// answers), which replaces everything held.
    public mutating func move(to viewport: Viewport, seq: Int, contentSize: Size, snapshot: LayoutDiff)
        throws(FrameModelError)
    {
        self = try WindowedModel(seq: seq, contentSize: contentSize, viewport: viewport, snapshot: snapshot)
    }

    /// Moves to the viewport of `snapshot` (what `moveViewport(of:to:)` answers), which replaces everything held.
    public mutating func move(to snapshot: ViewportSnapshot) throws(FrameModelError) {
        self = try WindowedModel(snapshot)
    }

    /// Applies a `layout.changed` event of a scoped subscription; an event the model already holds (up to a
    /// snapshot's `seq`) is skipped. The viewport stays: the requester's anchor moves the requester's viewport, not
    /// the subscribers'.
    ///
    /// - Throws: `outOfSequence` when an event was missed, `mismatch` when it does not fit.
    public mutating func apply(_ change: LayoutChange) throws(FrameModelError) {
        try apply(
            seq: change.seq, commands: change.commands, diff: change.diff, anchor: nil, contentSize: change.contentSize)
    }

    /// Applies the result of this client's own request, made with `commands` and with `MutationOptions.viewport`
    /// set to this model's viewport; the viewport then moves by the result's anchor, if the request named one.
    ///
    /// - Throws: `outOfSequence` when a change was missed, `mismatch` when the result has no diff or does not fit.
    public mutating func apply(_ result: MutationResult, commands: [LayoutCommand]) throws(FrameModelError) {
        guard result.seq > seq else { return }
        guard let diff = result.diff else { throw .mismatch("the result has no diff (the request said diff: false)") }
        try apply(
            seq: result.seq, commands: commands, diff: diff, anchor: result.anchor, contentSize: result.contentSize)
    }

    /// Applies a change at `seq` made of `commands` (by their indices, as its request or event lists them), with
    /// its scoped diff and anchor outcome; a change the model already holds is skipped.
    ///
    /// - Throws: `outOfSequence` when a change was missed (take a new snapshot), `mismatch` when the diff does not
    ///   fit.
    public mutating func apply(
        seq: Int, commands: [LayoutCommand], diff: LayoutDiff, anchor: AnchorOutcome?, contentSize: Size
    ) throws(FrameModelError) {
        guard seq > self.seq else { return }
        guard seq == self.seq + 1 else { throw .outOfSequence(held: self.seq, received: seq) }
        for command in commands { replay(command) }
        try apply(diff)
        switch anchor {
        case .moved(_, let delta)?, .movedAlongX(_, let delta)?: viewport = viewport.moved(by: delta)
        case .removed?, nil: break
        }
        prune()
        self.seq = seq
        self.contentSize = contentSize
    }

    // MARK: Private

    /// The header as `query` gives it for `rect`: a pinned header sits at `min(max(rect.y, y), pinMaxY)`; in a
    /// horizontal layout at `min(max(rect.x, x), pinMaxX)`, or under rtl, where it pins to the band's right edge, at
    /// `max(min(rect.maxX - w, x), pinMinX)` (Geometry, "Horizontal feeds").
    private static func header(_ section: Section, _ s: Int, in rect: Rect, alongX: Bool) -> Element? {
        guard var frame = section.header else { return nil }
        let resting = frame
        if let bound = section.pinMaxY {
            if !alongX {
                frame.y = min(max(rect.y, frame.y), bound)
            } else if section.pinReversed {
                frame.x = max(min(rect.x + rect.width - frame.width, frame.x), bound)
            } else {
                frame.x = min(max(rect.x, frame.x), bound)
            }
        }
        guard frame.isVisible(in: rect) else { return nil }
        return Element(kind: .header, section: s, index: nil, frame: frame, id: nil, pinned: frame != resting)
    }

    /// Moves what is held to the indices after `command`; an item moved to another section is dropped (the diff
    /// lists it there if the viewport shows it).
    private mutating func replay(_ command: LayoutCommand) {
        switch command {
        case .insertItems, .deleteItems, .moveItem:
            let old = sections
            sections = [:]
            for (s, section) in old {
                for (index, item) in section.items {
                    guard let path = ItemPath(section: s, item: index).following([command]), path.section == s else {
                        continue
                    }
                    sections[s, default: Section()].items[path.item] = item
                }
                sections[s, default: Section()].header = section.header
                sections[s, default: Section()].pinMaxY = section.pinMaxY
                sections[s, default: Section()].pinReversed = section.pinReversed
                sections[s, default: Section()].footer = section.footer
            }
        case .updateItems(let s, let updates):
            for update in updates where sections[s]?.items[update.index] != nil {
                sections[s]?.items[update.index]?.id = update.item.id
            }
        case .insertSections, .deleteSections, .moveSection:
            let old = sections
            sections = [:]
            for (s, section) in old {
                guard let moved = command.movedIndex(ofSection: s) else { continue }
                sections[moved] = section
            }
        case .configureSection, .configureLayout:
            break
        }
    }

    /// Shifts what is held by each section's `dy` (a horizontal layout's `dx`), then sets what the diff lists.
    private mutating func apply(_ diff: LayoutDiff) throws(FrameModelError) {
        let alongX = viewport.axis == .horizontal
        for entry in diff.sections {
            var section = entry.isNew ? Section() : sections[entry.section] ?? Section()
            if entry.dy != 0 { section.shift(by: entry.dy, alongX: alongX) }
            (section.header, section.pinMaxY, section.footer) = entry.headerAndFooter(
                after: section.header, pinMaxY: section.pinMaxY, footer: section.footer)
            // A header listed anew brings its bound under the diff's key: `pinMinX` is rtl's.
            if case .set = entry.header { section.pinReversed = diff.screen.reversed }
            for item in entry.items {
                guard item.index >= 0, item.index < entry.count else {
                    throw .mismatch("diff lists item \(item.index) of section \(entry.section) (\(entry.count) items)")
                }
                section.items[item.index] = FrameModel.Item(frame: item.frame, id: item.id)
            }
            sections[entry.section] = section
        }
        for shift in diff.shifts {
            for s in sections.keys where s >= shift.from && s <= shift.to {
                sections[s]?.shift(by: shift.dy, alongX: alongX)
            }
        }
    }

    /// Drops what is not in the viewport.
    private mutating func prune() {
        let rect = viewport.rect
        let alongX = viewport.axis == .horizontal
        for s in Array(sections.keys) {
            guard var section = sections[s] else { continue }
            section.items = section.items.filter { $0.value.frame.isVisible(in: rect) }
            if Self.header(section, s, in: rect, alongX: alongX) == nil {
                section.header = nil
                section.pinMaxY = nil
            }
            if let footer = section.footer, !footer.isVisible(in: rect) { section.footer = nil }
            sections[s] = section.isEmpty ? nil : section
        }
    }
}
