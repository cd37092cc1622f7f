import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

extension LayoutRegistry {
    /// The most consecutive changes to one layout made in one visit to its actor: enough to spare a pipelining
    /// client most hops, few enough that other clients of the layout wait at most that many changes.
    static let maxChangesPerVisit = 64

    /// Applies `changes`, consecutive changes to layout `name`, in one visit to the layout's actor (see
    /// `ChangeVisit`): each is applied, logged and published as if alone, but the actor is entered, and the layout
    /// looked up, once. The outcomes come back in the changes' order.
    func apply(_ changes: [LayoutChange], to name: String, limits: RequestLimits) async -> [ChangeVisit.Step] {
        @Sendable func refusedAll(_ error: ProtocolError) -> [ChangeVisit.Step] {
            Array(repeating: ChangeVisit.Step(outcome: .failure(error)), count: changes.count)
        }
        guard let entry = entry(name) else { return refusedAll(Self.missing(name)) }
        let budget = self.budget
        let log = self.log
        let events = self.events
        return await entry.layout.withLayout { layout in
            // Dropped or replaced while this visit waited for the actor: its changes would go to no journal, or
            // to its successor's.
            if entry.retired.load(ordering: .acquiring) { return refusedAll(Self.missing(name)) }
            var visit = ChangeVisit(
                entry, log: log, budget: budget, limits: limits, seq: layout.seq, events: events)
            await visit.run(changes, on: &layout)
            await visit.finish(on: &layout)
            return visit.steps
        }
    }
}
