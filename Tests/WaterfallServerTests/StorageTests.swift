import Glibc
import Testing
import WaterfallLayout
import WaterfallStorageFormat
import WaterfallTestSupport

@testable import WaterfallServer

@Suite(.tags(.disk)) struct StorageTests {
    /// Layouts created, changed, replaced and dropped come back after a restart exactly as they were built, under
    /// every policy, with and without snapshots taken along the way.
    @Test(arguments: FsyncPolicy.allCases, [1 << 30, 2000])
    func recoveryEqualsWhatWasBuilt(policy: FsyncPolicy, minimum: Int) async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let driver = StoreDriver(path: path, seed: UInt64(minimum))
        #expect(try await driver.open(policy, minimum: minimum).isEmpty)
        try await driver.create("feed")
        try await driver.create("grid")
        try await driver.create("gone")
        try await driver.change("feed", count: 60)
        try await driver.change("grid", count: 20)
        try await driver.drop("gone")
        try await driver.create("grid")  // a replacement starts over at seq 1
        try await driver.change("grid", count: 5)
        driver.store!.waitForSnapshots()
        driver.close()
        try await expectSame(try await driver.open(policy, minimum: minimum), driver.layouts, "\(policy)")
        // The seq continues across the restart.
        try await driver.change("feed", count: 3)
        driver.close()
        try await expectSame(try await driver.open(policy, minimum: minimum), driver.layouts, "\(policy) again")
        driver.close()
        if minimum < 1 << 30 { #expect(storeFiles(path).contains { $0.hasSuffix(".wfs") }) }
        #expect(!storeFiles(path).contains { $0.hasSuffix(".tmp") })
    }

    /// A journal longer than one replay run (recovery replays up to 4096 item and section moves as one change)
    /// comes back exactly as it was built one change at a time, across the runs' boundaries.
    @Test func aLongJournalReplaysInRunsToTheSameLayout() async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let driver = StoreDriver(path: path, seed: 11)
        _ = try await driver.open(.never)
        try await driver.create("feed")
        // Most random changes are moves: two runs or more.
        try await driver.change("feed", count: 6_500)
        driver.close()
        let recovered = try await driver.open(.never)
        #expect(recovered.first?.layout.seq == 6_501)
        try await expectSame(recovered, driver.layouts)
        driver.close()
    }

    /// After a snapshot, the journal segments it covers are gone: the journal stays near the size of the state.
    @Test func snapshotsDropTheSegmentsTheyCover() async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let driver = StoreDriver(path: path)
        _ = try await driver.open(.never, minimum: 1)
        try await driver.create("a")
        for _ in 0..<5 {
            try await driver.change("a", count: 10)
            driver.store!.waitForSnapshots()
        }
        let files = storeFiles(path)
        #expect(files.filter { $0.hasSuffix(".wfj") }.count == 1, "\(files)")
        #expect(files.contains("L1.wfs"), "\(files)")
        driver.close()
        try await expectSame(try await driver.open(.never), driver.layouts)
        driver.close()
    }

    /// `always` syncs once per commit (a commit of many changes shares one), `everysec` from its own thread
    /// within about a second and never in the commit, `never` not at all.
    @Test(arguments: FsyncPolicy.allCases)
    func policiesSyncAsTheyPromise(policy: FsyncPolicy) async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let files = FaultyFiles()
        let driver = StoreDriver(path: path)
        _ = try await driver.open(policy, files: files)
        try await driver.create("a", LayoutSpec(width: 300, sections: [SectionSpec()]))
        let before = files.faults.withLock { $0.syncs }
        let group = (2..<12).map {
            JournalEntry.applied("a", seq: $0, commands: [.insertItems(section: 0, at: 0, items: [Item(height: 1)])])
        }
        try await driver.store!.commit(group)
        let afterCommit = files.faults.withLock { $0.syncs }
        switch policy {
        case .always: #expect(afterCommit == before + 1)
        case .everysec, .never: #expect(afterCommit == before)
        }
        try await Task.sleep(for: .milliseconds(1600))
        let later = files.faults.withLock { $0.syncs }
        switch policy {
        case .always, .never: #expect(later == afterCommit)
        case .everysec: #expect(later > afterCommit)
        }
        driver.close()
    }

    /// A second opener of a directory in use is told who holds it.
    @Test func aLockedDirectoryNamesItsHolder() throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let first = try StateDirectory(path: path)
        #expect(throws: StorageError.inUse(directory: path, pid: getpid())) { try StateDirectory(path: path) }
        #expect(
            StorageError.inUse(directory: path, pid: 42).description == "state directory \(path) is in use by pid 42")
        _ = first
    }

    @Test func theDirectoryIsFoundAndMadePrivate() throws {
        let environment = ["STATE_DIRECTORY": "/s:/t", "XDG_STATE_HOME": "/x", "HOME": "/h"]
        #expect(StateDirectory.resolve(explicit: "/e", environment: environment) == "/e")
        #expect(StateDirectory.resolve(explicit: nil, environment: environment) == "/s")
        #expect(
            StateDirectory.resolve(explicit: nil, environment: ["XDG_STATE_HOME": "/x", "HOME": "/h"])
                == "/x/waterfalld")
        #expect(StateDirectory.resolve(explicit: nil, environment: ["HOME": "/h"]) == "/h/.local/state/waterfalld")
        #expect(StateDirectory.resolve(explicit: nil, environment: [:]) == nil)
        let base = try makeTemporaryDirectory()
        defer {
            removeDirectory(base + "/a/b")
            removeDirectory(base + "/a")
            removeDirectory(base)
        }
        _ = try StateDirectory(path: base + "/a/b")
        var info = stat()
        #expect(stat(base + "/a/b", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }
}

@Suite(.tags(.disk)) struct StorageConcurrencyTests {
    /// Layouts changed at once from several tasks (each through the async commit, as the registry's layout actors
    /// will), with snapshots taken along the way, all come back as built.
    @Test func concurrentLayoutsRecover() async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let store = DurableStore(
            directory: try await lockedDirectory(path),
            options: StoreOptions(policy: .everysec, snapshotMinimumBytes: 1500))
        _ = try await store.recover()
        let built = try await withThrowingTaskGroup(of: (String, LayoutWidths).self) { group in
            for k in 0..<4 {
                group.addTask {
                    var random = RandomCommands(seed: UInt64(k), maxItems: 30)
                    let name = "layout \(k)"
                    let spec = random.layout()
                    var layout = try await LayoutWidths.make(spec).layouts
                    try await store.commit([.created(name, seq: 1, spec: spec)])
                    for _ in 0..<80 {
                        let counts = (0..<layout.first.sectionCount).map { layout.first.itemCount(inSection: $0) }
                        let command = random.command(counts: counts)
                        guard (try? await layout.validateAndApply([command])) != nil else { continue }
                        try await store.commit([.applied(name, seq: layout.seq, commands: [command])])
                        store.snapshotIfDue(name, layout)
                    }
                    return (name, layout)
                }
            }
            var all: [String: LayoutWidths] = [:]
            for try await (name, layout) in group { all[name] = layout }
            return all
        }
        store.close()
        let again = DurableStore(directory: try await lockedDirectory(path))
        try await expectSame(try await again.recover(), built)
        again.close()
        #expect(storeFiles(path).contains { $0.hasSuffix(".wfs") })
    }
}

@Suite(.tags(.disk)) struct StorageOpeningTests {
    /// Opening resolves, locks and recovers; a second opener is refused naming the pid; without any directory to
    /// use, the error says what to set.
    @Test func openingLocksAndRecovers() async throws {
        let base = try makeTemporaryDirectory()
        defer {
            removeDirectory(base + "/waterfalld")
            removeDirectory(base)
        }
        let environment = ["XDG_STATE_HOME": base]
        let first = try await DurableStore.open(directory: nil, environment: environment)
        #expect(first.layouts.isEmpty)
        #expect(first.store.directory.path == base + "/waterfalld")
        try await first.store.commit([.created("a", seq: 1, spec: LayoutSpec(width: 100))])
        await #expect(throws: StorageError.inUse(directory: base + "/waterfalld", pid: getpid())) {
            _ = try await DurableStore.open(directory: nil, environment: environment)
        }
        first.store.close()
        let second = try await retryingInUse {
            try await DurableStore.open(directory: base + "/waterfalld", environment: [:], repair: true)
        }
        #expect(second.layouts.map(\.name) == ["a"])
        #expect(second.repairs.isEmpty)
        second.store.close()
        await #expect(throws: StorageError.noDirectory) {
            _ = try await DurableStore.open(directory: nil, environment: [:])
        }
    }
}
