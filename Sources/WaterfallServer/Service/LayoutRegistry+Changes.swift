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
            var outcomes: [Result<ChangeOutcome, ProtocolError>] = []
            outcomes.reserveCapacity(changes.count)
            for request in changes {
                guard case .change(let change) = request else { continue }
                outcomes.append(await Self.apply(change, to: &layout, entry, budget, log, limits))
            }
            return outcomes
        }
    }

    // MARK: Private

    /// Applies `change` to `layout` (the layout of `entry`, held by its actor), settles the daemon's budget, logs
    /// the change and publishes its event.
    private static func apply(
        _ change: LayoutChange, to layout: inout Layout, _ entry: LayoutEntry, _ budget: ItemBudget,
        _ log: any MutationLog, _ limits: RequestLimits
    ) async -> Result<ChangeOutcome, ProtocolError> {
        let growth = change.commands.reduce(0) { $0 + $1.addedWeight }
        let subscribers = entry.subscribers
        // Asked once, here: a subscription starts through the layout's actor, so never during this visit (one that
        // ends meanwhile only makes the event go to nobody).
        let subscribed = subscribers.count > 0
        let diff: LayoutDiff
        do throws(ProtocolError) {
            try reserve(growth, limits, in: budget)
            do {
                // A batch names the failing op in errors even when it holds one.
                diff = try await layout.apply(
                    change.commands, listingItems: change.wantsDiff || subscribed, namingOps: change.ops.isBatch)
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
        log.record(.applied(layout: change.layout, seq: layout.seq, commands: change.commands))
        guard subscribed else {
            return .success(
                ChangeOutcome(seq: layout.seq, size: layout.contentSize, diff: change.wantsDiff ? diff : nil))
        }
        let encoded = ReplyEncoding.encodedDiff(diff)
        let event = ReplyEncoding.changedEvent(change.layout, seq: layout.seq, ops: change.ops, diff: encoded)
        subscribers.publish(
            event, overflow: ReplyEncoding.overflowEvent(change.layout), limit: limits.subscriberMaxPendingBytes)
        return .success(
            ChangeOutcome(seq: layout.seq, size: layout.contentSize, encoded: change.wantsDiff ? encoded : nil))
    }
}
