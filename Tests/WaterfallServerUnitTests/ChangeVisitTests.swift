import Synchronization
import Testing
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

@testable import WaterfallServer

/// A visit without a daemon: each change is paired with its outcome, and nothing of a change (its journal room, its
/// undo, its record, the budget) is read before the engine has validated it.
@Suite struct ChangeVisitTests {
    /// A durable log that keeps what it is asked, for the test to read.
    final class Log: MutationLog {
        let reservations = Mutex<[Int]>([])
        let records = Mutex<[Int]>([])
        let failing = Atomic(false)

        var isDurable: Bool { true }
        func reserve(_ name: String, bytes: Int) throws(ProtocolError) { reservations.withLock { $0.append(bytes) } }
        func recordBound(_ change: ValidatedChange) -> Int { 100 * change.commands.count }
        func commitNow(_ records: [MutationRecord]) throws(ProtocolError) {}
        func commit(_ records: [MutationRecord]) async throws(ProtocolError) {
            if failing.load(ordering: .relaxed) { throw ProtocolError(.storage, "disk on fire") }
            for case .applied(_, let seq, _) in records { self.records.withLock { $0.append(seq) } }
        }
        func committed(_ name: String, _ layout: @autoclosure () -> LayoutWidths) {}
    }

    let limits = RequestLimits(Config())

    func change(_ id: Int, _ commands: LayoutCommand...) -> LayoutChange {
        LayoutChange(
            id: .int(Int64(id)), isNotification: false, layout: "feed", commands: commands,
            ops: .single(method: .itemsInsert, params: []), wantsDiff: false)
    }

    func start(_ log: Log) async throws -> (LayoutWidths, LayoutEntry, ItemBudget) {
        let spec = LayoutSpec(width: 100, sections: [SectionSpec(items: [Item(height: 10), Item(height: 20)])])
        let layout = try await LayoutWidths.make(spec).layouts
        let entry = LayoutEntry(name: "feed", layout: LayoutActor(layout))
        entry.weight.withLock { $0 = layout.weight }
        let budget = ItemBudget()
        budget.adjust(layout.weight)
        return (layout, entry, budget)
    }

    /// A change built past the wire's ranges: an `at` of Int.max is `not_found`, and the log is asked
    /// for nothing (the undo of that insert, `at + items.count`, trapped before).
    @Test func anOutOfRangeChangeIsRefusedBeforeAnythingReadsIt() async throws {
        let log = Log()
        var (layout, entry, budget) = try await start(log)
        let weight = budget.current
        var visit = ChangeVisit(entry, log: log, budget: budget, limits: limits, seq: layout.seq)
        await visit.run(change(1, .insertItems(section: 0, at: Int.max, items: [Item(height: 1)])), on: &layout)
        await visit.run(change(2, .insertSections(at: Int.max, sections: [SectionSpec()])), on: &layout)
        await visit.run(change(3, .deleteSections([0, Int.max])), on: &layout)
        await visit.finish(on: &layout)
        #expect(visit.steps.map { (try? $0.outcome.get()) == nil } == [true, true, true])
        #expect(visit.steps.map { $0.outcome.failure?.code } == [.notFound, .notFound, .notFound])
        #expect(log.reservations.withLock { $0 } == [])
        #expect(log.records.withLock { $0 } == [])
        #expect(layout.seq == 1 && layout.first.itemCount == 2)
        #expect(budget.current == weight)
    }

    /// Outcomes come back in the changes' order; the journal's room grows by each valid change's bound.
    @Test func eachChangeIsPairedWithItsOutcome() async throws {
        let log = Log()
        var (layout, entry, budget) = try await start(log)
        var visit = ChangeVisit(entry, log: log, budget: budget, limits: limits, seq: layout.seq)
        await visit.run(change(1, .insertItems(section: 0, at: 2, items: [Item(height: 5)])), on: &layout)
        await visit.run(change(2, .deleteItems(section: 0, indices: [7])), on: &layout)
        await visit.run(change(3, .deleteItems(section: 0, indices: [0])), on: &layout)
        await visit.finish(on: &layout)
        #expect(visit.steps.count == 3)
        #expect(visit.steps.map { try? $0.outcome.get().seq } == [2, nil, 3])
        #expect(log.reservations.withLock { $0 } == [100, 200])
        #expect(log.records.withLock { $0 } == [2, 3])
        #expect(budget.current == layout.weight)
    }

    /// A failed commit puts the layout, its seq and the budget back, and refuses every change of the visit.
    @Test func aFailedCommitRefusesTheVisit() async throws {
        let log = Log()
        log.failing.store(true, ordering: .relaxed)
        var (layout, entry, budget) = try await start(log)
        let before = (layout.spec, budget.current)
        var visit = ChangeVisit(entry, log: log, budget: budget, limits: limits, seq: layout.seq)
        await visit.run(
            change(1, .insertItems(section: 0, at: 0, items: [Item(height: 5), Item(height: 6)])), on: &layout)
        await visit.run(
            change(2, .insertSections(at: 1, sections: [SectionSpec(items: [Item(height: 1)])])), on: &layout)
        await visit.finish(on: &layout)
        #expect(visit.steps.map { $0.outcome.failure?.code } == [.storage, .storage])
        #expect(layout.spec == before.0 && layout.seq == 1)
        #expect(budget.current == before.1)
    }

    // MARK: The stages alone

    /// Admission takes nothing of a change it refuses, and a change it lets in takes its journal room and growth.
    @Test func admissionTakesNothingFromARefusedChange() async throws {
        let log = Log()
        let (layout, entry, budget) = try await start(log)
        let weight = budget.current
        var visit = ChangeVisit(entry, log: log, budget: budget, limits: limits, seq: layout.seq)
        var wrongWidth = change(1, .insertItems(section: 0, at: 0, items: [Item(height: 5)]))
        wrongWidth.width = 200
        #expect(throws: ProtocolError.self) { try visit.admit([wrongWidth], 0, to: layout) }
        var acrossTheFeed = change(2, .insertItems(section: 0, at: 0, items: [Item(height: 5)]))
        acrossTheFeed.viewport = Viewport(y: 0, height: 100, axis: .horizontal)
        #expect(throws: ProtocolError.self) { try visit.admit([acrossTheFeed], 0, to: layout) }
        #expect(log.reservations.withLock { $0 } == [] && budget.current == weight)
        let admitted = try visit.admit(
            [change(3, .insertItems(section: 0, at: 0, items: [Item(height: 5)]))], 0, to: layout)
        #expect(admitted.single && admitted.width == 100 && admitted.inverse != nil)
        #expect(log.reservations.withLock { $0 } == [100] && budget.current == weight + admitted.growth)
        #expect(admitted.route(nil) == WidthRoute(nil, only: 100))
    }

    /// The fan-out lists item frames only where a reader needs them, and without subscribers makes no event.
    @Test func theFanOutPlansForItsAudienceAlone() async throws {
        let log = Log()
        var (layout, entry, budget) = try await start(log)
        var visit = ChangeVisit(entry, log: log, budget: budget, limits: limits, seq: layout.seq)
        var insert = change(1, .insertItems(section: 0, at: 0, items: [Item(height: 5)]))
        insert.wantsDiff = true
        let admitted = try visit.admit([insert], 0, to: layout)
        let alone = ChangeVisit.FanOut([insert], 0, admitted, audience: [], before: layout)
        #expect(alone.listsItems(atWidth: 100) && alone.routes.isEmpty && alone.holds.isEmpty)
        let scoped = AudienceKey(width: nil, viewport: Viewport(y: 0, height: 15))
        var quiet = insert
        quiet.wantsDiff = false
        let watched = ChangeVisit.FanOut([quiet], 0, admitted, audience: [scoped], before: layout)
        // A scoped subscriber needs no item frames from the engine: its diff is scoped from what it held.
        #expect(!watched.listsItems(atWidth: 100) && watched.holds[scoped] != nil && watched.full.isEmpty)
        let outcomes = try await layout.apply(admitted.validated, listingItems: alone.listsItems(atWidth:), from: [])
        let (reply, event) = alone.finish(
            [insert], 0, admitted.validated, outcomes, on: layout, subscribers: entry.subscribers)
        #expect(event == nil && reply.seq == 2 && reply.diff?.sections.first?.items.count == 3)
    }
}

extension Result {
    /// The error, if this is a failure.
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
