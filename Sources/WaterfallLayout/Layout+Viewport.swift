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

    /// A section whose every item is in the viewport: its items are held as the section's state, whose storage the
    /// hold shares (a change copies it then), rather than one by one.
    struct WholeSection: Sendable {
        var section: Int
        var origin: Double
        var state: SectionState
    }

    public let viewport: Viewport
    /// The held headers and footers, and the held items of the sections not held whole.
    let elements: [Held]
    var wholeSections: [WholeSection] = []
    /// How the layout the elements were held from mapped to the screen: when a change alters it, every held frame
    /// moved on screen.
    var screen = ScreenMapping.identity
}

extension Layout {
    /// What a client holding `viewport`'s elements holds now: take it before a change, then give it to
    /// `scoped(_:hold:commands:anchor:)` after.
    ///
    /// - Complexity: O(log sections + columns × log n + k) per section crossed, as `elements(in:)`, but O(1) for a
    ///   section wholly in the viewport.
    public func hold(_ viewport: Viewport) -> ViewportHold {
        let rect = screen.flowViewport(viewport).rect
        var elements: [ViewportHold.Held] = []
        var whole: [ViewportHold.WholeSection] = []
        var s = firstSection(endingAtOrBelow: rect.y)
        // Through the buffer so that no section is copied (retaining all its arrays) per section.
        sections.withUnsafeBufferPointer { sections in
            while s < sections.count && origins[s] <= rect.maxY {
                let origin = origins[s]
                // Stamps are not carried by diffs: a client reads them from a query, so none is held.
                if sections[s].headerElement(section: s, origin: origin, in: rect) != nil,
                    let rest = metrics[s].header
                {
                    elements.append(
                        ViewportHold.Held(
                            kind: .header, section: s, index: -1, frame: Self.absolute(rest, origin),
                            pinMaxY: metrics[s].pinMaxY.map { origin + $0 }))
                }
                if isWhole(s, in: rect) {
                    whole.append(ViewportHold.WholeSection(section: s, origin: origin, state: sections[s]))
                } else {
                    for item in sections[s].visibleItems(origin: origin, in: rect) {
                        let frame = Self.absolute(sections[s].localFrame(at: Int(item)), origin)
                        elements.append(ViewportHold.Held(kind: .item, section: s, index: Int(item), frame: frame))
                    }
                }
                if let footer = metrics[s].footer.map({ Self.absolute($0, origin) }), footer.isVisible(in: rect) {
                    elements.append(ViewportHold.Held(kind: .footer, section: s, index: -1, frame: footer))
                }
                s += 1
            }
        }
        return ViewportHold(viewport: viewport, elements: elements, wholeSections: whole, screen: screen)
    }

    /// Whether every item of section `s` is in `rect` (a band of every x, in flow coordinates), so that a query of
    /// `rect` lists them all: the section holds items and lies inside the band, its bottom strictly (an item of no
    /// height at the band's end is outside it). No item is above its section's origin (insets are not negative),
    /// and rounding keeps each item's absolute y at or below its section's absolute bottom.
    func isWhole(_ s: Int, in rect: Rect) -> Bool {
        metrics[s].count > 0 && origins[s] >= rect.y && origins[s] + metrics[s].height < rect.maxY
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
    ///   elements carry their frames before, and the query finds those after. A section held whole that lies wholly
    ///   in the viewport after is compared item by item with the state the hold kept, in runs (no lookup, query or
    ///   search per item): O(its items), with a small constant, since a viewport over a whole layout is a diff as
    ///   large as a full one and must cost about as much.
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
        let afterRect = screen.flowViewport(after).rect
        /// Lists or carries the held item `index` of old section `section`, whose frame was `old`.
        func visitHeldItem(section: Int, index: Int, old: Rect) {
            guard let path = paths.path(after: ItemPath(section: section, item: index)) else { return }
            let now = frame(ofItem: path)
            // An item moved to another section (which may since be gone) is new there for the client, which holds
            // no frame for it.
            if !remapped, let s = paths.section(after: section), path.section == s {
                let dy = listing.dy(of: s)
                var predicted = old
                predicted.y += dy
                if now.frame == predicted && screen.carries(old, by: dy, to: now.frame) {
                    listing.carryItem(path)
                    return
                }
            }
            listing.addHeldItem(now, section: path.section)
        }
        // Sections held whole that are whole after too are compared run by run, their items never looked up one by
        // one; the others are held item by item from the state the hold kept.
        var compared: [(whole: ViewportHold.WholeSection, after: Int)] = []
        for whole in hold.wholeSections {
            let s = paths.section(after: whole.section)
            let isCompared = s.map { !remapped && isWhole($0, in: afterRect) } ?? false
            if s == nil || isCompared {
                // Those that went to another section are new there for the client: listed, wherever they are.
                for (_, to) in paths.itemsLeaving(section: whole.section) {
                    listing.addHeldItem(frame(ofItem: to), section: to.section)
                }
            }
            guard let s else { continue }
            if isCompared {
                compared.append((whole, s))
                listing.wholeAfter.insert(s)
                continue
            }
            for i in 0..<whole.state.count {
                visitHeldItem(
                    section: whole.section, index: i, old: Self.absolute(whole.state.localFrame(at: i), whole.origin))
            }
        }
        for held in hold.elements {
            if held.kind == .item {
                visitHeldItem(section: held.section, index: held.index, old: held.frame)
                continue
            }
            guard let s = paths.section(after: held.section) else { continue }
            let dy = listing.dy(of: s)
            switch held.kind {
            case .item, .stamp:
                // Items are visited above, whatever became of their section; stamps are never held.
                continue
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
            }
        }
        listing.sealHeldItems()
        for (whole, s) in compared {
            listing.addChangedItems(ofSection: s, heldWhole: whole, in: self, paths: paths)
        }
        for element in elements(in: afterRect, skippingItemsOf: listing.wholeAfter) {
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

    /// The sections after the change whose items are compared whole (`addChangedItems`), never queried.
    var wholeAfter: Set<Int> = []

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

    /// Lists the items of section `s` of `layout` (after the change) that a client holding `whole` (section `s`
    /// before it, held whole) must be sent, `s` lying wholly in the viewport after: those that are new to it (new, or
    /// from another section, unless a held one already listed) and its items whose frame is not the old one plus
    /// the section's `dy`.
    ///
    /// - Complexity: O(the section's items + runs), with no lookup per item but for those from other sections.
    mutating func addChangedItems(
        ofSection s: Int, heldWhole whole: ViewportHold.WholeSection, in layout: Layout, paths: ForwardPaths
    ) {
        let dy = dy(of: s)
        let origin = layout.origins[s]
        let screen = layout.screen
        var list: [ItemFrame] = []
        let now = layout.sections[s]
        paths.forEachSource(ofSection: s, count: now.count) { at, count, from in
            guard let from, from.section == whole.section else {
                for j in at..<(at + count) where from == nil || !isHeld(ItemPath(section: s, item: j)) {
                    list.append(now.itemFrame(j, origin: origin))
                }
                return
            }
            for k in 0..<count {
                let old = Layout.absolute(whole.state.localFrame(at: from.item + k), whole.origin)
                let frame = Layout.absolute(now.localFrame(at: at + k), origin)
                var predicted = old
                predicted.y += dy
                if frame != predicted || !screen.carries(old, by: dy, to: frame) {
                    list.append(ItemFrame(index: at + k, frame: frame, id: now.id(at: at + k)))
                }
            }
        }
        guard !list.isEmpty else { return }
        // Moved in whole when the section lists nothing else (the usual case): a copy retains every id.
        if items[s] == nil { items[s] = list } else { items[s]?.append(contentsOf: list) }
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
            if let list = items[s] {
                // A section compared whole lists in order already: sorting would copy every frame.
                let ordered = zip(list, list.dropFirst()).allSatisfy { $0.index < $1.index }
                sections[k].items = ordered ? list : list.sorted { $0.index < $1.index }
            }
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
