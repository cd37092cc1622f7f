import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol

extension ClientSession {
    /// The most consecutive changes to one layout made in one visit to its actor: enough to spare a pipelining
    /// client most hops, few enough that other clients of the layout wait at most that many changes.
    static let maxChangesPerVisit = 64

    /// Answers `requests`, consecutive changes to layout `name`, in one visit to the layout's actor: each is
    /// applied, published and answered as if alone (its own seq, diff, event and error), but the actor is entered,
    /// and the layout looked up, once.
    func answer(changesTo name: String, _ requests: ArraySlice<PreparedRequest>, _ out: inout JSONWriter) async {
        let outcomes: [Result<ChangeOutcome, ProtocolError>]
        if let entry = service.store.entry(name) {
            let service = self.service
            outcomes = await entry.layout.withLayout { layout in
                var outcomes: [Result<ChangeOutcome, ProtocolError>] = []
                outcomes.reserveCapacity(requests.count)
                for request in requests {
                    guard case .change(let change) = request else { continue }
                    outcomes.append(await Self.apply(change, to: &layout, entry, service))
                }
                return outcomes
            }
        } else {
            outcomes = Array(repeating: .failure(Self.missing(name)), count: requests.count)
        }
        for (request, outcome) in zip(requests, outcomes) {
            guard case .change(let change) = request else { continue }
            sendChunkIfFull(&out)
            switch outcome {
            case .success(let outcome):
                // A notification runs and gets no reply (JSON-RPC).
                guard !change.isNotification else { continue }
                ReplyEncoding.result(&out, id: change.id) { w in
                    if let encoded = outcome.encoded {
                        ReplyEncoding.mutation(
                            &w, seq: outcome.seq, contentSize: outcome.size, encodedDiff: encoded[...])
                    } else {
                        ReplyEncoding.mutation(&w, seq: outcome.seq, contentSize: outcome.size, diff: outcome.diff)
                    }
                }
            case .failure(let error):
                fail(error, id: change.isNotification ? nil : change.id, &out)
            }
        }
    }

    /// Reserves `count` more items in the daemon's budget, or throws the `limit` error.
    static func reserve(_ count: Int, _ limits: RequestLimits, in budget: ItemBudget) throws(ProtocolError) {
        guard count > 0 else { return }
        guard budget.reserve(count, limit: limits.maxTotalItems) else {
            throw ProtocolError(
                .limit, "params: \(count) more items would pass the daemon's limit of \(limits.maxTotalItems)")
        }
    }

    // MARK: Private

    /// What a change leaves for its reply: the diff encoded when an event needed its bytes, else as a value that
    /// the reply encodes in place.
    struct ChangeOutcome: Sendable {
        var seq: Int
        var size: Size
        var encoded: [UInt8]? = nil
        var diff: LayoutDiff? = nil
    }

    /// Applies `change` to `layout` (the layout of `entry`, held by its actor), settles the daemon's budget and
    /// publishes the event.
    private static func apply(
        _ change: PreparedRequest.LayoutChange, to layout: inout Layout, _ entry: LayoutEntry, _ service: LayoutService
    ) async -> Result<ChangeOutcome, ProtocolError> {
        let limits = service.limits
        let budget = service.budget
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
        guard subscribed else {
            return .success(
                ChangeOutcome(seq: layout.seq, size: layout.contentSize, diff: change.wantsDiff ? diff : nil))
        }
        let encoded = encode(diff)
        let event = changedEvent(change.layout, seq: layout.seq, ops: change.ops, diff: encoded)
        subscribers.publish(event, overflow: overflowEvent(change.layout), limit: limits.subscriberMaxPendingBytes)
        return .success(
            ChangeOutcome(seq: layout.seq, size: layout.contentSize, encoded: change.wantsDiff ? encoded : nil))
    }
}
