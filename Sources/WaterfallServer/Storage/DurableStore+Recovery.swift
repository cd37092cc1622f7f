import Dispatch
import Glibc
import WaterfallLayout
import WaterfallStorageFormat

extension DurableStore {
    /// Rebuilds every layout the directory holds, in parallel: each from its snapshot (or creation record) with
    /// its journal's changes replayed by `LayoutWidths.apply`, then opens their journals for appending.
    ///
    /// A torn last record (the end of a segment that stops inside a record, or whose last record fails its
    /// checksum) is cut off with a warning; a snapshot interrupted before its rename (a `.tmp` file) is removed.
    ///
    /// - Throws: `StorageError.damaged` naming the file and byte offset of damage before the end (nothing is
    ///   changed then; `repair()` keeps what comes before it), or `.unsupportedVersion`.
    package func recover() async throws(StorageError) -> [RecoveredLayout] {
        let sets = try listLayoutFiles()
        let limits = options.limits
        let directory = self.directory
        let results = await withTaskGroup(of: Result<(LayoutHistory, LayoutWidths?), StorageError>.self) { group in
            // A few layouts at a time: each reads its files one by one, so recovery holds at most this many
            // descriptors (and dispatch threads blocked in reads) whatever the number of layouts.
            var pending = sets[...]
            func addNext() {
                guard let files = pending.popFirst() else { return }
                group.addTask {
                    // Reading is blocking I/O: done on a dispatch thread, never on the cooperative pool.
                    let read = await Self.offPool {
                        Result { () throws(StorageError) in try LayoutHistory(files, in: directory) }
                    }
                    switch read {
                    case .failure(let error): return .failure(error)
                    case .success(let history):
                        if history.dropped || history.incomplete { return .success((history, nil)) }
                        return await Self.build(history, limits: limits).map { (history, $0) }
                    }
                }
            }
            for _ in 0..<DescriptorBudget.recoveryReaders { addNext() }
            var all: [Result<(LayoutHistory, LayoutWidths?), StorageError>] = []
            for await result in group {
                all.append(result)
                addNext()
            }
            return all
        }
        var built: [(LayoutHistory, LayoutWidths?)] = []
        for result in results { built.append(try result.get()) }
        return try open(built)
    }

    /// Makes the directory recoverable: each file damaged before its end keeps its longest valid prefix and the
    /// rest moves aside to `<file>.damaged-at-<offset>`, with any later segment of the layout (`<file>.damaged`);
    /// a damaged snapshot moves aside whole. Then recovers.
    ///
    /// - Returns: the recovered layouts, and one line per action taken.
    package func repair() async throws(StorageError) -> (layouts: [RecoveredLayout], actions: [String]) {
        var actions: [String] = []
        for var files in try listLayoutFiles() {
            while files.hasSnapshot || !files.generations.isEmpty {
                let failure: StorageError
                do throws(StorageError) {
                    let history = try LayoutHistory(files, in: directory)
                    guard !history.dropped, !history.incomplete else { break }
                    guard case .failure(let error) = await Self.build(history, limits: options.limits) else { break }
                    failure = error
                } catch {
                    failure = error
                }
                guard case .damaged(let path, let offset, let reason) = failure else { throw failure }
                actions.append(try cut(&files, at: path, offset: offset, reason: reason))
            }
        }
        for action in actions { logger?.warning("repair: \(action)") }
        return (try await recover(), actions)
    }

    // MARK: Private

    /// The store's files, by layout id; interrupted snapshots are removed on the way.
    private func listLayoutFiles() throws(StorageError) -> [LayoutHistory.Files] {
        var byID: [UInt64: LayoutHistory.Files] = [:]
        for text in try directory.names() {
            guard let name = StoreFileName(text) else { continue }
            var files = byID[name.id] ?? LayoutHistory.Files(id: name.id)
            switch name {
            case .temporary:
                logger?.warning("removing \(directory.file(text)): a snapshot interrupted before its rename")
                remove(name)
                continue
            case .snapshot: files.hasSnapshot = true
            case .segment(_, let generation): files.generations.append(generation)
            }
            byID[name.id] = files
        }
        if let highest = byID.keys.max() { nextID.store(highest + 1, ordering: .relaxed) }
        return byID.values.sorted { $0.id < $1.id }
    }

    /// Builds the layout a history describes.
    private static func build(
        _ history: LayoutHistory, limits: LayoutLimits
    ) async -> Result<LayoutWidths, StorageError> {
        guard let spec = history.spec else {
            return .failure(.damaged(path: history.base.path, offset: 0, reason: "no creation record"))
        }
        var layout: LayoutWidths
        do {
            layout = try await LayoutWidths.restored(spec, seq: history.seq, limits: limits)
        } catch {
            return .failure(
                .damaged(path: history.base.path, offset: history.base.offset, reason: "rebuilding: \(error)"))
        }
        var start = 0
        while start < history.changes.count {
            let end = replayChunkEnd(history.changes, from: start)
            let chunk = history.changes[start..<end]
            do {
                try await layout.replay(chunk.flatMap(\.commands), seq: chunk[chunk.endIndex - 1].seq)
            } catch {
                // The chunk changed nothing: apply its changes one by one to name the one that fails.
                for change in chunk {
                    do {
                        _ = try await layout.apply(layout.validate(change.commands)) { _ in false }
                    } catch {
                        return .failure(
                            .damaged(
                                path: change.path, offset: change.offset,
                                reason: "replaying seq \(change.seq): \(error)"
                            ))
                    }
                }
            }
            start = end
        }
        return .success(layout)
    }

    /// The end of the run of changes from `start` that are replayed as one (`LayoutWidths.replay`): each section they
    /// touch is then placed once, not once per change, which is what makes a journal of a million single-item
    /// updates quick to replay. At most `replayChunkMoves` commands that insert, delete or move items or sections
    /// go in one run, since each of those costs a little more in a longer run (the index maps a diff needs grow with
    /// them).
    private static func replayChunkEnd(_ changes: [LayoutHistory.Change], from start: Int) -> Int {
        var moves = 0
        var end = start
        while end < changes.count {
            for command in changes[end].commands {
                if case .updateItems = command { continue }
                moves += 1
            }
            end += 1
            if moves >= replayChunkMoves { break }
        }
        return end
    }

    /// See `replayChunkEnd`.
    private static let replayChunkMoves = 4_096

    /// Cuts torn ends, removes dropped, replaced and redundant files, opens each layout's last segment for
    /// appending, and registers the layouts.
    private func open(_ built: [(LayoutHistory, LayoutWidths?)]) throws(StorageError) -> [RecoveredLayout] {
        // When a replacement's files were written but its predecessor's not yet removed, the newer id wins.
        var winners: [String: (LayoutHistory, LayoutWidths)] = [:]
        for (history, layout) in built.sorted(by: { $0.0.files.id < $1.0.files.id }) {
            guard let layout else {
                if history.incomplete {
                    logger?.warning("removing L\(history.files.id): a layout whose creation was never written whole")
                }
                removeFiles(
                    id: history.files.id, snapshot: history.files.hasSnapshot, generations: history.files.generations,
                    dropped: true)
                continue
            }
            if let loser = winners[history.name] {
                removeFiles(
                    id: loser.0.files.id, snapshot: loser.0.files.hasSnapshot, generations: loser.0.files.generations,
                    dropped: false)
            }
            winners[history.name] = (history, layout)
        }
        var recovered: [RecoveredLayout] = []
        for (name, (history, layout)) in winners.sorted(by: { $0.key < $1.key }) {
            let files = try openJournal(history)
            layouts.withLock { $0[name] = files }
            for generation in history.redundant { remove(.segment(id: history.files.id, generation: generation)) }
            recovered.append(RecoveredLayout(name: name, layout: layout))
        }
        return recovered
    }

    /// The segment the layout's next records go to: its last, cut after its last whole record, or a new one after
    /// its snapshot when it has none. The segment is left closed (it opens when the layout is next written), so
    /// that recovering any number of layouts holds no descriptor per layout.
    private func openJournal(_ history: LayoutHistory) throws(StorageError) -> LayoutFiles {
        let id = history.files.id
        let oldest = history.files.generations.filter { !history.redundant.contains($0) }.min()
        guard let last = history.lastSegment else {
            let generation = (history.redundant.max() ?? 0) + 1
            let segment = try createSegment(id: id, generation: generation)
            let header = RecordFile.header(.journal)
            try segment.write(header)
            descriptors.close(segment.key)
            return LayoutFiles(
                id: id, name: history.name,
                journal: .init(
                    segment: segment, generation: generation, oldestGeneration: generation, size: header.count))
        }
        let segment = segment(id: id, generation: last.generation)
        var end = last.end
        if let torn = history.torn {
            logger?.warning("\(segment.path): cutting off a torn last record at byte \(torn.offset) (\(torn.problem))")
            let fd = try files.open(segment.path, flags: O_WRONLY | O_APPEND, mode: 0).orThrow("open", segment.path)
            let file = FileDescriptor(fd, path: segment.path, files: files)
            try file.truncate(to: end)
            if end < RecordFile.headerSize {
                try file.write(RecordFile.header(.journal))
                end = RecordFile.headerSize
            }
            try file.dataSync()
        }
        var journal = LayoutFiles.Journal(
            segment: segment, generation: last.generation, oldestGeneration: oldest ?? last.generation, size: end)
        // The journal since the snapshot counts towards the next one.
        journal.bytesSinceSnapshot = end
        return LayoutFiles(id: id, name: history.name, journal: journal)
    }

    /// Keeps the bytes of `path` before `offset` and moves the rest aside, with every later file of the layout.
    private func cut(
        _ files: inout LayoutHistory.Files, at path: String, offset: Int, reason: String
    ) throws(StorageError) -> String {
        let snapshotPath = directory.file(StoreFileName.snapshot(id: files.id).text)
        if path == snapshotPath {
            try self.files.rename(path, path + ".damaged").orThrow("rename", path)
            files.hasSnapshot = false
            return "\(path): damaged at byte \(offset) (\(reason)); moved aside to \(path).damaged"
        }
        guard
            let generation = files.generations.sorted().first(where: {
                directory.file(StoreFileName.segment(id: files.id, generation: $0).text) == path
            })
        else {
            // Damage no single file explains (the layout cannot be rebuilt at all): every file moves aside.
            for generation in files.generations {
                let segment = directory.file(StoreFileName.segment(id: files.id, generation: generation).text)
                try self.files.rename(segment, segment + ".damaged").orThrow("rename", segment)
            }
            if files.hasSnapshot {
                try self.files.rename(snapshotPath, snapshotPath + ".damaged").orThrow("rename", snapshotPath)
            }
            files.generations = []
            files.hasSnapshot = false
            return "layout files L\(files.id).*: \(reason); all moved aside (*.damaged)"
        }
        guard let bytes = StateDirectory.readFile(path) else {
            throw .system(operation: "read", path: path, errno: errno)
        }
        var line = "\(path): damaged at byte \(offset) (\(reason)); "
        let keep = offset >= RecordFile.headerSize ? offset : 0
        let aside = path + ".damaged-at-\(offset)"
        let fd = try self.files.open(aside, flags: O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600).orThrow("create", aside)
        let tail = FileDescriptor(fd, path: aside, files: self.files)
        try tail.write(bytes[keep...])
        try tail.sync()
        if keep == 0 {
            try self.files.unlink(path).orThrow("unlink", path)
            files.generations.removeAll { $0 == generation }
            line += "moved whole to \(aside)"
        } else {
            let fd = try self.files.open(path, flags: O_WRONLY, mode: 0).orThrow("open", path)
            let kept = FileDescriptor(fd, path: path, files: self.files)
            try kept.truncate(to: keep)
            try kept.sync()
            line += "kept \(keep) bytes, moved \(bytes.count - keep) to \(aside)"
        }
        for later in files.generations where later > generation {
            let segment = directory.file(StoreFileName.segment(id: files.id, generation: later).text)
            try self.files.rename(segment, segment + ".damaged").orThrow("rename", segment)
            line += "; moved the later \(segment) aside"
        }
        files.generations.removeAll { $0 > generation }
        try directory.sync()
        return line
    }

    /// Runs `body` on a dispatch thread and waits for it without blocking the cooperative pool.
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: body()) }
        }
    }
}
