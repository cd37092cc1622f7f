import Glibc
import Testing
import WaterfallLayout
import WaterfallProtocol

@testable import WaterfallServer

/// A registry over a `DurableStore`: a change that cannot be made durable is refused with `storage` and changes
/// nothing, in memory or on disk, and the daemon goes on once the disk recovers.
@Suite struct DurableRegistryTests {
    let limits = RequestLimits(Config())

    func creation(_ name: String) -> LayoutCreation {
        let section = SectionSpec(items: Array(repeating: Item(height: 10), count: 3))
        return LayoutCreation(
            layout: name, replace: false, wantsDiff: false, spec: LayoutSpec(width: 100, sections: [section]))
    }

    func change(_ name: String, height: Double) -> DecodedRequest {
        .change(
            LayoutChange(
                id: .int(1), isNotification: false, layout: name,
                commands: [.insertItems(section: 0, at: 0, items: [Item(height: height)])],
                ops: .single(method: "items.insert", params: []), wantsDiff: false))
    }

    func open(_ path: String, _ files: FaultyFiles) async throws -> (DurableStore, [RecoveredLayout]) {
        let opening = try await DurableStore.open(
            directory: path, environment: [:], options: StoreOptions(policy: .always, files: files))
        return (opening.store, opening.layouts)
    }

    @Test(arguments: ["write", "sync"])
    func aChangeThatCannotBeMadeDurableIsRefusedAndChangesNothing(fault: String) async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let files = FaultyFiles()
        let (store, _) = try await open(path, files)
        let registry = LayoutRegistry(log: DurableLog(store: store))
        _ = try await registry.create(creation("feed"), limits: limits)
        let first = await registry.apply([change("feed", height: 1)], to: "feed", limits: limits)
        #expect(first.map { (try? $0.get())?.seq } == [2])
        let before = try await registry.snapshot("feed")
        let budget = registry.budget.current
        files.faults.withLock {
            if fault == "write" { $0.write = ENOSPC } else { $0.sync = EIO }
        }
        let refused = await registry.apply(
            [change("feed", height: 2), change("feed", height: 3)], to: "feed", limits: limits)
        for outcome in refused {
            guard case .failure(let error) = outcome else {
                Issue.record("a change was accepted")
                continue
            }
            #expect(error.code == .storage)
            #expect(error.message.contains(path))
        }
        let after = try await registry.snapshot("feed")
        #expect(after.seq == before.seq)
        #expect(after.items(inSection: 0) == before.items(inSection: 0))
        #expect(registry.budget.current == budget)
        await #expect(throws: ProtocolError.self) { try await registry.create(creation("other"), limits: limits) }
        #expect(registry.entry("other") == nil)
        files.faults.withLock {
            $0.write = nil
            $0.sync = nil
        }
        let again = await registry.apply([change("feed", height: 4)], to: "feed", limits: limits)
        #expect(again.map { (try? $0.get())?.seq } == [3])
        let kept = try await registry.snapshot("feed")
        store.close()
        let (reopened, layouts) = try await open(path, FaultyFiles())
        defer { reopened.close() }
        #expect(layouts.map(\.name) == ["feed"])
        #expect(layouts.first?.layout.seq == kept.seq)
        #expect(layouts.first?.layout.items(inSection: 0) == kept.items(inSection: 0))
    }
}
