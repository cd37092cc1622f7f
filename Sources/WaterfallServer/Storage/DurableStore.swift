import Dispatch
import Glibc
import Synchronization
import WaterfallLayout
import WaterfallStorageFormat

/// Keeps layouts across restarts: a journal per layout of every change, written before the change's reply is
/// released, and snapshots that make the journal's older segments redundant.
///
/// One journal per layout (not one per daemon): a snapshot of one layout then drops exactly that layout's old
/// segments, recovery rebuilds layouts in parallel with no shared file to split, and a dropped layout's files are
/// simply removed. The price is one `fdatasync` per layout a commit touches, where a daemon-wide journal would
/// need one; a commit is one layout's run of changes in the registry, so that is one.
///
/// Writes happen on the caller's thread (`commit`), or on a queue of the layout's own (`commit` async); `fdatasync`
/// for `everysec` on a thread of the store's own; snapshots on a queue of its own, from an immutable copy.
package final class DurableStore: Sendable {
    // MARK: Lifecycle

    /// A store on `directory` (already locked); call `recover()` before the first commit.
    package init(directory: StateDirectory, options: StoreOptions = StoreOptions(), logger: Logger? = nil) {
        self.directory = directory
        self.options = options
        self.logger = logger
        files = MeasuredFileOperations(base: options.files, counters: counters)
        descriptors = JournalDescriptors(capacity: options.maxOpenJournals, files: files)
        snapshots = DispatchQueue(label: "waterfalld.snapshots")
        if options.policy == .everysec {
            let layouts = self.layouts
            let logger = logger
            syncThread = SyncThread { Self.syncDirty(layouts, logger) }
        } else {
            syncThread = nil
        }
    }

    // Without waiting for snapshots: the last reference may go on the snapshot queue itself, at the end of a
    // snapshot's work, where waiting for that queue would never return.
    deinit { shutDown(waitingForSnapshots: false) }

    // MARK: Package

    package let directory: StateDirectory
    package let options: StoreOptions

    /// Journals `entries` in order: per run of one layout's entries, one `write`, and with `.always` one
    /// `fdatasync`, before returning (group commit).
    ///
    /// A `created` entry starts the layout's files anew (a replaced layout's files are removed once the new ones
    /// hold its creation); a `dropped` one records the drop, then removes the layout's files.
    ///
    /// - Throws: `StorageError` for a write or sync that failed: that run and the ones after it are not journaled
    ///   (the earlier runs are), and the failed run's bytes are cut back, so a later commit simply retries.
    package func commit(_ entries: [JournalEntry]) throws(StorageError) {
        guard !closed.load(ordering: .relaxed) else { throw .closed }
        var start = entries.startIndex
        while start < entries.endIndex {
            var end = start + 1
            while end < entries.endIndex, entries[end].layout == entries[start].layout, !entries[end].isCreate,
                !entries[end - 1].isDrop
            {
                end += 1
            }
            try commitRun(entries[start..<end])
            start = end
        }
    }

    /// `commit(_:)` on a queue of the first entry's layout, so that a caller on the cooperative pool never blocks
    /// in `write` or `fdatasync`.
    package func commit(_ entries: [JournalEntry]) async throws(StorageError) {
        guard let first = entries.first else { return }
        let queue = layouts.withLock { $0[first.layout]?.queue } ?? snapshots
        let result: Result<Void, StorageError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(StorageError) in try self.commit(entries) })
            }
        }
        try result.get()
    }

    /// Allocates disk space in the journal of layout `name` for records of `bytes` bytes in all (see
    /// `JournalRecord.encodedSizeBound`), so that committing them cannot fail for want of space.
    ///
    /// A caller that must refuse a change it cannot make durable calls this before applying the change: a full
    /// disk then refuses the change while nothing has changed yet.
    ///
    /// - Throws: `StorageError.system` (ENOSPC) when the disk is full; `.unknownLayout`.
    package func reserve(_ name: String, bytes: Int) throws(StorageError) {
        guard let files = layouts.withLock({ $0[name] }) else { throw .unknownLayout(name) }
        // The drop's room stays reserved behind the change.
        try files.reserve(bytes + Self.dropRoom)
    }

    /// Starts a snapshot of `layout` (the layout named `name`, as of its last committed change) if its journal
    /// has grown past `snapshotMinimumBytes` and about the snapshot's size; `layout` is read only then.
    ///
    /// Call it in the layout's order of changes (where its changes are committed), so that the copy is at the seq
    /// of the last record: the journal moves to a new segment here, and the snapshot is written on the store's
    /// own queue.
    package func snapshotIfDue(_ name: String, _ layout: @autoclosure () -> LayoutWidths) {
        guard let files = layouts.withLock({ $0[name] }) else { return }
        let bytes = files.journal.withLock { $0.snapshotting || $0.segment == nil ? 0 : $0.bytesSinceSnapshot }
        guard bytes >= options.snapshotMinimumBytes else { return }
        let copy = layout()
        guard bytes >= copy.first.itemCount * 3 else { return }
        snapshot(files, copy)
    }

    /// Starts a snapshot of `layout`, the layout named `name`, now (see `snapshotIfDue`).
    package func snapshot(_ name: String, _ layout: LayoutWidths) {
        guard let files = layouts.withLock({ $0[name] }) else { return }
        snapshot(files, layout)
    }

    /// Waits until the snapshots started so far are written (or have failed).
    package func waitForSnapshots() { snapshots.sync {} }

    /// Stops the sync thread (after a last round), waits for snapshots, refuses later commits, and releases the
    /// directory's lock.
    package func close() { shutDown(waitingForSnapshots: true) }

    /// The names of the layouts the store holds files for.
    package var layoutNames: [String] { layouts.withLock { Array($0.keys) }.sorted() }

    /// The journal segments open now, and how often one was closed to make room and opened again.
    var openJournals: JournalDescriptors.Counts { descriptors.counts }

    // MARK: Internal

    let layouts = LayoutTable()
    let nextID = Atomic<UInt64>(1)
    let logger: Logger?

    /// The options' file operations, with syncs timed into `counters`.
    let files: any FileOperations
    /// Journal bytes, syncs, snapshots and recovery, for `stats` and `metrics`.
    let counters = StorageCounters()

    /// The journal segments held open, at most `options.maxOpenJournals`.
    let descriptors: JournalDescriptors

    /// Creates a new segment file for appending, failing if it exists.
    func createSegment(id: UInt64, generation: UInt64) throws(StorageError) -> JournalSegment {
        let segment = segment(id: id, generation: generation)
        try descriptors.create(segment.key, path: segment.path)
        return segment
    }

    /// The segment file of layout `id`'s `generation`, opened when first written.
    func segment(id: UInt64, generation: UInt64) -> JournalSegment {
        JournalSegment(
            key: descriptors.newKey(), path: directory.file(StoreFileName.segment(id: id, generation: generation).text),
            descriptors: descriptors)
    }

    /// Removes `name` from the directory, logging (not throwing) a failure: what is left is only disk space, and
    /// recovery removes it again.
    func remove(_ name: StoreFileName) {
        let path = directory.file(name.text)
        if case .failure(let error) = files.unlink(path), error.code != ENOENT {
            logger?.warning(
                "could not remove \(path): \(StorageError.system(operation: "unlink", path: path, errno: error.code))")
        }
    }

    // MARK: Private

    private func shutDown(waitingForSnapshots: Bool) {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        syncThread?.stop()
        if waitingForSnapshots { waitForSnapshots() }
        if options.policy == .everysec { Self.syncDirty(layouts, logger) }
        // The lock is released now, so that a successor may start.
        for files in layouts.withLock({ Array($0.values) }) { files.journal.withLock { $0.close() } }
        directory.release()
    }

    /// Bytes kept allocated in every journal for its drop record: more than any drop record needs (a layout's name
    /// is at most 128 bytes: see `DecodedRequest.layoutName`).
    private static let dropRoom = 512

    private let snapshots: DispatchQueue
    private let syncThread: SyncThread?
    private let closed = Atomic(false)

    /// Journals one run of entries of one layout.
    private func commitRun(_ run: ArraySlice<JournalEntry>) throws(StorageError) {
        let name = run[run.startIndex].layout
        var w = ByteWriter()
        let files: LayoutFiles
        let isNew = run[run.startIndex].isCreate
        if isNew {
            let id = nextID.add(1, ordering: .relaxed).oldValue
            let segment = try createSegment(id: id, generation: 0)
            files = LayoutFiles(
                id: id, name: name,
                journal: LayoutFiles.Journal(segment: segment, generation: 0, oldestGeneration: 0, size: 0))
            w.bytes = RecordFile.header(.journal)
        } else {
            guard let existing = layouts.withLock({ $0[name] }) else { throw .unknownLayout(name) }
            files = existing
        }
        for entry in run { entry.record.encode(into: &w) }
        do throws(StorageError) {
            try files.append(w.bytes, policy: options.policy)
            counters.addJournalBytes(w.bytes.count)
            // A new file is durable only with its directory entry.
            if isNew, options.policy == .always { try directory.sync() }
        } catch {
            if isNew { retire(files, dropped: false) }
            throw error
        }
        if isNew {
            // Room for the drop record kept from the start, so that a full disk can still be relieved by dropping.
            do throws(StorageError) { try files.reserve(Self.dropRoom) } catch {}
            let replaced = layouts.withLock { layouts in
                defer { layouts[name] = files }
                return layouts[name]
            }
            if let replaced { retire(replaced, dropped: false) }
        }
        if run[run.index(before: run.endIndex)].isDrop {
            layouts.withLock { layouts in
                if layouts[name] === files { layouts[name] = nil }
            }
            retire(files, dropped: true)
        }
    }

    /// Closes a dropped or replaced layout's journal and removes its files.
    func retire(_ files: LayoutFiles, dropped: Bool) {
        let range = files.journal.withLock { journal -> ClosedRange<UInt64> in
            journal.close()
            return journal.oldestGeneration...journal.generation
        }
        removeFiles(id: files.id, snapshot: true, generations: Array(range), dropped: dropped)
        if options.policy == .always {
            do throws(StorageError) { try directory.sync() } catch { logger?.warning("\(error)") }
        }
    }

    /// Removes a layout's files in an order that an interruption cannot turn into a wrong recovery: a dropped
    /// layout's newest segment (which holds the drop) goes last, so what is left still reads as dropped; a replaced
    /// layout's go newest first and the snapshot last, so what is left is an older state that loses to the layout
    /// that replaced it (a higher id).
    func removeFiles(id: UInt64, snapshot: Bool, generations: [UInt64], dropped: Bool) {
        remove(.temporary(id: id))
        let ordered = generations.sorted()
        if dropped {
            if snapshot { remove(.snapshot(id: id)) }
            for generation in ordered { remove(.segment(id: id, generation: generation)) }
        } else {
            for generation in ordered.reversed() { remove(.segment(id: id, generation: generation)) }
            if snapshot { remove(.snapshot(id: id)) }
        }
    }

    /// Moves the layout's journal to a new segment and writes the snapshot on the snapshot queue.
    private func snapshot(_ files: LayoutFiles, _ layout: LayoutWidths) {
        let policy = options.policy
        let rotated = files.journal.withLock { (journal: inout LayoutFiles.Journal) -> UInt64? in
            guard let old = journal.segment, !journal.snapshotting else { return nil }
            do throws(StorageError) {
                // The old segment is made durable before the new one is used: a crash never keeps a later
                // segment's records without an earlier one's.
                if policy != .never { try old.dataSync() }
                let next = try createSegment(id: files.id, generation: journal.generation + 1)
                let header = RecordFile.header(.journal)
                try next.write(header)
                if policy == .always {
                    try next.dataSync()
                    try directory.sync()
                }
                old.close()
                journal.segment = next
                journal.generation += 1
                journal.size = header.count
                journal.dirty = policy == .everysec
                journal.bytesSinceSnapshot = 0
                journal.snapshotting = true
                return journal.generation - 1
            } catch {
                logger?.warning("snapshot of layout '\(files.name)' postponed: \(error)")
                return nil
            }
        }
        guard let covered = rotated else { return }
        snapshots.async { self.writeSnapshot(layout, of: files, covering: covered) }
    }

    /// Writes the snapshot as a temporary file, syncs it, renames it into place, syncs the directory, then removes
    /// the segments it covers.
    private func writeSnapshot(_ layout: LayoutWidths, of files: LayoutFiles, covering covered: UInt64) {
        let temporary = directory.file(StoreFileName.temporary(id: files.id).text)
        let final = directory.file(StoreFileName.snapshot(id: files.id).text)
        let started = MonotonicClock.now
        do throws(StorageError) {
            let bytes = SnapshotFormat.encode(layout, name: files.name, generation: covered)
            let fd = try self.files.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600).orThrow(
                "create", temporary)
            let file = FileDescriptor(fd, path: temporary, files: self.files)
            try file.write(bytes)
            try file.sync()
            // Under the layout's lock, so that a drop either happens before (and the snapshot is not kept) or
            // after (and removes it).
            try files.journal.withLock { (journal: inout LayoutFiles.Journal) throws(StorageError) in
                guard journal.segment != nil else { throw .closed }
                try self.files.rename(temporary, final).orThrow("rename", temporary)
            }
            try directory.sync()
            let oldest = files.journal.withLock { journal in
                defer { journal.oldestGeneration = max(journal.oldestGeneration, covered + 1) }
                return journal.oldestGeneration
            }
            if oldest <= covered {
                for generation in oldest...covered { remove(.segment(id: files.id, generation: generation)) }
            }
            counters.addSnapshot(seconds: MonotonicClock.now - started)
            logger?.debug("snapshot of layout '\(files.name)' at seq \(layout.seq): \(bytes.count) bytes")
        } catch {
            remove(.temporary(id: files.id))
            if error != .closed { logger?.warning("snapshot of layout '\(files.name)' failed: \(error)") }
        }
        files.journal.withLock { $0.snapshotting = false }
    }

    /// `fdatasync`s every segment written since the last round (the `everysec` thread's work).
    private static func syncDirty(_ layouts: LayoutTable, _ logger: Logger?) {
        for files in layouts.withLock({ Array($0.values) }) {
            guard let segment = files.takeDirtySegment() else { continue }
            do throws(StorageError) {
                try segment.dataSync()
            } catch {
                files.markDirty()
                logger?.error("\(error)")
            }
        }
    }
}

extension JournalEntry {
    var isCreate: Bool {
        if case .create = record { return true }
        return false
    }

    var isDrop: Bool {
        if case .drop = record { return true }
        return false
    }
}
