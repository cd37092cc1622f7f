import WaterfallConcurrency
import WaterfallModel

/// What one change did at one width: the diff from the frames at `from` to those at `width` after it, and where
/// the change's anchor went there.
public struct WidthOutcome: Sendable {
    /// The width whose frames the diff leads to (a width of the layout after the change).
    public var width: Double
    /// The width whose frames, before the change, the diff starts from: `width` itself when the layout had it, else
    /// the first width before the change (a width a configure added), or a width the configure removed (see
    /// `LayoutWidths.apply(_:listingItems:from:)`).
    public var from: Double
    public var diff: LayoutDiff
    public var anchor: AnchorOutcome?
}

/// A change's outcomes, one per width it leads to, in the widths' order: a layout at one width, the usual case, has
/// its one outcome inline (an array of one was an allocation and a free for every change).
public enum WidthOutcomes: RandomAccessCollection, Sendable {
    case one(WidthOutcome)
    case several([WidthOutcome])

    // Inlinable: the daemon reads a change's outcomes for each reply and event.
    @inlinable
    public var startIndex: Int { 0 }

    @inlinable
    public var endIndex: Int {
        switch self {
        case .one: 1
        case .several(let outcomes): outcomes.count
        }
    }

    @inlinable
    public subscript(position: Int) -> WidthOutcome {
        switch self {
        case .one(let outcome):
            precondition(position == 0, "index \(position) of one outcome")
            return outcome
        case .several(let outcomes):
            return outcomes[position]
        }
    }
}

/// Changes at every width: a change is applied to each width's layout, the widths in a task group, and the widths
/// that cannot differ share the first's placement (`LayoutWidths+SharedPlacement`).
extension LayoutWidths {
    // MARK: Public

    /// Applies `change` at every width, as one change, and returns each width's outcome in the order of the widths
    /// after it; `listingItems` says at which widths the diff lists item frames. Each width in `removed` that the
    /// change takes away (a configure of `widths`) gets an outcome of its own too, after the others: the diff from
    /// its frames to the new first width's, what a reader that followed it needs to follow the first width.
    ///
    /// - Throws: `LayoutError.inconsistent` when `change` was validated against another state (the caller's bug);
    ///   the layout is then unchanged.
    /// - Complexity: that of `Layout.apply(_:listingItems:)`, per width; the widths are placed in parallel.
    public mutating func apply(
        _ change: ValidatedChange, listingItems: (Double) -> Bool, from removed: [Double] = []
    ) async throws(LayoutError) -> WidthOutcomes {
        try check(change)
        return await perform(change, countsAsChange: true, listingItems: listingItems, from: removed)
    }

    /// `apply(_:listingItems:from:)` for a change that nothing in the engine suspends: one plain item command
    /// (`ValidatedChange.plainSection`) to a layout that stays at one width, the usual request. An `async` call is
    /// a frame from the task's allocator and a resumption, for every change. Nil, with the layout unchanged, for
    /// any other change: `apply` makes it. `listingItems` says whether the diff lists item frames at the one width
    /// (a flag, not a function of the width: a caller's closure over its plan copied the plan for every change).
    ///
    /// - Throws: `LayoutError.inconsistent`, as `apply` does.
    package mutating func applyAtOnce(
        _ change: ValidatedChange, listingItems: Bool
    ) throws(LayoutError) -> WidthOutcomes? {
        guard let s = change.plainSection, staysAtOneWidth(after: change) else { return nil }
        try check(change)
        let outcome = first.applyPlain(change, in: s, countsAsChange: true, listingItems: listingItems)
        return atOneWidth(outcome, after: change)
    }

    // MARK: Internal

    /// Applies `change`, known to apply, at every width (the widths it sets, when it sets some).
    ///
    /// Inlined into its callers: an async call is a frame from the task's allocator and a resumption, and every
    /// change comes through here.
    @inline(__always)
    mutating func perform(
        _ change: ValidatedChange, countsAsChange: Bool, listingItems: (Double) -> Bool, from removed: [Double] = []
    ) async -> WidthOutcomes {
        // A layout at one width that stays at one width, the usual case, changes in place: taking it out and
        // putting it back moved the whole value twice and retained every field (half a pipelined update's CPU).
        if removed.isEmpty, staysAtOneWidth(after: change) {
            let outcome = await first.applyHere(
                change, countsAsChange: countsAsChange, listingItems: listingItems(first.width))
            return atOneWidth(outcome, after: change)
        }
        var jobs = takeWidths(for: change, removed: removed)
        // A removed width's diff is for readers that followed it, which hold no viewport's worth of it only.
        var flags = jobs.map { $0.isExtra || listingItems($0.to) }
        let wanted = flags
        if jobs.count == 1 {
            var layout = jobs[0].layout
            jobs[0].layout = .empty
            let outcome = await layout.applyHere(
                jobs[0].change, countsAsChange: countsAsChange, listingItems: flags[0])
            first = layout
            noteHeights(after: change.commands)
            return .one(
                WidthOutcome(width: first.width, from: jobs[0].from, diff: outcome.diff, anchor: outcome.anchor))
        }
        // The widths that will share the first's placement are not placed: their state is let go before the first
        // changes (shared storage would make its first write copy each section whole), and derived after.
        var shared: [Int] = []
        if !jobs.contains(where: \.isExtra), Self.widths(after: change.commands) == nil {
            // The column counts first: O(sections), where the heights may need a look at every item.
            shared = jobs.indices.dropFirst().filter { jobs[$0].layout.hasColumnCounts(of: jobs[0].layout) }
            if !shared.isEmpty, !allowsSharedPlacement(of: change.commands, on: jobs[0].layout) { shared = [] }
            for k in shared {
                jobs[k].layout = .empty
                flags[0] = flags[0] || wanted[k]
            }
        }
        let placed = jobs.indices.filter { !shared.contains($0) }
        // What each task places: each width alone, or widths two by two in one pass (`LayoutWidths+JointPlacement`).
        let units = Self.units(of: placed, for: change)
        // Each width travels to its child in a slot it is taken out of, so that the child holds the only reference
        // to its sections and places them in place; the first unit is placed by this task meanwhile.
        let slots = units.dropFirst().map { unit in
            unit.map { k in
                let slot = HandOff(jobs[k].layout, leaving: .empty)
                jobs[k].layout = .empty
                return slot
            }
        }
        var leaders = units[0].map { k in
            let layout = jobs[k].layout
            jobs[k].layout = .empty
            return layout
        }
        let leaderChanges = units[0].map { jobs[$0].change }
        let results = await withTaskGroup(of: [(Int, Layout, LayoutDiff, AnchorOutcome?)].self) { group in
            for (unit, unitSlots) in zip(units.dropFirst(), slots) {
                let changes = unit.map { jobs[$0].change }
                let listing = unit.map { flags[$0] }
                group.addTask {
                    var layouts = unitSlots.map { $0.take() }
                    let outcomes = await Self.apply(
                        changes, to: &layouts, countsAsChange: countsAsChange, listingItems: listing)
                    return unit.indices.map { (unit[$0], layouts[$0], outcomes[$0].diff, outcomes[$0].anchor) }
                }
            }
            let outcomes = await Self.apply(
                leaderChanges, to: &leaders, countsAsChange: countsAsChange, listingItems: units[0].map { flags[$0] })
            var all = units[0].indices.map { (units[0][$0], leaders[$0], outcomes[$0].diff, outcomes[$0].anchor) }
            for k in shared {
                let layout = Layout.sharing(leaders[0], atWidth: jobs[k].to)
                // Item frames only where they are wanted: the first may list them for another width.
                all.append(
                    (k, layout, layout.remapped(outcomes[0].diff, listingItems: wanted[k]), outcomes[0].anchor))
            }
            for await part in group { all.append(contentsOf: part) }
            leaders = []
            return all.sorted { $0.0 < $1.0 }
        }
        let kept = jobs.filter { !$0.isExtra }.count
        var layouts = results.prefix(kept).map(\.1)
        first = layouts.removeFirst()
        rest = layouts
        noteHeights(after: change.commands)
        return .several(
            results.map { k, layout, diff, anchor in
                WidthOutcome(width: layout.width, from: jobs[k].from, diff: diff, anchor: anchor)
            })
    }

    // MARK: Private

    /// Refuses `change` when it was validated against another state (the caller's bug).
    ///
    /// Inlined: a call with this value borrowed from its callers' `inout` copied it whole.
    @inline(__always)
    private func check(_ change: ValidatedChange) throws(LayoutError) {
        guard change.stamp == first.stamp else {
            throw .inconsistent("a change validated at seq \(change.stamp.seq) was applied at seq \(seq)")
        }
    }

    /// The outcome of `change`, applied in place at the one width of a layout that stays at it.
    @inline(__always)
    private mutating func atOneWidth(
        _ outcome: (diff: LayoutDiff, anchor: AnchorOutcome?), after change: ValidatedChange
    ) -> WidthOutcomes {
        noteHeights(after: change.commands)
        let width = first.width
        return .one(WidthOutcome(width: width, from: width, diff: outcome.diff, anchor: outcome.anchor))
    }

    /// One width's part of a change: the layout it applies to (taken out of this value), the change as that width
    /// applies it, and the width the diff starts from.
    private struct WidthJob {
        var layout: Layout
        var change: ValidatedChange
        /// The width the layout has after the change.
        var to: Double
        var from: Double
        /// A removed width's outcome, whose layout is dropped after.
        var isExtra = false
    }

    /// Takes the layouts out of this value, one per width after `change`, each with the change as it applies there,
    /// followed by the removed widths of `removed` that the change takes away.
    private mutating func takeWidths(for change: ValidatedChange, removed: [Double]) -> [WidthJob] {
        // Moved out, never copied: a layout referenced from two places would copy each section it changes, whole.
        var old = [Layout]()
        old.reserveCapacity(1 + rest.count)
        old.append(first)
        first = .empty
        old.append(contentsOf: rest)
        rest = []
        defer { old.removeAll() }
        guard let target = Self.widths(after: change.commands) else {
            return old.indices.map { k in
                let layout = old[k]
                old[k] = .empty
                return WidthJob(layout: layout, change: change, to: layout.width, from: layout.width)
            }
        }
        let widths = old.map(\.width)
        // Which width is first may change: what the first knew of the heights is found again when needed.
        heightsIgnoreWidth = nil
        var jobs: [WidthJob] = []
        for w in target {
            // A new width starts from the first width's layout, which several may share (and copy as they change).
            let k = widths.firstIndex(of: w) ?? 0
            jobs.append(WidthJob(layout: old[k], change: change.setting(width: w), to: w, from: widths[k]))
            // A kept width is taken by one job only (the widths are distinct); the first stays for new ones.
            if k > 0 { old[k] = .empty }
        }
        for w in removed where !target.contains(w) {
            guard let k = widths.firstIndex(of: w) else { continue }
            jobs.append(
                WidthJob(
                    layout: old[k], change: change.setting(width: target[0]), to: target[0], from: w, isExtra: true))
        }
        return jobs
    }
}

extension ValidatedChange {
    /// The change as the layout that ends at `width` applies it: each configure that sets widths sets that width
    /// when it lists it, else its first. So a layout at one width applies its change exactly as given (a stable
    /// section's kept columns depend on the widths it passes through), and `width`, the last configure's, is where
    /// every layout ends.
    func setting(width: Double) -> ValidatedChange {
        let commands = commands.map { command -> LayoutCommand in
            guard case .configureLayout(var patch) = command, let widths = patch.resolvedWidths else { return command }
            patch.widths = nil
            patch.width = widths.contains(width) ? width : widths[0]
            return .configureLayout(patch)
        }
        return ValidatedChange(
            commands: commands, anchor: anchor, stamp: stamp, itemCount: itemCount, plainSection: plainSection)
    }
}
