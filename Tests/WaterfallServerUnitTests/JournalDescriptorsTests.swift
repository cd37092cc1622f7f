import Glibc
import Synchronization
import Testing
import WaterfallTestSupport

@testable import WaterfallServer

/// The bounded set of open journal segments: never more descriptors than its capacity, the least recently used
/// closed first, a closed segment opened again where it left off, a retired one closed at once.
@Suite struct JournalDescriptorsTests {
    @Test func keepsAtMostItsCapacityOpenClosingTheLeastRecentlyUsed() throws {
        let (directory, files, descriptors) = try fixture(capacity: 3)
        defer { removeDirectory(directory) }
        let keys = (0..<5).map { _ in descriptors.newKey() }
        let paths = keys.map { directory + "/s\($0)" }
        for (key, path) in zip(keys, paths) {
            try descriptors.create(key, path: path)
            try write(descriptors, key, path, "a")
        }
        #expect(descriptors.counts == .init(capacity: 3, open: 3, reopens: 0, evictions: 2))
        #expect(files.open == 3)
        // Segments 2, 3 and 4 are open; 2 is the least recently used until it is written.
        try write(descriptors, keys[2], paths[2], "b")
        try write(descriptors, keys[0], paths[0], "b")
        #expect(descriptors.counts == .init(capacity: 3, open: 3, reopens: 1, evictions: 3))
        // Segment 3 was the least recently used: writing it reopens it.
        try write(descriptors, keys[3], paths[3], "b")
        #expect(descriptors.counts.reopens == 2)
        #expect(files.open == 3)
        #expect(contents(paths[0]) == "ab")
        #expect(contents(paths[1]) == "a")
        #expect(contents(paths[3]) == "ab")
    }

    @Test func closesARetiredSegmentAtOnce() throws {
        let (directory, files, descriptors) = try fixture(capacity: 8)
        defer { removeDirectory(directory) }
        let key = descriptors.newKey()
        try descriptors.create(key, path: directory + "/s")
        #expect(files.open == 1)
        descriptors.close(key)
        #expect(files.open == 0)
        #expect(descriptors.counts.open == 0)
    }

    @Test func closesALeasedSegmentWhenItsLeaseEnds() throws {
        let (directory, files, descriptors) = try fixture(capacity: 8)
        defer { removeDirectory(directory) }
        let key = descriptors.newKey()
        try descriptors.create(key, path: directory + "/s")
        try descriptors.withDescriptor(key, path: directory + "/s") { _ throws(StorageError) in
            descriptors.close(key)
            #expect(files.open == 1)
        }
        #expect(files.open == 0)
    }

    @Test func refusesAMissingSegmentAndStaysWithinCapacity() throws {
        let (directory, files, descriptors) = try fixture(capacity: 2)
        defer { removeDirectory(directory) }
        let key = descriptors.newKey()
        #expect(throws: StorageError.self) {
            try descriptors.withDescriptor(key, path: directory + "/missing") { _ throws(StorageError) in }
        }
        #expect(descriptors.counts.open == 0)
        #expect(files.open == 0)
    }

    @Test func threadsWritingMoreSegmentsThanItsCapacityNeverPassIt() async throws {
        let (directory, files, descriptors) = try fixture(capacity: 4)
        defer { removeDirectory(directory) }
        let keys = (0..<32).map { _ in descriptors.newKey() }
        for key in keys { try descriptors.create(key, path: directory + "/s\(key)") }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<200 {
                        let key = keys[(worker * 7 + round * 3) % keys.count]
                        try? write(descriptors, key, directory + "/s\(key)", "x")
                    }
                }
            }
        }
        #expect(files.mostOpen <= 4)
        let total = keys.reduce(0) { $0 + contents(directory + "/s\($1)").count }
        #expect(total == 8 * 200)
    }

    @Test(arguments: [
        (1, 4096), (4096, 4096), (4097, 8192), (100_000, 131_072), (1 << 20, 1 << 20), ((1 << 20) + 1, 2 << 20),
        (5_000_000, 5 << 20),
    ])
    func allocatesAheadInStepsThatFollowTheSegment(needed: Int, allocated: Int) {
        #expect(LayoutFiles.allocation(toHold: needed) == allocated)
    }
}

/// A fresh directory, file operations that count descriptors, and a set of `capacity` over them.
private func fixture(capacity: Int) throws -> (String, CountingFileOperations, JournalDescriptors) {
    let files = CountingFileOperations()
    return (try makeTemporaryDirectory(), files, JournalDescriptors(capacity: capacity, files: files))
}

private func write(_ descriptors: JournalDescriptors, _ key: UInt64, _ path: String, _ text: String) throws {
    try descriptors.withDescriptor(key, path: path) { fd throws(StorageError) in
        try Array(text.utf8).withUnsafeBytes { descriptors.files.write(fd, $0) }.orThrow("write", path)
    }
}

private func contents(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// The real system calls, counting the descriptors open at once.
private final class CountingFileOperations: FileOperations {
    private let base = SystemFileOperations()
    /// Open now, and the most open at once.
    private let counts = Mutex((now: 0, most: 0))

    var open: Int { counts.withLock { $0.now } }
    var mostOpen: Int { counts.withLock { $0.most } }

    func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
        let result = base.open(path, flags: flags, mode: mode)
        if case .success = result {
            counts.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
        }
        return result
    }
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, Errno> { base.write(fd, bytes) }
    func fdatasync(_ fd: Int32) -> Result<Void, Errno> { base.fdatasync(fd) }
    func fsync(_ fd: Int32) -> Result<Void, Errno> { base.fsync(fd) }
    func ftruncate(_ fd: Int32, length: Int) -> Result<Void, Errno> { base.ftruncate(fd, length: length) }
    func reserve(_ fd: Int32, offset: Int, length: Int) -> Result<Void, Errno> {
        base.reserve(fd, offset: offset, length: length)
    }
    func rename(_ from: String, _ to: String) -> Result<Void, Errno> { base.rename(from, to) }
    func unlink(_ path: String) -> Result<Void, Errno> { base.unlink(path) }
    func close(_ fd: Int32) {
        counts.withLock { $0.now -= 1 }
        base.close(fd)
    }
}
