import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

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

    /// Applies each of `changes` to `layout`, the visited layout, in order, and records their outcomes.
    ///
    /// The usual change is made without a suspension (`begin`): an `async` call per change is a frame from the task's
    /// allocator and a resumption. The changes are read by index: a change passed on its own would be copied whole
    /// (a retain and a release of each of its arrays and strings); read in place, only the fields used are.
    mutating func run(_ changes: [LayoutChange], on layout: inout LayoutWidths) async {
        steps.reserveCapacity(steps.count + changes.count)
        for k in changes.indices {
            guard !begin(changes, k, &layout), let pending = parked.take() else { continue }
            steps.append(Step(outcome: await complete(changes, k, pending.admission, pending.fanOut, &layout)))
        }
    }

    /// Applies `change` to `layout` and records its outcome: `run(_:on:)` for one change.
    mutating func run(_ change: LayoutChange, on layout: inout LayoutWidths) async {
        await run([change], on: &layout)
    }

    /// Makes the visit's changes durable and publishes their events; when the commit fails, puts the layout back as
    /// it was before the visit and turns every success into the commit's error.
    mutating func finish(on layout: inout LayoutWidths) async {
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

    let entry: LayoutEntry
    /// Where the events this visit publishes are counted.
    private let counters: EventCounters
    let log: any MutationLog
    let budget: ItemBudget
    let limits: RequestLimits
    private let seqBefore: Int
    let durable: Bool
    /// The undo of each change applied, in order, until `copy` is taken.
    private var undo: [[LayoutCommand]] = []
    /// The layout before the first change that has no small undo (configure, a batch), once there is one.
    var copy: LayoutWidths?
    private var records: [MutationRecord] = []
    private var events: [ChangeEvent] = []
    /// The journal bytes reserved for the records so far.
    var reserved = 0
    /// The change `begin` left for `complete`, until `run` takes it: kept here rather than returned, as a returned
    /// optional plan was copied whole on its way out for every change, even the usual one that leaves none.
    private var parked: Pending?

    /// A change that `begin` admitted and planned and left for the engine's `async` apply (`complete`).
    private struct Pending {
        var admission: Admission
        var fanOut: FanOut
    }

    /// One change in its three stages: admission (`admit`), the engine's apply, and the fan-out (`FanOut`) of its
    /// reply and event; then its undo, weight and record are kept (`settle`). The engine applies the usual change
    /// at once (`LayoutWidths.applyAtOnce`) and its step is recorded here (true); any other is `parked` for
    /// `complete` (false). The step is appended in place rather than returned: a returned outcome was copied whole
    /// on its way to `steps`, for every change.
    ///
    /// Not inlined into `run`: in an `async` function, each read of the layout through a borrowed parameter (the
    /// stages', the engine's) copied the whole `LayoutWidths` first; in a synchronous one it is read in place. The
    /// stages are inlined here: a call per stage showed in a change's cost.
    @inline(never)
    private mutating func begin(_ changes: [LayoutChange], _ k: Int, _ layout: inout LayoutWidths) -> Bool {
        let admission: Admission
        do throws(ProtocolError) {
            admission = try admit(changes, k, to: layout)
        } catch {
            steps.append(Step(outcome: .failure(error)))
            return true
        }
        // Asked once, here: a subscription starts (or moves its viewport or width) through the layout's actor, so
        // never during this visit (one that ends meanwhile only makes the event go to nobody).
        let fanOut = FanOut(changes, k, admission, audience: entry.subscribers.audience, before: layout)
        guard fanOut.removed.isEmpty else { return park(admission, fanOut) }
        let outcomes: WidthOutcomes
        do throws(LayoutError) {
            // Only a change that leaves the layout at its one width is made at once, so the plan is asked here, for
            // that width, rather than through a closure (which captured a copy of the plan).
            guard admission.single,
                let made = try layout.applyAtOnce(
                    admission.validated, listingItems: fanOut.listsItems(atWidth: admission.width))
            else { return park(admission, fanOut) }
            outcomes = made
        } catch {
            steps.append(Step(outcome: refused(admission, error)))
            return true
        }
        steps.append(Step(outcome: .success(settle(changes, k, admission, fanOut, outcomes, &layout))))
        return true
    }

    /// Leaves an admitted change for `complete`; false, as `begin` returns for such a change.
    private mutating func park(_ admission: Admission, _ fanOut: FanOut) -> Bool {
        parked = Pending(admission: admission, fanOut: fanOut)
        return false
    }

    /// The engine's apply of a change that `begin` left to it, and the rest of its stages.
    private mutating func complete(
        _ changes: [LayoutChange], _ k: Int, _ admission: Admission, _ fanOut: FanOut, _ layout: inout LayoutWidths
    ) async -> Result<ChangeOutcome, ProtocolError> {
        let outcomes: WidthOutcomes
        do throws(LayoutError) {
            outcomes = try await layout.apply(
                admission.validated, listingItems: { fanOut.listsItems(atWidth: $0) }, from: Array(fanOut.removed))
        } catch {
            return refused(admission, error)
        }
        return .success(settle(changes, k, admission, fanOut, outcomes, &layout))
    }

    /// A change that the engine refused after admission: the growth it took goes back to the budget.
    private func refused(_ admission: Admission, _ error: LayoutError) -> Result<ChangeOutcome, ProtocolError> {
        budget.adjust(-admission.growth)
        return .failure(ProtocolError(error))
    }

    /// The stages of a change after the engine applied it with `outcomes`: its undo, weight and record are kept,
    /// and its fan-out gives its reply (returned) and event.
    @inline(__always)
    private mutating func settle(
        _ changes: [LayoutChange], _ k: Int, _ admission: Admission, _ fanOut: FanOut, _ outcomes: WidthOutcomes,
        _ layout: inout LayoutWidths
    ) -> ChangeOutcome {
        if let inverse = admission.inverse { undo.append(inverse) }
        settleWeight(of: layout, reserved: admission.growth)
        if durable { records.append(.applied(layout: entry.name, seq: layout.seq, change: admission.validated)) }
        let (reply, event) = fanOut.finish(
            changes, k, admission.validated, outcomes, on: layout, subscribers: entry.subscribers)
        if let event { events.append(event) }
        return reply
    }

    /// The refusal of a visit whose commit failed and whose undo failed too.
    private static let undoFailed = ProtocolError(
        .internalError, "the change could not be made durable, and undoing it in memory failed (a bug; logged)")

    /// Puts the layout back as it was before the visit: the copy, if any, is the layout after the changes that left
    /// an undo; then each change's undo, the last change's first, as one change, and the seq put back. False when
    /// the undo failed.
    private mutating func restore(_ layout: inout LayoutWidths) async -> Bool {
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
    private func settleWeight(of layout: LayoutWidths, reserved: Int) {
        let weight = layout.weight
        let delta = entry.weight.withLock { count in
            defer { count = weight }
            return weight - count
        }
        budget.adjust(delta - reserved)
    }
}
