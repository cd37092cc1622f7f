import WaterfallConcurrency
import WaterfallModel

/// A whole layout: its settings, its sections and their origins; a Sendable value.
///
/// Mutations validate everything first (on a cheap `LayoutShape`), then change inputs while recording per-section
/// `SectionChange`s, then place only what changed, then diff. A section's frames are local to it, so the sections
/// after a change only get new origins.
public struct Layout: Sendable {
    public internal(set) var width: Double
    public internal(set) var scale: Double
    public internal(set) var direction: Direction
    /// Which way the feed scrolls: the engine places a horizontal layout as the vertical one and maps it to the
    /// screen at its edges (`screen`).
    public internal(set) var axis: Axis
    public internal(set) var minContentHeight: Double
    public internal(set) var defaults: SectionProperties
    /// The version: 1 after creation, one more for each successful mutation.
    public internal(set) var seq: Int
    public internal(set) var itemCount: Int
    /// How many items the last change placed (not counting the ones it only shifted): what incremental saves.
    package internal(set) var lastPlacedCount = 0
    /// The resource limits of later commands.
    public var limits: LayoutLimits
    /// Whether changes that touch many sections may place them in a task group (tests turn it off to compare).
    public var allowsParallelism = true
    /// The fewest items worth a child task (below it, starting a child task costs more than placing the items).
    package var parallelGrain = 50_000

    var sections: [SectionState]
    /// `origins[k]` is the top of section k; one extra entry holds the bottom of the last section.
    var origins: [Double]
    /// `metrics[k]` describes section k as last placed.
    var metrics: [SectionMetrics]
    /// Placement's buffers, kept for the next change (nil while a change has them).
    var scratch: PlacementScratch?
    // MARK: Lifecycle

    /// Builds and places a layout at `spec`'s first width (`LayoutWidths.make` lays it out at each of its widths);
    /// the diff lists every section as new.
    ///
    /// - Throws: `LayoutError` naming the first invalid field.
    /// - Complexity: O(items), shared among child tasks when there are enough.
    public static func make(
        _ spec: LayoutSpec, limits: LayoutLimits = .default, allowsParallelism: Bool = true
    ) async throws(LayoutError) -> (layout: Layout, diff: LayoutDiff) {
        var layout = try empty(spec, limits: limits, allowsParallelism: allowsParallelism)
        let change = try layout.validate([.insertSections(at: 0, sections: spec.sections)], namingOps: false)
        let diff = await layout.perform(change, countsAsChange: false, listingItems: true)
        layout.seq = 1
        return (layout, diff)
    }

    /// Checks `spec` as `LayoutWidths.make` does (at each of its widths), without placing anything.
    ///
    /// - Throws: `LayoutError` naming the first invalid field.
    /// - Complexity: O(spec's size).
    public static func check(_ spec: LayoutSpec, limits: LayoutLimits = .default) throws(LayoutError) {
        let layouts = try LayoutWidths.empty(spec, limits: limits, allowsParallelism: false)
        _ = try layouts.validate([.insertSections(at: 0, sections: spec.sections)], namingOps: false)
    }

    /// A layout with `spec`'s settings and no sections yet, after checking them.
    static func empty(
        _ spec: LayoutSpec, limits: LayoutLimits, allowsParallelism: Bool
    ) throws(LayoutError) -> Layout {
        try Validation.widths(spec.widths, spec.widths.count == 1 ? "width" : "widths")
        try Validation.scale(spec.scale)
        try Validation.length(spec.minContentHeight, "minContentHeight")
        try Validation.properties(spec.defaults, "defaults.", limits: limits)
        var layout = Layout(
            width: spec.width, scale: spec.scale, direction: spec.direction, axis: spec.axis,
            minContentHeight: spec.minContentHeight, defaults: spec.defaults, limits: limits)
        layout.allowsParallelism = allowsParallelism
        return layout
    }

    init(
        width: Double, scale: Double, direction: Direction, axis: Axis = .vertical, minContentHeight: Double,
        defaults: SectionProperties, limits: LayoutLimits
    ) {
        self.width = width
        self.scale = scale
        self.direction = direction
        self.axis = axis
        self.minContentHeight = minContentHeight
        self.defaults = defaults
        self.limits = limits
        seq = 0
        itemCount = 0
        sections = []
        origins = [0]
        metrics = []
    }

    // MARK: Public

    /// How many sections the layout has.
    public var sectionCount: Int { sections.count }

    /// Items plus sections plus columns, a measure of the memory the layout holds (the daemon budgets it).
    public var weight: Int { itemCount + metrics.reduce(0) { $0 + 1 + $1.columns } }

    /// The content size on screen: the layout's width, and the bottom of the last section or `minContentHeight`
    /// (transposed for a horizontal layout: the extent along x, then `width`).
    public var contentSize: Size {
        screen.size(Size(width: width, height: max(origins[sections.count], minContentHeight)))
    }

    /// How the engine's flow coordinates (where it places every layout vertically) map to the screen.
    ///
    /// Inlinable, and always inlined: called on a layout held `inout` across an `await` (the visit's), an opaque
    /// getter would have the whole layout copied into a temporary first (a retain and a release of each of its
    /// arrays), for two of its fields; and the large functions that call it (the visit's fan-out, the diff's
    /// entries) are past the size where the optimizer inlines by itself.
    @inlinable @inline(__always)
    public var screen: ScreenMapping { ScreenMapping(axis: axis, direction: direction) }

    /// Applies `change`, validated against the layout as it is, and returns how the frames moved and, when the
    /// change names an anchor, where that item went and how far its y moved.
    ///
    /// The anchor is followed forward, command by command, by its identity: an item moved to another section stays
    /// the anchor (the diff's `IndexMap` maps new indices to old ones within a section and, by the diff's rules,
    /// counts such an item as new there, so it cannot follow it).
    ///
    /// - Throws: `LayoutError.inconsistent` when `change` was validated against another state (the caller's bug);
    ///   the layout is then unchanged. A change validated against this state always applies.
    /// A configure that sets several widths lays this layout out at the first of them (`LayoutWidths` lays it out
    /// at each).
    ///
    /// - Complexity: placement O(changed items + columns × log n) per section touched; O(sections) for the origins
    ///   and the diff of the sections that only moved; plus O(size of the commands) to follow the anchor.
    ///
    /// - Parameter listingItems: false leaves the item frames out of the diff (sections only), for a caller that
    ///   will not send them (a bulk load that asked for no diff).
    public mutating func apply(
        _ change: ValidatedChange, listingItems: Bool = true
    ) async throws(LayoutError) -> (diff: LayoutDiff, anchor: AnchorOutcome?) {
        guard change.stamp == stamp else {
            throw .inconsistent("a change validated at seq \(change.stamp.seq) was applied at seq \(seq)")
        }
        let here = LayoutWidths.widths(after: change.commands).map { change.setting(width: $0[0]) } ?? change
        return await applyHere(here, countsAsChange: true, listingItems: listingItems)
    }

    /// Applies `change` at this width alone (the caller checked its stamp), and follows its anchor.
    @inline(__always)
    mutating func applyHere(
        _ change: ValidatedChange, countsAsChange: Bool, listingItems: Bool
    ) async -> (diff: LayoutDiff, anchor: AnchorOutcome?) {
        let oldY = anchorY(before: change)
        let diff = await perform(change, countsAsChange: countsAsChange, listingItems: listingItems)
        return (diff, anchorOutcome(of: change, from: oldY))
    }

    /// `applyHere` for a plain change to section `s` (`ValidatedChange.plainSection`), which nothing suspends.
    @inline(__always)
    mutating func applyPlain(
        _ change: ValidatedChange, in s: Int, countsAsChange: Bool, listingItems: Bool
    ) -> (diff: LayoutDiff, anchor: AnchorOutcome?) {
        let oldY = anchorY(before: change)
        let diff = performPlain(change, in: s, countsAsChange: countsAsChange, listingItems: listingItems)
        return (diff, anchorOutcome(of: change, from: oldY))
    }

    /// Places every section again from scratch, without a diff: what a layout without incremental placement does
    /// on every change, and so the baseline that benchmarks measure incremental changes against.
    ///
    /// - Complexity: O(items), shared among child tasks when there are enough.
    public mutating func placeEverything() async {
        var batch = Batch(sectionCount: sections.count, oldOrigins: origins)
        batch.oldIndex = .allNew(count: sections.count)
        _ = await place(&batch)
        updateOrigins()
    }

    // MARK: Private

    /// Changes inputs, places what changed and diffs: `change` is known to apply.
    mutating func perform(_ change: ValidatedChange, countsAsChange: Bool, listingItems: Bool) async -> LayoutDiff {
        if let s = change.plainSection {
            return performPlain(change, in: s, countsAsChange: countsAsChange, listingItems: listingItems)
        }
        var batch = Batch(sectionCount: sections.count, oldOrigins: origins)
        for command in change.commands { perform(command, &batch) }
        let changed = await place(&batch)
        itemCount = change.itemCount
        updateOrigins()
        if countsAsChange { seq += 1 }
        return await diff(batch, changed: changed, listingItems: listingItems)
    }

    /// `perform` for one item command that plainly passes every check (`ValidatedChange.plainSection`), the usual
    /// request: it skips the batch machinery, and an append after a section's last item, a feed's usual change,
    /// skips most of the rest. Nothing in it suspends: it places one section, whose items only its diff lists.
    @inline(__always)
    mutating func performPlain(
        _ change: ValidatedChange, in s: Int, countsAsChange: Bool, listingItems: Bool
    ) -> LayoutDiff {
        let diff: LayoutDiff
        if case .insertItems(_, let at, let items) = change.commands[0], !items.isEmpty, at == metrics[s].count,
            sections[s].appendStartsWindow
        {
            diff = appendItems(items, toSection: s, listingItems: listingItems)
        } else {
            diff = changeItems(change.commands[0], in: s, itemCount: change.itemCount, listingItems: listingItems)
        }
        if countsAsChange { seq += 1 }
        return diff
    }

    /// Where the anchor of `change` stands before it (nil when it names none), for `anchorOutcome(of:from:)`.
    ///
    /// Inlined, as is `anchorOutcome`: a call with the layout borrowed from its caller's `inout` copied it whole,
    /// for every change, anchored or not.
    @inline(__always)
    private func anchorY(before change: ValidatedChange) -> Double? {
        change.anchor.map { frame(ofItem: $0).frame.y }
    }

    /// Where the anchor of `change`, applied, went, and how far its y moved from `oldY`; nil when it names none.
    @inline(__always)
    private func anchorOutcome(of change: ValidatedChange, from oldY: Double?) -> AnchorOutcome? {
        guard let anchor = change.anchor, let oldY else { return nil }
        guard let path = anchor.following(change.commands) else { return .removed }
        let dy = frame(ofItem: path).frame.y - oldY
        // Plus zero, never minus zero, for an item that did not move: the wire says 0.
        return .moved(path, dy: dy == 0 ? 0 : dy)
    }

    /// Places new sections and re-places changed ones, in a task group when there is enough work to share.
    private mutating func place(_ batch: inout Batch) async -> PlacedLists {
        var scratch = takeScratch()
        var jobs = PlacementScratch.take(&scratch.jobs)
        var work = 0
        for s in sections.indices where batch.oldIndex[s] < 0 || batch.changes.has(s) {
            jobs.append(s)
            work += sections[s].count + 1
        }
        var changed = PlacedLists()
        defer {
            recordPlacement(of: jobs)
            scratch.jobs = jobs
            jobs = []
            keepScratch(&scratch)
        }
        let parallel = allowsParallelism && jobs.count > 1 && work >= 2 * parallelGrain
        let chunks = parallel ? Self.chunks(jobs, work: work, grain: parallelGrain, sections: sections) : []
        if chunks.count < 2 {
            for s in jobs { changed.set(Self.place(&sections[s], change: batch.changes[s], scratch: &scratch), for: s) }
            return changed
        }
        // Each section travels to its child in a slot it is taken out of, so the child holds the only reference and
        // places it in place: a section still referenced from here would be copied whole on its first write.
        let slots = chunks.map { chunk in
            chunk.map { s in
                let slot = (index: s, change: batch.changes[s], section: HandOff(sections[s], leaving: .placeholder))
                sections[s] = .placeholder
                return slot
            }
        }
        let results = await withTaskGroup(of: [(Int, SectionState, [Int32])].self) { group in
            for chunk in slots {
                group.addTask {
                    var scratch = PlacementScratch()
                    let placed = chunk.map { slot in
                        var section = slot.section.take()
                        let list = Self.place(&section, change: slot.change, scratch: &scratch)
                        return (slot.index, section, list)
                    }
                    // Gives a large placement's entry buffer back to the spares shared by every layout.
                    scratch.trim()
                    return placed
                }
            }
            var all: [(Int, SectionState, [Int32])] = []
            for await part in group { all.append(contentsOf: part) }
            return all
        }
        for (s, section, list) in results {
            sections[s] = section
            changed.set(list, for: s)
        }
        return changed
    }

    /// Refreshes the metrics of the sections just placed, and counts what they placed.
    private mutating func recordPlacement(of jobs: [Int]) {
        var placed = 0
        for s in jobs {
            metrics[s] = sections[s].measured()
            placed += sections[s].placedInLastPass
        }
        lastPlacedCount = placed
    }

    /// The layout's placement buffers, taken out so that they are unique while a change uses them.
    mutating func takeScratch() -> PlacementScratch {
        scratch.take() ?? PlacementScratch()
    }

    /// Takes back the buffers after a change (leaving `used` empty), trimmed to what a small change needs.
    mutating func keepScratch(_ used: inout PlacementScratch) {
        used.trim()
        scratch = used
        used = PlacementScratch()
    }

    private static func place(
        _ section: inout SectionState, change: SectionChange?, scratch: inout PlacementScratch
    ) -> [Int32] {
        guard let change else {
            section.placeAll(scratch: &scratch)
            return []
        }
        return section.place(after: change, scratch: &scratch)
    }

    /// Splits the jobs into chunks of at least `grain` items, so that each child task has work worth its cost.
    private static func chunks(_ jobs: [Int], work: Int, grain: Int, sections: [SectionState]) -> [[Int]] {
        let minimum = max(1, grain)
        guard work >= 2 * minimum, jobs.count >= 2 else { return [jobs] }
        let target = max(minimum, work / 16)
        var result: [[Int]] = []
        var current: [Int] = []
        var size = 0
        for s in jobs {
            current.append(s)
            size += sections[s].count + 1
            if size >= target {
                result.append(current)
                current = []
                size = 0
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// Recomputes every origin from the heights.
    ///
    /// - Complexity: O(sections): cheap next to placement, and the diff lists each moved section anyway.
    mutating func updateOrigins() {
        if origins.count != metrics.count + 1 { origins = Array(repeating: 0, count: metrics.count + 1) }
        // Only values that changed are written: the batch shares this array, and a write copies it.
        var next = 0.0
        for s in metrics.indices {
            if origins[s] != next { origins[s] = next }
            next += metrics[s].height
        }
        if origins[metrics.count] != next { origins[metrics.count] = next }
    }
}

extension SectionState {
    /// An empty stand-in while a section is out being placed by a child task.
    static let placeholder = SectionState(
        properties: SectionProperties(),
        geometry: SectionGeometry(
            own: SectionProperties(), defaults: SectionProperties(), width: 1, scale: 0, direction: .ltr,
            columnLimit: 1),
        items: [])
}
