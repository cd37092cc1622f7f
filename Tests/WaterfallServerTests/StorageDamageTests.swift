import Glibc
import Testing
import WaterfallLayout
import WaterfallStorageFormat
import WaterfallTestSupport

@testable import WaterfallServer

@Suite(.tags(.disk)) struct StorageDamageTests {
    /// A small journal: a creation and `changes` changes, its bytes, and the layout after each record.
    static func journal(changes: Int) async throws -> (bytes: [UInt8], ends: [Int], states: [LayoutWidths]) {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let driver = StoreDriver(path: path, seed: 5)
        driver.random.maxItems = 4
        _ = try await driver.open(.never)
        try await driver.create("a")
        var states = [driver.layouts["a"]!]
        for _ in 0..<changes {
            try await driver.change("a", count: 1)
            states.append(driver.layouts["a"]!)
        }
        driver.close()
        let bytes = readBytes(path + "/L1.0.wfj")
        let contents = try bytes.withUnsafeBytes { try JournalRecord.read($0) }
        return (bytes, contents.records.map(\.offset).dropFirst() + [bytes.count], states)
    }

    /// Cut at every byte, a journal recovers as the records that fit whole, cutting off the torn one.
    @Test func tornAtEveryByte() async throws {
        let (bytes, ends, states) = try await Self.journal(changes: 4)
        for cut in 0...bytes.count {
            let path = try makeTemporaryDirectory()
            defer { removeDirectory(path) }
            writeBytes(path + "/L1.0.wfj", Array(bytes[..<cut]))
            let capture = LogCapture()
            let driver = StoreDriver(path: path)
            let recovered = try await driver.open(logger: capture.logger)
            let whole = ends.filter { $0 <= cut }.count
            if whole == 0 {
                // The creation itself never reached the disk whole: there is no layout, and no file.
                #expect(recovered.isEmpty, "cut at \(cut)")
                #expect(storeFiles(path).isEmpty, "cut at \(cut)")
            } else {
                try await expectSame(recovered, ["a": states[whole - 1]], "cut at \(cut)")
                let torn = cut != ends[whole - 1]
                #expect(capture.lines.withLock { $0.contains { $0.contains("torn") } } == torn, "cut at \(cut)")
                // The cut is made on disk, and the journal takes new records after it.
                driver.adopt(recovered)
                try await driver.change("a", count: 1)
                driver.close()
                try await expectSame(try await driver.open(), driver.layouts, "cut at \(cut), then a change")
            }
            driver.close()
        }
    }

    /// A flipped byte before the last record refuses recovery, naming the file and the record's offset; repair
    /// keeps the records before it and moves the rest aside.
    @Test func aFlippedByteRefusesThenRepairKeepsThePrefix() async throws {
        let (bytes, ends, states) = try await Self.journal(changes: 6)
        let record = 3
        let position = ends[record - 1] + 12
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        var damaged = bytes
        damaged[position] ^= 0x40
        writeBytes(path + "/L1.0.wfj", damaged)
        let driver = StoreDriver(path: path)
        do {
            _ = try await driver.open()
            Issue.record("recovery accepted a damaged journal")
        } catch let error as StorageError {
            guard case .damaged(let file, let offset, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(file == path + "/L1.0.wfj")
            #expect(offset == ends[record - 1])
            #expect("\(error)".contains("L1.0.wfj is damaged at byte \(ends[record - 1])"))
        }
        driver.close()
        let directory = try await lockedDirectory(path)
        let store = DurableStore(directory: directory)
        let (recovered, actions) = try await store.repair()
        store.close()
        #expect(actions.count == 1)
        #expect(actions.first?.contains("kept \(ends[record - 1]) bytes") == true, "\(actions)")
        try await expectSame(recovered, ["a": states[record - 1]])
        #expect(readBytes(path + "/L1.0.wfj.damaged-at-\(ends[record - 1])") == Array(damaged[ends[record - 1]...]))
        try await expectSame(try await driver.open(), ["a": states[record - 1]], "after repair")
        driver.close()
    }

    /// A damaged snapshot refuses recovery; repair moves it aside, and with it the journal that cannot stand
    /// without it (its older segments went when the snapshot was taken), reporting both.
    @Test func aDamagedSnapshotIsMovedAside() async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let driver = StoreDriver(path: path)
        _ = try await driver.open(.never)
        try await driver.create("a")
        try await driver.create("b")
        driver.store!.snapshot("a", driver.layouts["a"]!)
        driver.store!.waitForSnapshots()
        try await driver.change("a", count: 3)
        driver.close()
        var snapshot = readBytes(path + "/L1.wfs")
        snapshot[snapshot.count / 2] ^= 1
        writeBytes(path + "/L1.wfs", snapshot)
        await #expect(throws: StorageError.self) { _ = try await driver.open() }
        driver.close()
        let store = DurableStore(directory: try await lockedDirectory(path))
        let (recovered, actions) = try await store.repair()
        store.close()
        #expect(actions.count == 2, "\(actions)")
        #expect(actions.first?.contains("L1.wfs: damaged at byte") == true, "\(actions)")
        #expect(recovered.map(\.name) == ["b"])
        #expect(storeFiles(path).contains("L1.wfs.damaged"))
    }

    /// A snapshot interrupted before its rename leaves a temporary file: it is ignored and removed.
    @Test func anInterruptedSnapshotIsIgnored() async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        let driver = StoreDriver(path: path)
        _ = try await driver.open(.always)
        try await driver.create("a")
        try await driver.change("a", count: 5)
        driver.store!.snapshot("a", driver.layouts["a"]!)
        driver.store!.waitForSnapshots()
        try await driver.change("a", count: 5)
        driver.close()
        // What a crash between the temporary file's write and its rename leaves: a newer, maybe partial, snapshot.
        let snapshot = readBytes(path + "/L1.wfs")
        writeBytes(path + "/L1.wfs.tmp", Array(snapshot[..<(snapshot.count / 2)]))
        try await expectSame(try await driver.open(), driver.layouts)
        #expect(!storeFiles(path).contains("L1.wfs.tmp"))
        driver.close()
    }

    /// A file from another format version is refused, naming the file and the version.
    @Test(arguments: [UInt16(0), 2])
    func otherFormatVersionsAreRefused(version: UInt16) async throws {
        let path = try makeTemporaryDirectory()
        defer { removeDirectory(path) }
        var w = ByteWriter()
        w.bytes = RecordFile.header(.journal, version: version)
        JournalRecord.create(layout: "a", seq: 1, spec: LayoutSpec(width: 100)).encode(into: &w)
        writeBytes(path + "/L1.0.wfj", w.bytes)
        let driver = StoreDriver(path: path)
        await #expect(throws: StorageError.unsupportedVersion(path: path + "/L1.0.wfj", found: version, supported: 1)) {
            _ = try await driver.open()
        }
        driver.close()
        #expect(
            "\(StorageError.unsupportedVersion(path: "/p", found: version, supported: 1))".contains(
                "version \(version)"))
    }
}
