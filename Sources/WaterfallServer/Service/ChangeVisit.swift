import WaterfallLayout
import WaterfallProtocol

/// One visit to a layout's actor: consecutive changes of one connection to one layout, each applied, logged and
/// published as if alone (its own seq, diff, event and error), with the actor entered once.
///
/// Everything a visit keeps is here, as one value that a test drives without a daemon: each change's outcome paired
/// with the change, the journal room reserved, what puts the layout back when the commit fails (each change's undo,
/// or from the first change without one a copy of the layout), the records, the events, and the budget. The order
/// of its steps is the safety of a durable daemon: a change is validated before its journal room, its undo, its
/// budget or its record reads anything of it.
struct ChangeVisit {
    /// What became of a change. The steps come in the order of the changes, and hold no copy of them: a copy is a
    /// retain and a release of each of a change's strings and arrays, and the caller has the changes.
    struct Step: Sendable {
        var outcome: Result<ChangeOutcome, ProtocolError>
    }

    /// What a change leaves for its reply: the diff encoded when an event needed its bytes, else as a value that the
    /// reply encodes in place.
    struct ChangeOutcome: Sendable {
        var seq: Int
        var size: Size
        var encoded: [UInt8]? = nil
        var diff: LayoutDiff? = nil
        /// Where the request's scroll anchor went; nil when it named none.
        var anchor: AnchorOutcome? = nil
    }

    // MARK: Lifecycle

    init(
        _ entry: LayoutEntry, log: any MutationLog, budget: ItemBudget, limits: RequestLimits, seq: Int,
        events counters: EventCounters = EventCounters()
    ) {
        self.entry = entry
        self.counters = counters
        self.log = log
        self.budget = budget
        self.limits = limits
        seqBefore = seq
        durable = log.isDurable
    }

    // MARK: Internal

    /// The outcomes of the changes made so far, in the changes' order.
    private(set) var steps: [Step] = []

    /// Applies `changes[k]` to `layout`, the visited layout, and records its outcome.
    ///
    /// By index: a change passed on its own to this async function would be copied whole (a retain and a release of each
    /// of its arrays and strings); read in place, only the fields it uses are.
    mutating func run(_ changes: [LayoutChange], at k: Int, on layout: inout Layout) async {
        let outcome = await attempt(changes, k, &layout)
        steps.append(Step(outcome: outcome))
    }

    /// Applies `change` to `layout` and records its outcome: `run(_:at:on:)` for one change.
    mutating func run(_ change: LayoutChange, on layout: inout Layout) async {
        await run([change], at: 0, on: &layout)
    }

    /// Makes the visit's changes durable and publishes their events; when the commit fails, puts the layout back as
    /// it was before the visit and turns every success into the commit's error.
    mutating func finish(on layout: inout Layout) async {
        if durable, !records.isEmpty {
            do throws(ProtocolError) {
                try await log.commit(records)
                log.committed(entry.name, layout)
            } catch {
                let refusal = await restore(&layout) ? error : Self.undoFailed
                settleWeight(of: layout, reserved: 0)
                events = []
                for k in steps.indices where (try? steps[k].outcome.get()) != nil {
                    steps[k].outcome = .failure(refusal)
                }
            }
        }
        for event in events {
            entry.subscribers.publish(
                event, overflow: ReplyEncoding.overflowEvent(entry.name), limit: limits.subscriberMaxPendingBytes,
                counting: counters)
        }
        events = []
    }

    // MARK: Private

    private let entry: LayoutEntry
    /// Where the events this visit publishes are counted.
    private let counters: EventCounters
    private let log: any MutationLog
    private let budget: ItemBudget
    private let limits: RequestLimits
    private let seqBefore: Int
    private let durable: Bool
    /// The undo of each change applied, in order, until `copy` is taken.
    private var undo: [[LayoutCommand]] = []
    /// The layout before the first change that has no small undo (configure, a batch), once there is one.
    private var copy: Layout?
    private var records: [MutationRecord] = []
    private var events: [ChangeEvent] = []
    /// The journal bytes reserved for the records so far.
    private var reserved = 0

    /// Validates, reserves, applies and records one change; nothing of it is read before it is validated.
    ///
    /// Inlined into `run`, its one caller: an async function called is a frame from the task's allocator and a
    /// resumption, for every change.
    @inline(__always)
    private mutating func attempt(
        _ changes: [LayoutChange], _ k: Int, _ layout: inout Layout
    ) async -> Result<ChangeOutcome, ProtocolError> {
        let commands = changes[k].commands
        let anchor = changes[k].anchor
        let viewport = changes[k].viewport
        let wantedWidth = changes[k].width
        let wantsDiff = changes[k].wantsDiff
        // Asked once, here: a subscription starts (or moves its viewport or width) through the layout's actor, so
        // never during this visit (one that ends meanwhile only makes the event go to nobody).
        let audience = entry.subscribers.audience
        let validated: ValidatedChange
        var inverse: [LayoutCommand]?
        let growth: Int
        // A layout that stays at its one width, the usual case, needs no lists of widths (two allocations a change).
        let width = layout.width
        let single: Bool
        let before: [Double]
        let after: [Double]
        do throws(ProtocolError) {
            do {
                // A batch names the failing op in errors even when it holds one.
                validated = try layout.validate(commands, anchor: anchor, namingOps: changes[k].ops.isBatch)
            } catch {
                throw ProtocolError(error)
            }
            single = layout.staysAtOneWidth(after: validated)
            before = single ? [] : layout.widths
            after = single ? [] : layout.widths(after: validated)
            if let wanted = wantedWidth, single ? wanted != width : !after.contains(wanted) {
                throw WidthRoute.notAWidth(wanted, of: entry.name, single ? [width] : after)
            }
            if let viewport {
                do throws(LayoutError) { try layout.check(viewport) } catch { throw ProtocolError(error) }
            }
            // Every width holds the change's items; the exact weight is settled after.
            let widthCount = single ? 1 : max(before.count, after.count)
            growth = validated.commands.reduce(0) { $0 + $1.addedWeight } * widthCount
            if durable {
                // The journal's room before anything changes: a full disk refuses the change and changes nothing.
                let bound = log.recordBound(validated)
                try log.reserve(entry.name, bytes: reserved + bound)
                reserved += bound
                if copy == nil {
                    inverse = layout.undoing(validated)
                    if inverse == nil { copy = layout }
                }
            }
            try LayoutRegistry.reserve(growth, limits, in: budget)
        } catch {
            return .failure(error)
        }
        func route(_ wanted: Double?) -> WidthRoute {
            single ? WidthRoute(wanted, only: width) : WidthRoute(wanted, before: before, after: after)
        }
        let request = route(wantedWidth)
        // What each scoped reader holds, taken before the change at the width it had: its viewport's elements.
        let requestHold = viewport.map { layout.at(width: request.from)?.hold($0) } ?? nil
        var routes: [AudienceKey: WidthRoute] = [:]
        var holds: [AudienceKey: ViewportHold] = [:]
        // The widths whose diffs list item frames: the request's own, and the unscoped subscribers'.
        let ownFull = wantsDiff && viewport == nil
        var full: Set<Double> = []
        var removed: Set<Double> = []
        // A layout nobody watches (the usual case) skips the subscribers' bookkeeping altogether: building it empty
        // still cost calls and releases of empty collections, for every change.
        if !audience.isEmpty {
            for key in audience { routes[key] = route(key.width) }
            for (key, route) in routes {
                if let viewport = key.viewport { holds[key] = layout.at(width: route.from)?.hold(viewport) }
            }
            for (key, route) in routes where key.viewport == nil && !route.isMove { full.insert(route.to) }
            removed = Set(routes.values.filter(\.isMove).map(\.from))
        }
        let outcomes: WidthOutcomes
        do {
            outcomes = try await layout.apply(
                validated, listingItems: { (ownFull && $0 == request.to) || full.contains($0) }, from: Array(removed))
        } catch {
            budget.adjust(-growth)
            return .failure(ProtocolError(error))
        }
        if let inverse { undo.append(inverse) }
        settleWeight(of: layout, reserved: growth)
        if durable { records.append(.applied(layout: entry.name, seq: layout.seq, change: validated)) }
        let mine = request.outcome(in: outcomes)
        // What the engine gives is in flow coordinates; every reply and event carries screen coordinates (a no-op
        // for a vertical layout: Geometry, "Horizontal feeds").
        let screen = layout.screen
        let own = requestHold.map { hold in
            let target = layout.at(width: request.to) ?? layout
            return screen.diff(
                target.scoped(mine.diff, hold: hold, commands: validated.commands, anchor: mine.anchor).diff)
        }
        let size = layout.contentSize(atWidth: request.to) ?? layout.contentSize
        var reply = ChangeOutcome(seq: layout.seq, size: size, anchor: mine.anchor.map(screen.anchor))
        if wantsDiff { reply.diff = own ?? screen.diff(mine.diff) }
        guard !audience.isEmpty else { return .success(reply) }
        var event = ChangeEvent()
        var encoded: [WidthRoute: [UInt8]] = [:]
        var movedLines: [AudienceKey: [UInt8]] = [:]
        for (key, route) in routes {
            let outcome = route.outcome(in: outcomes)
            let there = layout.at(width: route.to) ?? layout
            let screen = there.screen
            let bytes: [UInt8]
            if let hold = holds[key] {
                // A subscription's viewport moves only by `subscribe`: the requester's anchor is not the subscriber's.
                bytes = ReplyEncoding.encodedDiff(
                    screen.diff(there.scoped(outcome.diff, hold: hold, commands: validated.commands, anchor: nil).diff))
            } else if let cached = encoded[route] {
                bytes = cached
            } else {
                bytes = ReplyEncoding.encodedDiff(screen.diff(outcome.diff))
                encoded[route] = bytes
            }
            let line = changedEvent(changes[k], there, diff: bytes, anchor: outcome.anchor.map(screen.anchor))
            if route.isMove { movedLines[key] = line } else { event.lines[key] = line }
        }
        if !movedLines.isEmpty {
            for (session, key) in entry.subscribers.moveToFirstWidth(from: removed) {
                event.moved[session] = movedLines[key]
            }
        }
        events.append(event)
        if wantsDiff, own == nil, let bytes = encoded[request] {
            reply.encoded = bytes
            reply.diff = nil
        }
        return .success(reply)
    }

    /// The `layout.changed` line of `change`, which left `layout`, with its encoded `diff`.
    private func changedEvent(_ change: LayoutChange, _ layout: Layout, diff: [UInt8], anchor: AnchorOutcome?)
        -> [UInt8]
    {
        ReplyEncoding.changedEvent(
            change.layout, seq: layout.seq, contentSize: layout.contentSize, ops: change.ops, diff: diff,
            anchor: anchor)
    }

    /// The refusal of a visit whose commit failed and whose undo failed too.
    private static let undoFailed = ProtocolError(
        .internalError, "the change could not be made durable, and undoing it in memory failed (a bug; logged)")

    /// Puts the layout back as it was before the visit: the copy, if any, is the layout after the changes that left
    /// an undo; then each change's undo, the last change's first, as one change, and the seq put back. False when
    /// the undo failed.
    private mutating func restore(_ layout: inout Layout) async -> Bool {
        if let copy { layout = copy }
        // Without undo commands the copy is the layout before the visit, its seq included.
        guard !undo.isEmpty else { return true }
        do {
            try await layout.replay(undo.reversed().flatMap { $0 }, seq: seqBefore)
            return true
        } catch {
            // Each undo names what its change left, and the changes after it are undone first, so this is a bug. The
            // layout then stays ahead of its journal until the next start, which reads the journal: refused changes
            // are gone then, as their replies say. Better than stopping the daemon for every client.
            assertionFailure("undoing a visit's changes failed: \(error)")
            return false
        }
    }

    /// Sets the layout's weight in its entry, and the daemon's budget, to what `layout` holds now, releasing the
    /// `reserved` growth that the change took from the budget before it was applied.
    private func settleWeight(of layout: Layout, reserved: Int) {
        let weight = layout.weight
        let delta = entry.weight.withLock { count in
            defer { count = weight }
            return weight - count
        }
        budget.adjust(delta - reserved)
    }
}
