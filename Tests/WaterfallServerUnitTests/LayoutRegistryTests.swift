import Synchronization
import Testing
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

@testable import WaterfallServer

/// The registry owns layouts' life and budget, and reports every change to its `MutationLog`, in order, before the
/// change's reply can be sent.
@Suite struct LayoutRegistryTests {
    /// Keeps what it is told, for the test to read.
    final class RecordingLog: MutationLog {
        let records = Mutex<[String]>([])
        let commits = Mutex(0)

        var isDurable: Bool { true }
        func reserve(_ name: String, bytes: Int) throws(ProtocolError) {}
        func recordBound(_ change: ValidatedChange) -> Int { 1 }
        func commitNow(_ records: [MutationRecord]) throws(ProtocolError) { keep(records) }
        func commit(_ records: [MutationRecord]) async throws(ProtocolError) { keep(records) }
        func committed(_ name: String, _ layout: @autoclosure () -> LayoutWidths) {}

        private func keep(_ records: [MutationRecord]) {
            commits.withLock { $0 += 1 }
            for record in records {
                let line: String
                switch record {
                case .created(let layout, let seq, let spec):
                    line = "created \(layout) seq \(seq) \(spec.sections.count)"
                case .applied(let layout, let seq, let change):
                    line = "applied \(layout) seq \(seq) \(change.commands.count)"
                case .dropped(let layout): line = "dropped \(layout)"
                }
                self.records.withLock { $0.append(line) }
            }
        }
    }

    let limits = RequestLimits(Config())

    func creation(_ name: String, replace: Bool = false, items: Int = 2) -> LayoutCreateRequest {
        let section = SectionSpec(items: Array(repeating: Item(height: 10), count: items))
        return LayoutCreateRequest(
            layout: name, replace: replace, wantsDiff: false, spec: LayoutSpec(width: 100, sections: [section]))
    }

    func change(_ name: String, _ command: LayoutCommand) -> LayoutChange {
        LayoutChange(
            id: .int(1), isNotification: false, layout: name, commands: [command],
            ops: .single(method: .itemsInsert, params: []), wantsDiff: false)
    }

    @Test func everyChangeIsLoggedInOrderAndAFailedOneIsNot() async throws {
        let log = RecordingLog()
        let registry = LayoutRegistry(log: log)
        _ = try await registry.create(creation("feed"), limits: limits)
        let outcomes = await registry.apply(
            [
                change("feed", .insertItems(section: 0, at: 2, items: [Item(height: 5)])),
                change("feed", .deleteItems(section: 0, indices: [7])),
                change("feed", .deleteItems(section: 0, indices: [0])),
            ], to: "feed", limits: limits)
        #expect(outcomes.map { (try? $0.outcome.get())?.seq } == [2, nil, 3])
        _ = try await registry.create(creation("feed", replace: true, items: 4), limits: limits)
        try await registry.drop("feed")
        #expect(
            log.records.withLock { $0 } == [
                "created feed seq 1 1", "applied feed seq 2 1", "applied feed seq 3 1", "created feed seq 1 1",
                "dropped feed",
            ])
        // The changes of one visit share one commit.
        #expect(log.commits.withLock { $0 } == 4)
    }

    @Test func theBudgetFollowsCreateReplaceAndDrop() async throws {
        let registry = LayoutRegistry()
        // 2 items + 1 section + 2 columns (the default).
        _ = try await registry.create(creation("a"), limits: limits)
        #expect(registry.budget.current == 5)
        _ = try await registry.create(creation("a", replace: true, items: 5), limits: limits)
        #expect(registry.budget.current == 8)
        await #expect(throws: ProtocolError.self) { try await registry.create(creation("a"), limits: limits) }
        #expect(registry.budget.current == 8)
        try await registry.drop("a")
        #expect(registry.budget.current == 0)
        await #expect(throws: ProtocolError.self) { try await registry.drop("a") }
    }
}
