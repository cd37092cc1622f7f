import WaterfallModel

/// What the origins and the diff need of a section, kept beside it as plain values.
///
/// Reading these from `SectionState` in a loop over a thousand sections would copy each section (retaining all its
/// arrays) just to read a height; this array of plain values is read instead, and updated when a section is placed.
struct SectionMetrics: Sendable, Hashable {
    var height: Double
    var count: Int
    var header: Rect?
    /// The header's local `pinMaxY` when it is pinned.
    var pinMaxY: Double?
    var footer: Rect?
    var isExact: Bool
    var columns: Int

    /// Borrowing: an initializer takes its arguments owned, and would copy `section`.
    init(_ section: borrowing SectionState) {
        self.init(
            height: section.height, count: section.count, header: section.localHeaderFrame,
            pinMaxY: section.localPinMaxY, footer: section.localFooterFrame, isExact: section.isExact,
            columns: section.geometry.columnCount)
    }

    init(
        height: Double, count: Int, header: Rect?, pinMaxY: Double?, footer: Rect?, isExact: Bool, columns: Int
    ) {
        self.height = height
        self.count = count
        self.header = header
        self.pinMaxY = pinMaxY
        self.footer = footer
        self.isExact = isExact
        self.columns = columns
    }

    /// A stand-in for a section not placed yet.
    static let unplaced = SectionMetrics()

    private init() {
        height = 0
        count = 0
        isExact = false
        columns = 0
    }
}

extension Layout {
    /// The diff of a change, from what placement reported and the summaries taken when sections were touched.
    ///
    /// - Complexity: O(sections + listed items); O(items) more for a moved section whose positions are not exact
    ///   (see `Exactness`), where only a check of each item can tell whether adding `dy` gives its new frame. The
    ///   item frames are built in a task group when there are many (a width change lists every item).
    mutating func diff(_ batch: Batch, changed: PlacedLists, listingItems: Bool = true) async -> LayoutDiff {
        let diff = entries(batch, changed: changed)
        guard listingItems && diff.total > 0 else { return diff.unfilled }
        return await diff.finished(&self)
    }

    /// The entries of `diff`, before their item frames are built.
    private func entries(_ batch: Batch, changed: PlacedLists) -> DiffEntries {
        var diff = DiffEntries()
        for s in metrics.indices {
            let origin = origins[s]
            let now = metrics[s]
            let old = batch.oldIndex[s]
            // A new section, or every section when the screen mapping changed: a client replaces what it held.
            guard old >= 0, !batch.screenChanged else {
                diff.entries.append(
                    SectionDiff(
                        section: s, origin: origin, height: now.height, count: now.count, isNew: true,
                        header: now.header.map { .set(Self.absolute($0, origin)) } ?? .unchanged,
                        pinMaxY: now.pinMaxY.map { origin + $0 },
                        footer: now.footer.map { .set(Self.absolute($0, origin)) } ?? .unchanged))
                diff.list(.all, count: now.count)
                continue
            }
            let oldOrigin = batch.oldOrigins[old]
            // A section nobody touched is as it was but for its origin: skip it cheaply when that stayed too.
            if !batch.changes.has(s) && oldOrigin == origin { continue }
            // Only a changed section was placed, so only its lookups can find anything (there are often a thousand).
            let before = batch.changes.oldMetrics(s)
            let placed = before == nil ? [] : changed[s] ?? []
            addExistingEntry(s, before: before ?? now, oldOrigin: oldOrigin, listed: placed, to: &diff)
        }
        return diff
    }

    /// Adds the entry of section `s`, which existed before the change with `before`'s metrics at `oldOrigin`, and
    /// lists `listed` (the re-placed items, ascending) plus any whose shift is not exact; adds it to the shifts
    /// instead when only its origin moved, and adds nothing, returning false, when nothing of the section moved.
    ///
    /// Sections must be added in ascending order, so that a shift can extend the run before it.
    ///
    /// It appends rather than returning the entry: a large optional returned by a function that is not inlined is
    /// copied on the way out and again into the array.
    @discardableResult
    func addExistingEntry(
        _ s: Int, before: SectionMetrics, oldOrigin: Double, listed: [Int32], to diff: inout DiffEntries
    ) -> Bool {
        let origin = origins[s]
        let now = metrics[s]
        let dy = origin - oldOrigin
        var listed = listed
        if dy != 0 && !(now.isExact && Exactness.isExact(origin) && Exactness.isExact(oldOrigin)) {
            listed = sections[s].addingInexactShifts(listed, from: oldOrigin, to: origin, dy: dy, screen: screen)
        }
        var header = Self.change(before.header, now.header, oldOrigin, origin, dy, screen)
        let pinMaxY = now.pinMaxY.map { origin + $0 }
        // A pinned range that moved other than with the section (or was switched on or off) lists the header too,
        // so that the client's copy of it, moved by `dy`, is overwritten.
        if header == .unchanged, let frame = now.header,
            before.pinMaxY.map({ (oldOrigin + $0) + dy }) != pinMaxY
                || !screen.carriesPin(
                    before.pinMaxY.map { oldOrigin + $0 }, by: dy, to: pinMaxY, extent: frame.height)
        {
            header = .set(Self.absolute(frame, origin))
        }
        let footer = Self.change(before.footer, now.footer, oldOrigin, origin, dy, screen)
        let changed =
            now.height != before.height || now.count != before.count || header != .unchanged
            || footer != .unchanged || !listed.isEmpty
        if !changed {
            guard dy != 0 else { return false }
            // A client finds a shifted section's origin as its old one plus dy: where that is not the new origin to
            // the last bit (non-dyadic values), the section is listed with its origin instead.
            // Under rtl the client moves the section's start, −(origin + height), by −dy: that must land there too.
            if oldOrigin + dy == origin
                && (!screen.reversed
                    || screen.start(oldOrigin, extent: now.height) + screen.delta(dy)
                        == screen.start(origin, extent: now.height))
            {
                diff.addShift(s, dy: dy)
                return true
            }
        }
        diff.entries.append(
            SectionDiff(
                section: s, origin: origin, height: now.height, count: now.count, dy: dy, header: header,
                pinMaxY: header == .unchanged ? nil : pinMaxY, footer: footer))
        diff.list(.some(listed), count: listed.count)
        return true
    }

    /// The entries of a change to section `s` alone, which had `before`'s metrics and re-placed `listed`; the
    /// origins are already new, and `oldOriginsBelow[k]` is the old origin of section `s + 1 + k`.
    func entries(ofSection s: Int, before: SectionMetrics, listed: [Int32], oldOriginsBelow: [Double]) -> DiffEntries {
        var diff = DiffEntries()
        // Nothing moved (an update to the same frames): the sections below stay too.
        guard addExistingEntry(s, before: before, oldOrigin: origins[s], listed: listed, to: &diff) else {
            return diff
        }
        for k in (s + 1)..<sections.count where origins[k] != oldOriginsBelow[k - s - 1] {
            addExistingEntry(k, before: metrics[k], oldOrigin: oldOriginsBelow[k - s - 1], listed: [], to: &diff)
        }
        return diff
    }

    static func absolute(_ local: Rect, _ origin: Double) -> Rect {
        var frame = local
        frame.y = origin + local.y
        return frame
    }

    // MARK: Private

    private static func change(
        _ old: Rect?, _ new: Rect?, _ oldOrigin: Double, _ origin: Double, _ dy: Double, _ screen: ScreenMapping
    ) -> FrameChange {
        switch (old, new) {
        case (nil, nil): return .unchanged
        case (.some, nil): return .removed
        case (nil, let new?): return .set(absolute(new, origin))
        case (let old?, let new?):
            let held = absolute(old, oldOrigin)
            var shifted = held
            shifted.y += dy
            let frame = absolute(new, origin)
            return shifted == frame && screen.carries(held, by: dy, to: frame) ? .unchanged : .set(frame)
        }
    }
}

/// The entries of a diff being built, and the items each lists.
struct DiffEntries {
    var entries: [SectionDiff] = []
    /// The runs of sections that only moved, each extended while the next section moves by the same `dy`.
    private(set) var shifts: [SectionShift] = []
    /// One per entry, or empty while no entry lists an item (an append lists its new items apart, and sections
    /// that only moved list none): an array fewer for most changes.
    private(set) var listings = ItemListings()
    /// The items listed in all.
    private(set) var total = 0

    /// Records the listing of the entry appended last, which lists `count` items.
    mutating func list(_ listing: ItemListing, count: Int) {
        guard count > 0 || !listings.isEmpty else { return }
        // The entries added before the first that lists items list none.
        while listings.count < entries.count - 1 { listings.append(.some([])) }
        listings.append(listing)
        total += count
    }

    /// Records that section `s`, added after every section before it, only moved by `dy`.
    mutating func addShift(_ s: Int, dy: Double) {
        if let last = shifts.indices.last, shifts[last].to == s - 1, shifts[last].dy == dy {
            shifts[last].to = s
        } else {
            shifts.append(SectionShift(from: s, to: s, dy: dy))
        }
    }

    /// The diff without item frames: what a change that lists none, or whose caller wants none, returns.
    var unfilled: LayoutDiff { LayoutDiff(sections: entries, shifts: shifts) }

    /// The diff, with the listed item frames of `layout` filled in, among child tasks when there are enough.
    ///
    /// Inlined, and the fill entered only when it shares its work among child tasks: each call of an `async`
    /// function allocates a frame from the task's allocator.
    @inline(__always)
    consuming func finished(_ layout: inout Layout) async -> LayoutDiff {
        guard total > 0, layout.fillsInParallel(entries, total: total) else { return filled(&layout) }
        await layout.fillItems(&entries, listings, total: total)
        return LayoutDiff(sections: entries, shifts: shifts)
    }

    /// The diff, with the listed item frames of `layout` filled in on this thread: what a change to one section
    /// (`changeItems`, `appendItems`) needs, as only that section lists items and child tasks would share nothing.
    @inline(__always)
    consuming func filled(_ layout: inout Layout) -> LayoutDiff {
        if total > 0 { layout.fillItemsSerially(&entries, listings) }
        return LayoutDiff(sections: entries, shifts: shifts)
    }
}

/// The re-placed items whose frame changed, by section, as placement hands them to the diff: one section's inline
/// (most changes touch one, and a dictionary costs two allocations), the others' in a dictionary.
struct PlacedLists {
    private var first: (section: Int, items: [Int32])?
    private var others: [Int: [Int32]] = [:]

    init() {}

    init(_ s: Int, _ items: [Int32]) {
        first = (s, items)
    }

    subscript(s: Int) -> [Int32]? {
        if let first, first.section == s { return first.items }
        return others.isEmpty ? nil : others[s]
    }

    mutating func set(_ items: [Int32], for s: Int) {
        if first == nil || first?.section == s {
            first = (s, items)
        } else {
            others[s] = items
        }
    }
}

/// Which items of a listed section the diff carries.
enum ItemListing: Sendable {
    case all
    case some([Int32])
}

/// The listings of a diff's entries, by entry: the first inline, as most changes list one section (an array of one
/// would cost an allocation and a free on every change), the others in an array.
struct ItemListings: Sendable {
    private var first: ItemListing?
    private var rest: [ItemListing] = []

    var count: Int { first == nil ? 0 : 1 + rest.count }
    var isEmpty: Bool { first == nil }

    /// Entry `k`'s listing; `k` below `count`, as an array's index.
    subscript(k: Int) -> ItemListing {
        guard k > 0 else { return first! }
        return rest[k - 1]
    }

    mutating func append(_ listing: ItemListing) {
        if first == nil { first = listing } else { rest.append(listing) }
    }
}

extension Layout {
    /// Builds the listed item frames of every entry, in a task group when there are enough.
    mutating func fillItems(_ entries: inout [SectionDiff], _ listings: ItemListings, total: Int) async {
        guard total > 0 else { return }
        guard fillsInParallel(entries, total: total) else { return fillItemsSerially(&entries, listings) }
        let targets = entries.map(\.section)
        let origins = self.origins
        let sections = self.sections
        /// The frames of entry `k`; reads the section through the buffer so that nothing is copied.
        @Sendable func frames(_ k: Int) -> [ItemFrame] {
            let s = targets[k]
            return sections.withUnsafeBufferPointer { $0[s].itemFrames(listings[k], origin: origins[s]) }
        }
        let grain = max(parallelGrain, total / 16)
        let results = await withTaskGroup(of: [(Int, [ItemFrame])].self) { group in
            var start = 0
            while start < targets.count {
                var end = start
                var size = 0
                while end < targets.count && size < grain {
                    if case .some(let listed) = listings[end] {
                        size += listed.count
                    } else {
                        size += sections[targets[end]].count
                    }
                    end += 1
                }
                let range = start..<end
                group.addTask { range.map { k in (k, frames(k)) } }
                start = end
            }
            var all: [(Int, [ItemFrame])] = []
            for await part in group { all.append(contentsOf: part) }
            return all
        }
        for (k, items) in results { entries[k].items = items }
    }

    /// Whether `fillItems` shares the frames of `entries`, `total` of them, among child tasks.
    func fillsInParallel(_ entries: [SectionDiff], total: Int) -> Bool {
        allowsParallelism && total >= 2 * parallelGrain && entries.count > 1
    }

    /// `fillItems` on this thread.
    ///
    /// Mutating, though it changes nothing: a section read through a borrowed layout, or through a buffer pointer,
    /// is copied for the call (a retain and a release of each of its arrays), as the compiler cannot rule out a
    /// change to it meanwhile; an inout access rules that out.
    mutating func fillItemsSerially(_ entries: inout [SectionDiff], _ listings: ItemListings) {
        for k in entries.indices {
            if case .some(let listed) = listings[k], listed.isEmpty { continue }
            let s = entries[k].section
            entries[k].items = Self.itemFrames(of: &sections[s], listings[k], origin: origins[s])
        }
    }

    /// The frames `listing` names, of a section passed inout so that it is not copied (see `fillItemsSerially`).
    private static func itemFrames(
        of section: inout SectionState, _ listing: ItemListing, origin: Double
    ) -> [ItemFrame] {
        section.itemFrames(listing, origin: origin)
    }
}

extension SectionState {
    /// The absolute frames of the items `listing` names.
    func itemFrames(_ listing: ItemListing, origin: Double) -> [ItemFrame] {
        switch listing {
        case .all: itemFrames(0..<count, origin: origin)
        case .some(let listed): itemFrames(listed.lazy.map { Int($0) }, origin: origin)
        }
    }

    /// The absolute frames of the items at `indices`.
    func itemFrames(_ indices: some Collection<Int>, origin: Double) -> [ItemFrame] {
        var result: [ItemFrame] = []
        result.reserveCapacity(indices.count)
        for index in indices { result.append(itemFrame(index, origin: origin)) }
        return result
    }

    /// The absolute frame of item `index`.
    @inline(__always)
    func itemFrame(_ index: Int, origin: Double) -> ItemFrame {
        ItemFrame(index: index, frame: Layout.absolute(localFrame(at: index), origin), id: id(at: index))
    }

    /// Adds to `listed` the items not re-placed whose old absolute y plus `dy` is not their new absolute y in the
    /// last bit.
    func addingInexactShifts(
        _ listed: [Int32], from oldOrigin: Double, to origin: Double, dy: Double, screen: ScreenMapping = .identity
    ) -> [Int32] {
        var result: [Int32] = []
        var next = 0
        for index in 0..<count {
            if next < listed.count && Int(listed[next]) == index {
                result.append(listed[next])
                next += 1
                continue
            }
            let y = ys[index]
            if (oldOrigin + y) + dy != origin + y {
                result.append(Int32(truncatingIfNeeded: index))
            } else if screen.reversed {
                let old = Rect(x: 0, y: oldOrigin + y, width: 0, height: heights[index])
                let new = Rect(x: 0, y: origin + y, width: 0, height: heights[index])
                if !screen.carries(old, by: dy, to: new) { result.append(Int32(truncatingIfNeeded: index)) }
            }
        }
        return result
    }
}

extension SectionState {
    /// The section's metrics, read in place: `mutating` only so that `sections[s].measured()` goes through the
    /// array's in-place access, where `SectionMetrics(sections[s])` would copy the section first (a retain and a
    /// release of each of its arrays, on every change). Its fields are read here: `self` handed on to the
    /// initializer was copied whole.
    mutating func measured() -> SectionMetrics {
        SectionMetrics(
            height: height, count: count, header: localHeaderFrame, pinMaxY: localPinMaxY, footer: localFooterFrame,
            isExact: isExact, columns: geometry.columnCount)
    }
}
