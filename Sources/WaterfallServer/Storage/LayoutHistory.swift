import Dispatch
import WaterfallLayout
import WaterfallStorageFormat

/// One layout's files in the state directory, read back and checked: where it starts (its snapshot, or its
/// creation record) and the changes after it, each with the file and offset it came from.
struct LayoutHistory: Sendable {
    /// A change to replay: its record's seq and commands, and where the record is.
    struct Change: Sendable {
        var seq: Int
        var commands: [LayoutCommand]
        var path: String
        var offset: Int
    }

    /// The files of one layout id, as listed.
    struct Files: Sendable {
        var id: UInt64
        var hasSnapshot = false
        var generations: [UInt64] = []
    }

    var files: Files
    var name = ""
    var spec: LayoutSpec?
    /// Where `spec` came from: the snapshot, or the segment and offset of the creation record.
    var base: (path: String, offset: Int) = ("", 0)
    var seq = 0
    var changes: [Change] = []
    var dropped = false
    /// A layout whose creation never reached the disk whole (its only segment ends before its first record).
    var incomplete = false
    /// The segment records will be appended to, and where its valid records end.
    var lastSegment: (generation: UInt64, end: Int)?
    /// Where the last segment's torn record starts, if its last write was torn.
    var torn: (offset: Int, problem: FormatError)?
    /// Segments a snapshot covers: removed after recovery.
    var redundant: [UInt64] = []

    // MARK: Lifecycle

    /// Reads and checks every file of `files`.
    ///
    /// - Throws: `StorageError.damaged` naming the file and byte offset of the first problem that is not a torn
    ///   end of the last segment (a seq that does not follow, a change before the creation, bad bytes), or
    ///   `.unsupportedVersion`.
    init(_ files: Files, in directory: StateDirectory) throws(StorageError) {
        self.files = files
        var covered: UInt64?
        if files.hasSnapshot {
            let path = directory.file(StoreFileName.snapshot(id: files.id).text)
            let bytes = try directory.read(StoreFileName.snapshot(id: files.id).text)
            let decoded = bytes.withUnsafeBytes { raw in Self.decodeSnapshot(raw) }
            let stored: StoredLayout
            switch decoded {
            case .success(let value): stored = value
            case .failure(let error): throw StorageError.format(error, path: path)
            }
            name = stored.name
            spec = stored.spec
            base = (path, 0)
            seq = stored.seq
            covered = stored.generation
        }
        let generations = files.generations.sorted()
        for (k, generation) in generations.enumerated() {
            if let covered, generation <= covered {
                redundant.append(generation)
                continue
            }
            let fileName = StoreFileName.segment(id: files.id, generation: generation).text
            let end = try read(segment: directory.file(fileName), isLast: k == generations.count - 1)
            lastSegment = (generation, end)
        }
        if spec == nil, !dropped, !files.hasSnapshot, generations.count == 1, changes.isEmpty {
            incomplete = true
        }
        guard dropped || incomplete || spec != nil else {
            let first = generations.first.map { StoreFileName.segment(id: files.id, generation: $0).text }
            throw .damaged(
                path: directory.file(first ?? StoreFileName.snapshot(id: files.id).text),
                offset: RecordFile.headerSize, reason: "neither a snapshot nor the layout's creation record")
        }
    }

    // MARK: Internal

    /// The seq after the last change.
    var lastSeq: Int { changes.last?.seq ?? seq }

    // MARK: Private

    /// Decodes a snapshot with its sections shared among the cores: a 10-million-item snapshot decodes in about
    /// half the time on two.
    private static func decodeSnapshot(_ file: UnsafeRawBufferPointer) -> Result<StoredLayout, FormatError> {
        let index: SnapshotIndex
        do throws(FormatError) {
            index = try SnapshotFormat.index(file)
        } catch {
            return .failure(error)
        }
        let count = index.sections.count
        // Each slot is written by exactly one iteration and read only after all of them have returned.
        let slots = UnsafeMutableBufferPointer<Result<SectionSpec, FormatError>?>.allocate(capacity: count)
        slots.initialize(repeating: nil)
        defer {
            _ = slots.deinitialize()
            slots.deallocate()
        }
        let shared = SharedBuffers(file: file, slots: slots)
        DispatchQueue.concurrentPerform(iterations: count) { s in
            shared.slots[s] = Result { () throws(FormatError) in
                try SnapshotFormat.section(index.sections[s], in: shared.file)
            }
        }
        var stored = index.layout
        stored.spec.sections.reserveCapacity(count)
        for s in 0..<count {
            switch slots[s] {
            case .success(let section): stored.spec.sections.append(section)
            case .failure(let error): return .failure(error)
            case nil: return .failure(.malformed(offset: 0, what: "section \(s) was not decoded"))
            }
        }
        return .success(stored)
    }

    /// Reads one segment's records into the history and returns where its valid records end.
    private mutating func read(segment path: String, isLast: Bool) throws(StorageError) -> Int {
        guard let bytes = StateDirectory.readFile(path) else {
            throw .damaged(path: path, offset: 0, reason: "the file cannot be read")
        }
        // A segment whose header was being written when the process died.
        if isLast, bytes.count < RecordFile.headerSize {
            torn = (0, .truncated(offset: 0))
            return 0
        }
        let decoded = bytes.withUnsafeBytes { raw in Result { () throws(FormatError) in try JournalRecord.read(raw) } }
        let contents: JournalContents
        switch decoded {
        case .success(let value): contents = value
        case .failure(let error): throw StorageError.format(error, path: path)
        }
        if let problem = contents.scan.problem {
            guard isLast, contents.scan.isTorn else {
                throw .damaged(path: path, offset: contents.scan.end, reason: "\(problem)")
            }
            torn = (contents.scan.end, problem)
        }
        for (offset, record) in contents.records {
            switch record {
            case .create(let layout, let seq, let spec):
                guard self.spec == nil else {
                    throw .damaged(path: path, offset: offset, reason: "a second creation record")
                }
                name = layout
                self.spec = spec
                base = (path, offset)
                self.seq = seq
            case .apply(let seq, let commands):
                guard spec != nil else {
                    if dropped { continue }
                    throw .damaged(path: path, offset: offset, reason: "a change before the layout's creation")
                }
                // A change the snapshot already holds (its segment was not yet removed).
                if seq <= lastSeq { continue }
                guard seq == lastSeq + 1 else {
                    throw .damaged(path: path, offset: offset, reason: "seq \(seq) does not follow seq \(lastSeq)")
                }
                changes.append(Change(seq: seq, commands: commands, path: path, offset: offset))
            case .drop:
                dropped = true
            }
        }
        return contents.scan.end
    }
}

/// The snapshot's bytes (read only) and the result slots (one per iteration) that `concurrentPerform`'s
/// iterations share: unchecked, because no two iterations touch the same slot and the bytes do not change while
/// they run.
private struct SharedBuffers: @unchecked Sendable {
    let file: UnsafeRawBufferPointer
    let slots: UnsafeMutableBufferPointer<Result<SectionSpec, FormatError>?>
}
