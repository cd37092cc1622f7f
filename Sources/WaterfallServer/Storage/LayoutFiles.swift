import Dispatch
import Glibc
import Synchronization
import WaterfallStorageFormat

/// One layout's files: its open journal segment (where its records are appended), and which older segments a
/// snapshot has yet to make redundant.
final class LayoutFiles: Sendable {
    // MARK: Lifecycle

    init(id: UInt64, name: String, journal: Journal) {
        self.id = id
        self.name = name
        self.journal = Mutex(journal)
        queue = DispatchQueue(label: "waterfalld.journal.L\(id)")
    }

    // MARK: Internal

    /// The state of the journal, under the layout's lock.
    struct Journal {
        /// The segment records are appended to; nil once the layout is dropped or replaced.
        var segment: FileDescriptor?
        var generation: UInt64
        /// The first segment still on disk (older ones were made redundant by a snapshot and removed).
        var oldestGeneration: UInt64
        /// The bytes of the segment that hold whole records: a failed write is cut back to this.
        var size: Int
        /// Whether the segment holds writes not yet `fdatasync`ed.
        var dirty = false
        /// Where the disk space allocated ahead of the segment's end ends (`reserve`).
        var reserved = 0
        /// Whether a failed write could not be cut back: the next append cuts first.
        var needsTruncate = false
        /// Journal bytes since the last snapshot (or since the start), to decide when the next is due.
        var bytesSinceSnapshot = 0
        var snapshotting = false
    }

    let id: UInt64
    let name: String
    let journal: Mutex<Journal>
    /// Where async commits to this layout run, in order, off the cooperative pool.
    let queue: DispatchQueue

    /// Appends `bytes` (whole framed records) with one `write`; with `.always`, makes them durable with one
    /// `fdatasync` before returning.
    ///
    /// - Throws: `StorageError.system` for a failed write or sync; the segment is then cut back to its last whole
    ///   record (now or, if that fails too, before the next append), so that it never holds a partial record
    ///   before a later one.
    func append(_ bytes: [UInt8], policy: FsyncPolicy) throws(StorageError) {
        try journal.withLock { (journal: inout Journal) throws(StorageError) in
            guard let segment = journal.segment else { throw .closed }
            if journal.needsTruncate {
                try segment.truncate(to: journal.size)
                journal.needsTruncate = false
            }
            do throws(StorageError) {
                try segment.write(bytes)
                if policy == .always { try segment.dataSync() }
            } catch {
                // A sync that failed may have lost the pages it was writing: the records are cut too, so the file
                // never claims a change its caller was told had failed.
                do throws(StorageError) { try segment.truncate(to: journal.size) } catch {
                    journal.needsTruncate = true
                }
                // A truncation frees the blocks allocated past the new end too.
                journal.reserved = journal.size
                throw error
            }
            journal.size += bytes.count
            journal.bytesSinceSnapshot += bytes.count
            journal.dirty = policy != .always
        }
    }

    /// Makes sure the segment has disk space allocated for `bytes` more, allocating ahead in steps of at least
    /// `step` so that most calls make no system call.
    ///
    /// - Throws: `StorageError.system` (ENOSPC) when the space cannot be had: the caller refuses the change
    ///   before making it.
    func reserve(_ bytes: Int, step: Int) throws(StorageError) {
        try journal.withLock { (journal: inout Journal) throws(StorageError) in
            guard let segment = journal.segment else { throw .closed }
            let needed = journal.size + bytes
            guard needed > journal.reserved else { return }
            do throws(StorageError) {
                try segment.reserve(offset: journal.size, length: bytes + step)
                journal.reserved = needed + step
            } catch {
                // Short of space for the step ahead: the change itself may still fit.
                try segment.reserve(offset: journal.size, length: bytes)
                journal.reserved = needed
            }
        }
    }

    /// The segment to sync, if it has unsynced writes (clearing the mark: a write after this sets it again).
    func takeDirtySegment() -> FileDescriptor? {
        journal.withLock { journal in
            guard journal.dirty, let segment = journal.segment else { return nil }
            journal.dirty = false
            return segment
        }
    }

    /// Marks the segment dirty again after its sync failed, so that the next round retries.
    func markDirty() { journal.withLock { $0.dirty = true } }
}
