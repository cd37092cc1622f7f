import Glibc
import Testing
import WaterfallLayout
import WaterfallStorageFormat
import WaterfallTestSupport

@testable import WaterfallServer

@Suite(.tags(.disk)) struct StorageFailureTests {
    /// A write that fails part-way (a full disk, an I/O error) is a typed error naming the file; the journal is cut
    /// back to its last whole record, later commits go through once the fault is gone, and recovery sees exactly
    /// the commits that succeeded.
    @Test(arguments: [ENOSPC, EIO], [0, 5, 1000])
    func aFailedWriteChangesNothing(code: Int32, partial: Int) async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let files = FaultyFiles()
        let driver = StoreDriver(path: path)
        _ = try await driver.open(.everysec, files: files)
        try await driver.create("a")
        try await driver.change("a", count: 5)
        let size = readBytes(path + "/L1.0.wfj").count
        files.faults.withLock {
            $0.write = code
            $0.partial = partial
        }
        let layout = driver.layouts["a"]!
        let command = LayoutCommand.configureLayout(LayoutPatch(minContentHeight: 5))
        await #expect(throws: StorageError.system(operation: "write", path: path + "/L1.0.wfj", errno: code)) {
            try await driver.store!.commit([.applied("a", seq: layout.seq + 1, commands: [command])])
        }
        #expect(readBytes(path + "/L1.0.wfj").count == size)
        // A create fails the same way, and leaves no file behind.
        await #expect(throws: StorageError.self) { try await driver.create("b") }
        #expect(storeFiles(path) == ["L1.0.wfj"])
        files.faults.withLock { $0.write = nil }
        try await driver.change("a", count: 3)
        driver.close()
        try await expectSame(try await driver.open(), driver.layouts)
        driver.close()
    }

    /// Space reserved ahead of the journal's end is allocated on disk without changing the file's size.
    @Test func reservingAllocatesAhead() async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let driver = StoreDriver(path: path)
        _ = try await driver.open(.never)
        try await driver.create("a")
        var before = stat()
        _ = stat(path + "/L1.0.wfj", &before)
        try driver.store!.reserve("a", bytes: 100_000)
        var after = stat()
        _ = stat(path + "/L1.0.wfj", &after)
        #expect(after.st_size == before.st_size)
        #expect(after.st_blocks * 512 >= 100_000)
        #expect(throws: StorageError.unknownLayout("b")) { try driver.store!.reserve("b", bytes: 1) }
        try await driver.change("a", count: 10)
        driver.close()
        try await expectSame(try await driver.open(), driver.layouts)
        driver.close()
    }

    /// Under `always`, a failed `fdatasync` refuses the commit and cuts its records (their durability is unknown).
    @Test func aFailedSyncRefusesTheCommit() async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let files = FaultyFiles()
        let driver = StoreDriver(path: path)
        _ = try await driver.open(.always, files: files)
        try await driver.create("a")
        let size = readBytes(path + "/L1.0.wfj").count
        files.faults.withLock { $0.sync = EIO }
        let command = LayoutCommand.configureLayout(LayoutPatch(minContentHeight: 5))
        await #expect(throws: StorageError.system(operation: "fdatasync", path: path + "/L1.0.wfj", errno: EIO)) {
            try await driver.store!.commit([.applied("a", seq: 2, commands: [command])])
        }
        #expect(readBytes(path + "/L1.0.wfj").count == size)
        files.faults.withLock { $0.sync = nil }
        try await driver.change("a", count: 2)
        driver.close()
        try await expectSame(try await driver.open(), driver.layouts)
        driver.close()
    }

    /// A real full disk: a 1 MB tmpfs (where this test may mount one, as root; skipped elsewhere). Commits fail
    /// with ENOSPC once it is full, and succeed again once a drop frees space.
    @Test func aSmallTmpfsFillsAndRecovers() async throws {
        let base = try makeTemporaryDirectory()
        defer { removeDirectory(base) }
        guard getuid() == 0, mount("tmpfs", base, "tmpfs", 0, "size=1m") == 0 else { return }
        defer { umount2(base, Int32(MNT_DETACH)) }
        let path = base + "/state"
        let driver = StoreDriver(path: path)
        _ = try await driver.open(.always)
        let big = LayoutSpec(
            width: 300, sections: [SectionSpec(items: (0..<40_000).map { Item(height: Double($0) + 0.5) })])
        var full: StorageError?
        for k in 0..<10 {
            do {
                try await driver.create("big\(k)", big)
            } catch let error as StorageError {
                full = error
                break
            }
        }
        guard case .system(_, _, let code) = full else {
            Issue.record("the tmpfs never filled: \(String(describing: full))")
            return
        }
        #expect(code == ENOSPC)
        // A change that needs more room than is left is refused before it is made.
        let bound = JournalRecord.encodedSizeBound([
            .insertItems(section: 0, at: 0, items: ItemList(big.sections[0].items))
        ])
        #expect(throws: StorageError.self) { try driver.store!.reserve("big0", bytes: bound) }
        try await driver.drop("big0")
        try driver.store!.reserve("big1", bytes: bound / 4)
        try await driver.create("small", LayoutSpec(width: 300, sections: [SectionSpec(items: [Item(height: 1)])]))
        driver.close()
        try await expectSame(try await driver.open(), driver.layouts)
        driver.close()
        removeDirectory(path)
    }
}
