import Glibc
import Testing
import WaterfallLayout
import WaterfallProtocol
import WaterfallTestSupport
import WaterfallWire

@testable import WaterfallServer

/// A registry over a `DurableStore`: a change that cannot be made durable is refused with `storage` and changes
/// nothing, in memory or on disk, and the daemon goes on once the disk recovers.
@Suite(.tags(.disk)) struct DurableRegistryTests {
    let limits = RequestLimits(Config())

    func creation(_ name: String) -> LayoutCreateRequest {
        let section = SectionSpec(items: Array(repeating: Item(height: 10), count: 3))
        return LayoutCreateRequest(
            layout: name, replace: false, wantsDiff: false, spec: LayoutSpec(width: 100, sections: [section]))
    }

    func change(_ name: String, height: Double) -> LayoutChange {
        LayoutChange(
            id: .int(1), isNotification: false, layout: name,
            commands: [.insertItems(section: 0, at: 0, items: [Item(height: height)])],
            ops: .single(method: .itemsInsert, params: []), wantsDiff: false)
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
        #expect(first.map { (try? $0.outcome.get())?.seq } == [2])
        let before = try await registry.snapshot("feed")
        let budget = registry.budget.current
        files.faults.withLock {
            if fault == "write" { $0.write = ENOSPC } else { $0.sync = EIO }
        }
        let refused = await registry.apply(
            [change("feed", height: 2), change("feed", height: 3)], to: "feed", limits: limits)
        for outcome in refused.map(\.outcome) {
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
        #expect(again.map { (try? $0.outcome.get())?.seq } == [3])
        let kept = try await registry.snapshot("feed")
        store.close()
        let (reopened, layouts) = try await open(path, FaultyFiles())
        defer { reopened.close() }
        #expect(layouts.map(\.name) == ["feed"])
        #expect(layouts.first?.layout.seq == kept.seq)
        #expect(layouts.first?.layout.first.items(inSection: 0) == kept.items(inSection: 0))
    }

    /// A stable section's columns come back from the journal at a restart: replayed in runs, its commands give the
    /// columns they gave one at a time (here item 3 stays under item 1 after item 1 grows, where placing the items
    /// afresh would move it).
    @Test func stableColumnsComeBackFromTheJournal() async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let (store, _) = try await open(path, FaultyFiles())
        let registry = LayoutRegistry(log: DurableLog(store: store))
        let section = SectionSpec(
            properties: SectionProperties(columns: 3, reflow: .stable),
            items: [100, 50, 80, 60, 40].map { Item(height: $0) })
        _ = try await registry.create(
            LayoutCreateRequest(
                layout: "feed", replace: false, wantsDiff: false, spec: LayoutSpec(width: 320, sections: [section])),
            limits: limits)
        let changes = [
            update("feed", [ItemUpdate(index: 1, item: Item(height: 150))]),
            change("feed", .insertItems(section: 0, at: 1, items: [Item(height: 30)])),
            change("feed", .deleteItems(section: 0, indices: [0])),
            update("feed", [ItemUpdate(index: 0, item: Item(height: 5))]),
        ]
        for step in await registry.apply(changes, to: "feed", limits: limits) { _ = try step.outcome.get() }
        let kept = try await registry.snapshot("feed")
        store.close()
        let (reopened, layouts) = try await open(path, FaultyFiles())
        defer { reopened.close() }
        let restored = try #require(layouts.first?.layout.first)
        #expect(restored.items(inSection: 0) == kept.items(inSection: 0))
        #expect(restored.frames(ofSection: 0) == kept.frames(ofSection: 0))
        #expect(kept.items(inSection: 0).map(\.column) == [1, 1, 2, 1, 2])
    }

    /// A horizontal layout comes back horizontal, from its snapshot-free journal and after a switch of axis in it,
    /// with its aspect items as given and its frames as they were (Geometry, "Horizontal feeds").
    @Test func horizontalLayoutsComeBackHorizontal() async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let (store, _) = try await open(path, FaultyFiles())
        let registry = LayoutRegistry(log: DurableLog(store: store))
        let items = [Item(height: 5, aspectWidth: 4), Item(height: 60), Item(height: 3, aspectWidth: 8)]
        for (name, axis) in [("across", Axis.horizontal), ("turned", .vertical)] {
            _ = try await registry.create(
                LayoutCreateRequest(
                    layout: name, replace: false, wantsDiff: false,
                    spec: LayoutSpec(width: 200, direction: .rtl, axis: axis, sections: [SectionSpec(items: items)])),
                limits: limits)
        }
        let turn = change("turned", .configureLayout(LayoutPatch(axis: .horizontal)))
        for step in await registry.apply([turn], to: "turned", limits: limits) { _ = try step.outcome.get() }
        let kept = [try await registry.snapshot("across"), try await registry.snapshot("turned")]
        store.close()
        let (reopened, layouts) = try await open(path, FaultyFiles())
        defer { reopened.close() }
        for (name, before) in zip(["across", "turned"], kept) {
            let restored = try #require(layouts.first { $0.name == name }?.layout.first)
            #expect(restored.axis == .horizontal && restored.direction == .rtl, "\(name)")
            #expect(restored.items(inSection: 0) == items, "\(name)")
            #expect(restored.frames(ofSection: 0) == before.frames(ofSection: 0), "\(name)")
        }
    }

    func update(_ name: String, _ updates: [ItemUpdate], section: Int = 0) -> LayoutChange {
        change(name, .updateItems(section: section, updates: updates))
    }

    func change(_ name: String, _ commands: LayoutCommand...) -> LayoutChange {
        LayoutChange(
            id: .int(1), isNotification: false, layout: name, commands: commands,
            ops: .single(method: .itemsUpdate, params: []), wantsDiff: false)
    }

    /// A visit of item updates alone is undone without a copy of the layout (the items updated back): after a
    /// failed commit the items, ids, frames, seq and budget are as before, through updates of one item twice, an
    /// update to a new id and a width, and an update that fails on its own in the middle of the visit.
    @Test(arguments: ["write", "sync"])
    func aVisitOfItemUpdatesThatCannotBeMadeDurableIsUndone(fault: String) async throws {
        let visit = [
            update("feed", [ItemUpdate(index: 3, item: Item(height: 90))]),
            update(
                "feed",
                [ItemUpdate(index: 3, item: Item(height: 5, id: "new")), ItemUpdate(index: 0, item: Item(height: 1))]),
            update("feed", [ItemUpdate(index: 99, item: Item(height: 1))]),
            update("feed", [ItemUpdate(index: 10, item: Item(height: 3, aspectWidth: 4, span: .full))], section: 1),
        ]
        try await expectUndone(visit, failingOnItsOwn: 2, fault: fault)
    }

    /// Any visit is undone after a failed commit: changes that leave an undo (inserts, deletes, moves, of items and
    /// sections) and, from a configure on, a copy of the layout; the copy then still needs the undo of the changes
    /// before it.
    @Test(arguments: ["write", "sync"], [false, true])
    func aVisitOfAnyChangesThatCannotBeMadeDurableIsUndone(fault: String, configures: Bool) async throws {
        var patch = SectionPatch()
        patch.columns = .set(4)
        var visit = [
            change("feed", .insertItems(section: 0, at: 5, items: [Item(height: 1), Item(height: 2, id: "x")])),
            change("feed", .deleteItems(section: 1, indices: [9, 2, 3, 29])),
            change("feed", .moveItem(from: ItemPath(section: 0, item: 6), to: ItemPath(section: 1, item: 0))),
            change("feed", .insertSections(at: 1, sections: [SectionSpec(items: [Item(height: 9)])])),
            change("feed", .moveSection(from: 0, to: 2)),
        ]
        if configures { visit.append(change("feed", .configureSection(0, patch))) }
        visit += [
            change("feed", .deleteSections([1])),
            change("feed", .deleteItems(section: 0, indices: [99])),
            change("feed", .insertItems(section: 0, at: 0, items: ItemList(heights: [4, 5.5]))),
        ]
        try await expectUndone(visit, failingOnItsOwn: visit.count - 2, fault: fault)
    }

    /// Makes `visit` on a layout of two 30-item sections whose journal fails at `fault` ("write" or "sync"), and
    /// checks that every change of it is refused (`storage`, or `not_found` for the one at `failingOnItsOwn`) and
    /// that the layout, its seq and the budget are as before; then, the disk healed, that its first change goes
    /// through with the next seq.
    private func expectUndone(_ visit: [LayoutChange], failingOnItsOwn bad: Int, fault: String) async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let files = FaultyFiles()
        let (store, _) = try await open(path, files)
        defer { store.close() }
        let registry = LayoutRegistry(log: DurableLog(store: store))
        let items = (0..<30).map { k -> Item in
            let id: String? = k % 4 == 0 ? "i\(k)" : nil
            return Item(height: Double(20 + k % 7), id: id)
        }
        let spec = LayoutSpec(
            width: 300, defaults: SectionProperties(columns: 3),
            sections: [SectionSpec(items: items), SectionSpec(properties: SectionProperties(columns: 2), items: items)])
        _ = try await registry.create(
            LayoutCreateRequest(layout: "feed", replace: false, wantsDiff: false, spec: spec), limits: limits)
        // A first change makes the journal allocate room ahead, so that the failing visit gets as far as its
        // write (or sync) before failing.
        let first = await registry.apply(
            [update("feed", [ItemUpdate(index: 1, item: Item(height: 7))])], to: "feed", limits: limits)
        #expect(first.map { (try? $0.outcome.get())?.seq } == [2])
        let before = try await registry.snapshot("feed")
        let budget = registry.budget.current
        files.faults.withLock {
            if fault == "write" { $0.write = EIO } else { $0.sync = EIO }
        }
        let refused = await registry.apply(visit, to: "feed", limits: limits)
        #expect(refused.count == visit.count)
        for (k, outcome) in refused.map(\.outcome).enumerated() {
            guard case .failure(let error) = outcome else {
                Issue.record("change \(k) was accepted")
                continue
            }
            #expect(error.code == (k == bad ? .notFound : .storage), "\(k): \(error)")
        }
        let after = try await registry.snapshot("feed")
        #expect(after.seq == before.seq)
        #expect(after.spec == before.spec)
        #expect(after.sectionCount == before.sectionCount)
        for s in 0..<before.sectionCount { #expect(after.frames(ofSection: s) == before.frames(ofSection: s)) }
        #expect(registry.budget.current == budget)
        files.faults.withLock {
            $0.write = nil
            $0.sync = nil
        }
        let again = await registry.apply(Array(visit[..<1]), to: "feed", limits: limits)
        #expect(again.map { (try? $0.outcome.get())?.seq } == [3])
    }
}
