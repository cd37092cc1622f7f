import Dispatch
import Glibc
import Synchronization
import WaterfallStorageFormat

/// One layout's files: its journal segment (where its records are appended, opened through the store's
/// `JournalDescriptors` when written), and which older segments a snapshot has yet to make redundant.
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
        var segment: JournalSegment?
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

        /// Closes the segment for good (the layout is dropped or replaced, or the store is closing).
        mutating func close() {
            segment?.close()
            segment = nil
        }
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

    /// Makes sure the segment has disk space allocated for `bytes` more, so that writing them cannot fail for want
    /// of space; the allocation grows ahead of what the segment holds (`allocation(toHold:)`), so that most calls
    /// make no system call and a small journal takes little disk.
    ///
    /// - Throws: `StorageError.system` (ENOSPC) when the space cannot be had: the caller refuses the change
    ///   before making it.
    func reserve(_ bytes: Int) throws(StorageError) {
        try journal.withLock { (journal: inout Journal) throws(StorageError) in
            guard let segment = journal.segment else { throw .closed }
            let needed = journal.size + bytes
            guard needed > journal.reserved else { return }
            let ahead = Self.allocation(toHold: needed)
            do throws(StorageError) {
                try segment.reserve(offset: journal.size, length: ahead - journal.size)
                journal.reserved = ahead
            } catch {
                // Short of space for the step ahead: the change itself may still fit.
                try segment.reserve(offset: journal.size, length: bytes)
                journal.reserved = needed
            }
        }
    }

    /// The bytes a segment allocates to hold `needed`: the next power of two from 4 KiB (a file system block) to
    /// 1 MiB, then whole mebibytes; so a segment's disk follows what it holds, within a factor of two.
    static func allocation(toHold needed: Int) -> Int {
        let block = 4096
        let step = 1 << 20
        guard needed > block else { return block }
        guard needed <= step else { return (needed + step - 1) / step * step }
        return 1 << (Int.bitWidth - (needed - 1).leadingZeroBitCount)
    }

    /// The segment to sync, if it has unsynced writes (clearing the mark: a write after this sets it again).
    func takeDirtySegment() -> JournalSegment? {
        journal.withLock { journal in
            guard journal.dirty, let segment = journal.segment else { return nil }
            journal.dirty = false
            return segment
        }
    }

    /// Marks the segment dirty again after its sync failed, so that the next round retries.
    func markDirty() { journal.withLock { $0.dirty = true } }
}

/// A journal segment's file, written through the store's bounded set of open descriptors: each operation opens
/// the file first if it was closed to make room.
struct JournalSegment: Sendable {
    /// The segment's key in `descriptors`.
    let key: UInt64
    let path: String
    let descriptors: JournalDescriptors

    /// Writes all of `bytes` with one `write` (and more only if the kernel takes less).
    func write(_ bytes: [UInt8]) throws(StorageError) {
        try descriptors.withDescriptor(key, path: path) { fd throws(StorageError) in
            try bytes.withUnsafeBytes { descriptors.files.write(fd, $0) }.orThrow("write", path)
        }
    }

    func dataSync() throws(StorageError) {
        try descriptors.withDescriptor(key, path: path) { fd throws(StorageError) in
            try descriptors.files.fdatasync(fd).orThrow("fdatasync", path)
        }
    }

    func reserve(offset: Int, length: Int) throws(StorageError) {
        try descriptors.withDescriptor(key, path: path) { fd throws(StorageError) in
            try descriptors.files.reserve(fd, offset: offset, length: length).orThrow("fallocate", path)
        }
    }

    func truncate(to length: Int) throws(StorageError) {
        try descriptors.withDescriptor(key, path: path) { fd throws(StorageError) in
            try descriptors.files.ftruncate(fd, length: length).orThrow("truncate", path)
        }
    }

    /// Closes the file for good: the segment is not written again.
    func close() { descriptors.close(key) }
}
