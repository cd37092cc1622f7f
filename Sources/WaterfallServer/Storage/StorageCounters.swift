import Glibc
import Synchronization
import WaterfallProtocol
import WaterfallWire

/// The store's counters for `stats` and `metrics`: journal bytes, syncs and their latency, snapshots, recovery.
///
/// A lock per sync or per commit, never per request: a commit is one visit's records.
final class StorageCounters: Sendable {
    private let stats = Mutex(StorageStats())

    var snapshot: StorageStats { stats.withLock { $0 } }

    func addJournalBytes(_ count: Int) { stats.withLock { $0.journalBytes += count } }
    func addSync(seconds: Double) { stats.withLock { $0.recordSync(seconds) } }

    func addSnapshot(seconds: Double) {
        stats.withLock {
            $0.snapshots += 1
            $0.snapshotSeconds += seconds
        }
    }

    func setRecovery(seconds: Double) { stats.withLock { $0.recoverySeconds = seconds } }
}

/// The store's file operations with every `fdatasync` and `fsync` timed into its counters.
struct MeasuredFileOperations: FileOperations {
    let base: any FileOperations
    let counters: StorageCounters

    func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
        base.open(path, flags: flags, mode: mode)
    }
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, Errno> { base.write(fd, bytes) }
    func fdatasync(_ fd: Int32) -> Result<Void, Errno> { timed { base.fdatasync(fd) } }
    func fsync(_ fd: Int32) -> Result<Void, Errno> { timed { base.fsync(fd) } }
    func ftruncate(_ fd: Int32, length: Int) -> Result<Void, Errno> { base.ftruncate(fd, length: length) }
    func reserve(_ fd: Int32, offset: Int, length: Int) -> Result<Void, Errno> {
        base.reserve(fd, offset: offset, length: length)
    }
    func rename(_ from: String, _ to: String) -> Result<Void, Errno> { base.rename(from, to) }
    func unlink(_ path: String) -> Result<Void, Errno> { base.unlink(path) }
    func close(_ fd: Int32) { base.close(fd) }

    private func timed(_ body: () -> Result<Void, Errno>) -> Result<Void, Errno> {
        let start = MonotonicClock.now
        let result = body()
        counters.addSync(seconds: MonotonicClock.now - start)
        return result
    }
}
