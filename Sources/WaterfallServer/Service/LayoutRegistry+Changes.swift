import WaterfallLayout
import WaterfallProtocol

extension LayoutRegistry {
    /// What a change leaves for its reply: the diff encoded when an event needed its bytes, else as a value that
    /// the reply encodes in place.
    struct ChangeOutcome: Sendable {
        var seq: Int
        var size: Size
        var encoded: [UInt8]? = nil
        var diff: LayoutDiff? = nil
        /// Where the request's scroll anchor went; nil when it named none.
        var anchor: AnchorOutcome? = nil
    }

    /// The most consecutive changes to one layout made in one visit to its actor: enough to spare a pipelining
    /// client most hops, few enough that other clients of the layout wait at most that many changes.
    static let maxChangesPerVisit = 64

    /// Applies `changes`, consecutive changes to layout `name`, in one visit to the layout's actor: each is applied,
    /// logged and published as if alone (its own seq, diff, event and error), but the actor is entered, and the
    /// layout looked up, once. The outcomes are in the order of the changes; requests that are not changes are
    /// skipped.
    func apply(
        _ changes: ArraySlice<DecodedRequest>, to name: String, limits: RequestLimits
    ) async -> [Result<ChangeOutcome, ProtocolError>] {
        guard let entry = entry(name) else {
            return Array(repeating: .failure(Self.missing(name)), count: changes.count)
        }
        let budget = self.budget
        let log = self.log
        return await entry.layout.withLayout { layout in
            // Dropped or replaced while this visit waited for the actor: its changes would go to no journal, or
            // to its successor's.
            if entry.retired.load(ordering: .acquiring) {
                return Array(repeating: .failure(Self.missing(name)), count: changes.count)
            }
            let durable = log.isDurable
            // What puts the layout back when the visit's commit fails: memory never runs ahead of disk. Each change
            // leaves its undo (an insert's is a delete). Only from the first change that has none (configure, a
            // batch) on is a copy of the layout kept, since a copy kept across a change makes the change's first
            // write to each section copy that section whole (a bulk load then copies its section per request).
            let seqBefore = layout.seq
            var undo: [[LayoutCommand]] = []
            var copy: Layout?
            var outcomes: [Result<ChangeOutcome, ProtocolError>] = []
            outcomes.reserveCapacity(changes.count)
            var records: [MutationRecord] = []
            var events: [[UInt8]] = []
            if durable {
                // Room for the whole visit's records at once, before anything changes: a full disk refuses them all.
                var bytes = 0
                for request in changes {
                    if case .change(let change) = request { bytes += log.recordBound(change.commands) }
                }
                do throws(ProtocolError) {
                    try log.reserve(name, bytes: bytes)
                } catch {
                    return changes.compactMap { request in
                        guard case .change = request else { return nil }
                        return .failure(error)
                    }
                }
            }
            for request in changes {
                guard case .change(let change) = request else { continue }
                var inverse: [LayoutCommand]?
                if durable, copy == nil {
                    inverse = layout.undoing(change.commands)
                    if inverse == nil { copy = layout }
                }
                let outcome = await Self.apply(change, to: &layout, entry, budget, limits)
                if case .success(let applied) = outcome {
                    if let inverse { undo.append(inverse) }
                    if durable {
                        records.append(.applied(layout: name, seq: applied.outcome.seq, commands: change.commands))
                    }
                    if let event = applied.event { events.append(event) }
                }
                outcomes.append(outcome.map(\.outcome))
            }
            if durable, !records.isEmpty {
                do throws(ProtocolError) {
                    try await log.commit(records)
                    log.committed(name, layout)
                } catch {
                    // The copy, if any, is the layout after the changes that left an undo.
                    if let copy { layout = copy }
                    await Self.undo(undo, seq: seqBefore, in: &layout)
                    Self.settleWeight(of: layout, entry, budget)
                    events = []
                    outcomes = outcomes.map { outcome in outcome.flatMap { _ in .failure(error) } }
                }
            }
            for event in events {
                entry.subscribers.publish(
                    event, overflow: ReplyEncoding.overflowEvent(name), limit: limits.subscriberMaxPendingBytes)
            }
            return outcomes
        }
    }

    // MARK: Private

    /// Undoes the changes of a visit whose commit failed: each change's undo, the last change's first, as one
    /// change, and the seq put back.
    private static func undo(_ undo: [[LayoutCommand]], seq: Int, in layout: inout Layout) async {
        guard !undo.isEmpty else { return }
        do {
            try await layout.replay(undo.reversed().flatMap { $0 }, seq: seq)
        } catch {
            // Each undo names what its change left, and the changes after it are undone first.
            preconditionFailure("undoing a visit's changes failed: \(error)")
        }
    }

    /// Settles the daemon's budget with the weight of the layout put back after a visit that failed to commit.
    private static func settleWeight(of layout: Layout, _ entry: LayoutEntry, _ budget: ItemBudget) {
        let weight = layout.weight
        let delta = entry.weight.withLock { count in
            defer { count = weight }
            return weight - count
        }
        budget.adjust(delta)
    }

    /// Applies `change` to `layout` (the layout of `entry`, held by its actor) and settles the daemon's budget;
    /// returns the outcome and the event for subscribers, published once the visit's changes are committed.
    private static func apply(
        _ change: LayoutChange, to layout: inout Layout, _ entry: LayoutEntry, _ budget: ItemBudget,
        _ limits: RequestLimits
    ) async -> Result<(outcome: ChangeOutcome, event: [UInt8]?), ProtocolError> {
        let growth = change.commands.reduce(0) { $0 + $1.addedWeight }
        // Asked once, here: a subscription starts through the layout's actor, so never during this visit (one that
        // ends meanwhile only makes the event go to nobody).
        let subscribed = entry.subscribers.count > 0
        let diff: LayoutDiff
        var anchor: AnchorOutcome?
        do throws(ProtocolError) {
            try reserve(growth, limits, in: budget)
            do {
                // A batch names the failing op in errors even when it holds one.
                let listing = change.wantsDiff || subscribed
                if let path = change.anchor {
                    (diff, anchor) = try await layout.apply(
                        change.commands, anchor: path, listingItems: listing, namingOps: change.ops.isBatch)
                } else {
                    diff = try await layout.apply(change.commands, listingItems: listing, namingOps: change.ops.isBatch)
                }
            } catch {
                budget.adjust(-growth)
                throw ProtocolError(error)
            }
        } catch {
            return .failure(error)
        }
        let weight = layout.weight
        let delta = entry.weight.withLock { count in
            defer { count = weight }
            return weight - count
        }
        budget.adjust(delta - growth)
        guard subscribed else {
            let outcome = ChangeOutcome(
                seq: layout.seq, size: layout.contentSize, diff: change.wantsDiff ? diff : nil, anchor: anchor)
            return .success((outcome, nil))
        }
        let encoded = ReplyEncoding.encodedDiff(diff)
        let event = ReplyEncoding.changedEvent(
            change.layout, seq: layout.seq, ops: change.ops, diff: encoded, anchor: anchor)
        let outcome = ChangeOutcome(
            seq: layout.seq, size: layout.contentSize, encoded: change.wantsDiff ? encoded : nil, anchor: anchor)
        return .success((outcome, event))
    }
}
