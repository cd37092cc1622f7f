import Glibc
import Synchronization
import Testing
import WaterfallLayout
import WaterfallStorageFormat
import WaterfallTestSupport

@testable import WaterfallServer

/// Layouts built in memory next to a store that journals every change, as the registry will drive it.
final class StoreDriver {
    let path: String
    var store: DurableStore?
    var layouts: [String: LayoutWidths] = [:]
    var random: RandomCommands

    init(path: String, seed: UInt64 = 1) {
        self.path = path
        random = RandomCommands(seed: seed, maxItems: 30)
    }

    /// Opens (and locks) the directory and recovers what it holds.
    func open(
        _ policy: FsyncPolicy = .always, files: any FileOperations = SystemFileOperations(), minimum: Int = 1 << 30,
        logger: Logger? = nil
    ) async throws -> [RecoveredLayout] {
        let directory = try await lockedDirectory(path, files: files)
        let store = DurableStore(
            directory: directory, options: StoreOptions(policy: policy, snapshotMinimumBytes: minimum, files: files),
            logger: logger)
        self.store = store
        return try await store.recover()
    }

    /// Takes recovered layouts as the ones to change next.
    func adopt(_ recovered: [RecoveredLayout]) {
        layouts = Dictionary(uniqueKeysWithValues: recovered.map { ($0.name, $0.layout) })
    }

    /// Closes the store and releases the directory's lock.
    func close() {
        store?.close()
        store = nil
    }

    func create(_ name: String, _ spec: LayoutSpec? = nil) async throws {
        let spec = spec ?? random.layout()
        let layout = try await LayoutWidths.make(spec).layouts
        try await store!.commit([.created(name, seq: layout.seq, spec: spec)])
        layouts[name] = layout
    }

    /// Applies random commands to `name` until `count` of them succeeded, journaling each (snapshots when due).
    func change(_ name: String, count: Int) async throws {
        var done = 0
        while done < count {
            var layout = layouts[name]!
            let counts = (0..<layout.first.sectionCount).map { layout.first.itemCount(inSection: $0) }
            let command = random.command(counts: counts)
            // As the registry will: space first, so that a full disk refuses the change before it is made.
            try store!.reserve(name, bytes: JournalRecord.encodedSizeBound([command]))
            guard (try? await layout.validateAndApply([command])) != nil else { continue }
            try await store!.commit([.applied(name, seq: layout.seq, commands: [command])])
            layouts[name] = layout
            store!.snapshotIfDue(name, layout)
            done += 1
        }
    }

    func drop(_ name: String) async throws {
        try await store!.commit([.dropped(name)])
        layouts[name] = nil
    }
}

/// Whether `recovered` holds exactly `expected`: same names, seqs and inputs, and frames equal to a fresh
/// `Layout.make` of those inputs.
func expectSame(_ recovered: [RecoveredLayout], _ expected: [String: LayoutWidths], _ note: String = "") async throws {
    #expect(recovered.map(\.name) == expected.keys.sorted(), "\(note)")
    for r in recovered {
        guard let layout = expected[r.name] else { continue }
        #expect(r.layout.seq == layout.seq, "\(note) \(r.name)")
        #expect(r.layout.spec == layout.spec, "\(note) \(r.name)")
        let fresh = try await LayoutWidths.make(layout.spec).layouts
        for width in fresh.widths {
            let there = try #require(r.layout.at(width: width), "\(note) \(r.name) at \(width)")
            let expected = try #require(fresh.at(width: width))
            for s in 0..<expected.sectionCount {
                #expect(
                    there.frames(ofSection: s) == expected.frames(ofSection: s),
                    "\(note) \(r.name) at \(width), section \(s)")
            }
            #expect(there.contentSize == expected.contentSize, "\(note) \(r.name) at \(width)")
        }
    }
}

/// The store's files in `path`, by name.
func storeFiles(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name.hasPrefix("L") { names.append(name) }
    }
    return names.sorted()
}

func readBytes(_ path: String) -> [UInt8] { StateDirectory.readFile(path) ?? [] }

func writeBytes(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
}

/// Real file operations that fail on demand: writes with an errno after writing a prefix, syncs with an errno;
/// and counts syncs.
final class FaultyFiles: FileOperations {
    struct Faults {
        var write: Int32?
        /// How many bytes a failing write writes before failing.
        var partial = 0
        var sync: Int32?
        var syncs = 0
    }

    let faults = Mutex(Faults())
    private let system = SystemFileOperations()

    func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
        system.open(path, flags: flags, mode: mode)
    }

    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        let (code, partial) = faults.withLock { ($0.write, $0.partial) }
        guard let code else { return system.write(fd, bytes) }
        _ = system.write(fd, UnsafeRawBufferPointer(rebasing: bytes[..<min(partial, bytes.count)]))
        return .failure(Errno(code))
    }

    func fdatasync(_ fd: Int32) -> Result<Void, Errno> {
        let code = faults.withLock { faults -> Int32? in
            faults.syncs += 1
            return faults.sync
        }
        if let code { return .failure(Errno(code)) }
        return system.fdatasync(fd)
    }

    func fsync(_ fd: Int32) -> Result<Void, Errno> { system.fsync(fd) }
    func reserve(_ fd: Int32, offset: Int, length: Int) -> Result<Void, Errno> {
        if let code = faults.withLock({ $0.write }) { return .failure(Errno(code)) }
        return system.reserve(fd, offset: offset, length: length)
    }
    func ftruncate(_ fd: Int32, length: Int) -> Result<Void, Errno> { system.ftruncate(fd, length: length) }
    func rename(_ from: String, _ to: String) -> Result<Void, Errno> { system.rename(from, to) }
    func unlink(_ path: String) -> Result<Void, Errno> { system.unlink(path) }
    func close(_ fd: Int32) { system.close(fd) }
}

/// Runs `body` again while it fails because this process (or, in a crash test's writer, its parent) still seems
/// to hold the directory's lock.
///
/// A test that spawns a child (the crash tests) lends it a copy of every descriptor of this process until the child
/// execs, close-on-exec or not (posix_spawn's child starts with a copy of the table); a lock released in that window
/// stays held by the copy for a moment. The daemon spawns nothing, so only tests need this.
func retryingInUse<T>(_ body: () async throws -> T) async throws -> T {
    for _ in 0..<100 {
        do {
            return try await body()
        } catch StorageError.inUse(_, let pid) where pid == getpid() || pid == getppid() {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
    return try await body()
}

/// The directory at `path`, locked (see `retryingInUse`).
func lockedDirectory(_ path: String, files: any FileOperations = SystemFileOperations()) async throws -> StateDirectory
{
    try await retryingInUse { try StateDirectory(path: path, files: files) }
}
