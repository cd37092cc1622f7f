import WaterfallModel

/// What a client holding a viewport's elements holds before a change: the elements `query` gives for the viewport,
/// headers by their resting frame and `pinMaxY` (what a diff sets), taken before the change is applied.
public struct ViewportHold: Sendable {
    /// One element held: an item (`index` ≥ 0), a header or a footer (`index` −1).
    struct Held: Sendable {
        var kind: Element.Kind
        var section: Int
        var index: Int
        var frame: Rect
        var pinMaxY: Double?
    }

    public let viewport: Viewport
    let elements: [Held]
    /// How the layout the elements were held from mapped to the screen: when a change alters it, every held frame
    /// moved on screen.
    var screen = ScreenMapping.identity
}

extension Layout {
    /// What a client holding `viewport`'s elements holds now: take it before a change, then give it to
    /// `scoped(_:hold:commands:anchor:)` after.
    ///
    /// - Complexity: that of `elements(in:)`: O(log sections + columns × log n + k) per section crossed.
    public func hold(_ viewport: Viewport) -> ViewportHold {
        // Stamps are not carried by diffs: a client reads them from a query, so none is held.
        let elements = elements(in: screen.flowViewport(viewport).rect).filter { $0.kind != .stamp }.map { element in
            var held = ViewportHold.Held(
                kind: element.kind, section: element.section, index: element.index ?? -1, frame: element.frame)
            if element.kind == .header, let rest = metrics[element.section].header {
                let origin = origins[element.section]
                held.frame = Self.absolute(rest, origin)
                held.pinMaxY = metrics[element.section].pinMaxY.map { origin + $0 }
            }
            return held
        }
        return ViewportHold(viewport: viewport, elements: elements, screen: screen)
    }

    /// The diff of the change `commands` (which left this layout, and whose full diff, with or without item frames,
    /// is `full`) scoped to a client holding `hold`: what Diffs.md's "Scoped diffs" says.
    ///
    /// Every section entry and shift of `full` stays (O(sections), as without a viewport), stripped of its items,
    /// headers and footers; then it lists, with their frames after the change,
    /// - each held item, header or footer that is still there and whose frame is not its old one plus its section's
    ///   `dy` (or that moved to another section), and each held header or footer that is gone (`removed`);
    /// - each item, header or footer in the viewport after the change (moved by the anchor's `dy`) that the client
    ///   does not hold, changed or not.
    /// A section that then lists something but was only in a shift gets an entry, its shift split around it.
    ///
    /// - Complexity: O(sections and shifts listed in `full` + (h + k) × log(h + k + commands)) for the h held
    ///   elements and the k in the viewport after, plus a query of the viewport, plus following the commands once
    ///   (`ForwardPaths`: linear in their size for the usual few commands): never the items the change moved, nor
    ///   held elements times commands. Nothing is derived from the placement's list of moved items: the held
    ///   elements carry their frames before, and the query finds those after.
    /// - Returns: the scoped diff and the viewport after the change.
    public func scoped(
        _ full: LayoutDiff, hold: ViewportHold, commands: [LayoutCommand], anchor: AnchorOutcome?
    ) -> (diff: LayoutDiff, viewport: Viewport) {
        var anchorDy = 0.0
        if case .moved(_, let dy) = anchor { anchorDy = dy }
        // The viewport is on screen (a horizontal layout's runs along x, reversed under rtl); the anchor's move is in
        // flow coordinates, like everything the engine holds.
        let after = hold.viewport.moved(by: screen.delta(anchorDy))
        var listing = ScopedListing(full)
        // Held frames are compared in flow coordinates; a new screen mapping moved them all on screen, so none is
        // carried (the full diff lists every section anew, and the client replaces what it held).
        let remapped = hold.screen != screen
        // Followed once: each held element's place after the change is then a lookup.
        let paths = ForwardPaths(commands)
        for held in hold.elements {
            guard let s = paths.section(after: held.section) else { continue }
            let dy = listing.dy(of: s)
            switch held.kind {
            case .item:
                guard let path = paths.path(after: ItemPath(section: held.section, item: held.index)) else { continue }
                let now = frame(ofItem: path)
                var predicted = held.frame
                predicted.y += dy
                // An item moved to another section is new there for the client, which holds no frame for it.
                if !remapped && path.section == s && now.frame == predicted
                    && screen.carries(held.frame, by: dy, to: now.frame)
                {
                    listing.carryItem(path)
                } else {
                    listing.addHeldItem(now, section: path.section)
                }
            case .header:
                let origin = origins[s]
                let pinMaxY = metrics[s].pinMaxY.map { origin + $0 }
                guard let rest = metrics[s].header.map({ Self.absolute($0, origin) }) else {
                    listing.headers[s] = (.removed, nil)
                    continue
                }
                var predicted = held.frame
                predicted.y += dy
                if !remapped && rest == predicted && held.pinMaxY.map({ $0 + dy }) == pinMaxY
                    && screen.carries(held.frame, by: dy, to: rest)
                    && screen.carriesPin(held.pinMaxY, by: dy, to: pinMaxY, extent: rest.height)
                {
                    listing.carried.insert(ScopedListing.Key(.header, s, -1))
                } else {
                    listing.headers[s] = (.set(rest), pinMaxY)
                }
            case .footer:
                guard let frame = metrics[s].footer.map({ Self.absolute($0, origins[s]) }) else {
                    listing.footers[s] = .removed
                    continue
                }
                var predicted = held.frame
                predicted.y += dy
                if !remapped && frame == predicted && screen.carries(held.frame, by: dy, to: frame) {
                    listing.carried.insert(ScopedListing.Key(.footer, s, -1))
                } else {
                    listing.footers[s] = .set(frame)
                }
            case .stamp:
                continue
            }
        }
        listing.sealHeldItems()
        for element in elements(in: screen.flowViewport(after).rect) {
            let s = element.section
            switch element.kind {
            case .item:
                listing.addItem(ItemFrame(index: element.index ?? -1, frame: element.frame, id: element.id), section: s)
            case .header:
                guard !listing.carried.contains(ScopedListing.Key(.header, s, -1)) else { continue }
                let origin = origins[s]
                guard let rest = metrics[s].header.map({ Self.absolute($0, origin) }) else { continue }
                listing.headers[s] = (.set(rest), metrics[s].pinMaxY.map { origin + $0 })
            case .footer:
                guard !listing.carried.contains(ScopedListing.Key(.footer, s, -1)) else { continue }
                listing.footers[s] = .set(element.frame)
            case .stamp:
                continue
            }
        }
        return (listing.diff(self), after)
    }
}

/// A scoped diff being built: the full diff's sections and shifts, and what the viewport lists by section.
private struct ScopedListing {
    struct Key: Hashable {
        var kind: Element.Kind
        var section: Int
        var index: Int

        init(_ kind: Element.Kind, _ section: Int, _ index: Int) {
            self.kind = kind
            self.section = section
            self.index = index
        }
    }

    let full: LayoutDiff
    /// The position of each section's entry in `full.sections`.
    let entryOf: [Int: Int]
    /// The headers and footers the client holds and moves right by itself, in the indices after the change.
    var carried: Set<Key> = []
    var items: [Int: [ItemFrame]] = [:]
    var headers: [Int: (FrameChange, Double?)] = [:]
    var footers: [Int: FrameChange] = [:]

    /// The places after the change of the held items, listed or carried: appended, then sorted
    /// (`sealHeldItems`) and searched, which costs less than hashing each.
    private var held: [ItemPath] = []

    init(_ full: LayoutDiff) {
        self.full = full
        var entryOf: [Int: Int] = [:]
        for (k, entry) in full.sections.enumerated() { entryOf[entry.section] = k }
        self.entryOf = entryOf
    }

    /// How far the client moves what it holds of section `s` (an index after the change).
    func dy(of s: Int) -> Double {
        if let k = entryOf[s] { return full.sections[k].dy }
        // Shifts are ascending and disjoint: the last one starting at or before `s`.
        var low = 0
        var high = full.shifts.count
        while low < high {
            let mid = (low + high) / 2
            if full.shifts[mid].from <= s { low = mid + 1 } else { high = mid }
        }
        guard low > 0, full.shifts[low - 1].to >= s else { return 0 }
        return full.shifts[low - 1].dy
    }

    /// Lists a held item at its place after the change (held items have distinct places).
    mutating func addHeldItem(_ item: ItemFrame, section s: Int) {
        held.append(ItemPath(section: s, item: item.index))
        items[s, default: []].append(item)
    }

    /// A held item the client moves right by itself, at `path` after the change.
    mutating func carryItem(_ path: ItemPath) {
        held.append(path)
    }

    /// Ends the held items: from here on, `addItem` skips those listed or carried.
    mutating func sealHeldItems() {
        held.sort { ($0.section, $0.item) < ($1.section, $1.item) }
    }

    /// Lists an item of the viewport after the change, unless a held one at its place was listed or carried.
    mutating func addItem(_ item: ItemFrame, section s: Int) {
        guard !isHeld(ItemPath(section: s, item: item.index)) else { return }
        items[s, default: []].append(item)
    }

    private func isHeld(_ path: ItemPath) -> Bool {
        var low = 0
        var high = held.count
        while low < high {
            let mid = (low + high) / 2
            if (held[mid].section, held[mid].item) < (path.section, path.item) { low = mid + 1 } else { high = mid }
        }
        return low < held.count && held[low] == path
    }

    /// The scoped diff, `layout` being the layout after the change.
    func diff(_ layout: Layout) -> LayoutDiff {
        var sections = full.sections.map { entry in
            var entry = entry
            entry.items = []
            entry.header = .unchanged
            entry.pinMaxY = nil
            entry.footer = .unchanged
            return entry
        }
        let touched = Set(items.keys).union(headers.keys).union(footers.keys)
        let added = touched.filter { entryOf[$0] == nil }.sorted()
        for s in added {
            let frames = layout.frames(ofSectionHead: s)
            sections.append(
                SectionDiff(
                    section: s, origin: frames.origin, height: frames.height, count: frames.count, dy: dy(of: s)))
        }
        let shifts = SectionShift.removing(added, from: full.shifts)
        sections.sort { $0.section < $1.section }
        for k in sections.indices {
            let s = sections[k].section
            if let list = items[s] { sections[k].items = list.sorted { $0.index < $1.index } }
            if let (header, pinMaxY) = headers[s] {
                sections[k].header = header
                sections[k].pinMaxY = pinMaxY
            }
            if let footer = footers[s] { sections[k].footer = footer }
        }
        return LayoutDiff(sections: sections, shifts: shifts)
    }
}

extension Layout {
    /// Refuses a viewport along the other axis than the layout's feed: `{"y", "h"}` for a horizontal layout, or
    /// `{"x", "w"}` for a vertical one.
    public func check(_ viewport: Viewport) throws(LayoutError) {
        guard viewport.axis != axis else { return }
        let (given, wanted) = axis == .horizontal ? ("{y, h}", "{x, w}") : ("{x, w}", "{y, h}")
        throw .invalidValue(field: "viewport", value: given, reason: "must be \(wanted) for a \(axis) layout")
    }

    /// Section `s`'s origin, height and count, without its frames.
    func frames(ofSectionHead s: Int) -> (origin: Double, height: Double, count: Int) {
        (origins[s], metrics[s].height, metrics[s].count)
    }
}

extension Layout {
    /// What a client that holds nothing needs to hold `viewport`'s elements: the scoped diff of no change from an
    /// empty hold (each section crossed gets an entry; headers come with their resting frame and `pinMaxY`).
    public func scopedSnapshot(_ viewport: Viewport) -> LayoutDiff {
        scoped(LayoutDiff(), hold: ViewportHold(viewport: viewport, elements: []), commands: [], anchor: nil).diff
    }
}

extension SectionShift {
    /// `shifts` without the sections `removed` (ascending), each run split around those it holds.
    ///
    /// - Complexity: O(shifts + removed), in one pass: a viewport may hold many sections of one run.
    static func removing(_ removed: [Int], from shifts: [SectionShift]) -> [SectionShift] {
        guard !removed.isEmpty else { return shifts }
        var result: [SectionShift] = []
        result.reserveCapacity(shifts.count + removed.count)
        var next = 0
        for run in shifts {
            var from = run.from
            while next < removed.count && removed[next] < from { next += 1 }
            while next < removed.count && removed[next] <= run.to {
                if from < removed[next] { result.append(SectionShift(from: from, to: removed[next] - 1, dy: run.dy)) }
                from = removed[next] + 1
                next += 1
            }
            if from <= run.to { result.append(SectionShift(from: from, to: run.to, dy: run.dy)) }
        }
        return result
    }
}
