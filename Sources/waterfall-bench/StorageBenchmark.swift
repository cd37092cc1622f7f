import Glibc
import WaterfallLayout
import WaterfallServer
import WaterfallStorageFormat
import WaterfallTestSupport

/// Durable layouts: bytes on disk per item of a snapshot, snapshot write and recovery (load, decode,
/// place) times, journal bytes per single-item update, and commit throughput per fsync policy.
enum StorageBenchmark {
    static func run(quick: Bool, table: inout Table) async {
        await run(
            items: quick ? 1_000_000 : 10_000_000, sections: 1_000, commits: quick ? 20_000 : 100_000, table: &table)
    }

    static func run(items: Int, sections: Int, commits: Int, table: inout Table) async {
        guard let base = makeDirectory() else {
            table.add("storage", "no temporary directory")
            return
        }
        defer { removeTree(base) }
        let perSection = items / sections
        await snapshotAndRecover(
            "integer heights", base + "/int", sections: sections, heights: BenchLayouts.heights(perSection),
            table: &table)
        var random = SplitMix64(seed: 42)
        let reals = (0..<perSection).map { _ in Double.random(in: 50..<400, using: &random) }
        await snapshotAndRecover("real heights", base + "/real", sections: sections, heights: reals, table: &table)
        journalRecordSizes(&table)
        for policy in FsyncPolicy.allCases {
            await appendThroughput(policy, base + "/append-\(policy)", commits: commits, perCommit: 1, &table)
        }
        await appendThroughput(.always, base + "/append-group", commits: commits, perCommit: 64, &table)
    }

    // MARK: Private

    /// Snapshots a layout of `sections` × `heights`, then times its recovery in a fresh store on the directory.
    private static func snapshotAndRecover(
        _ kind: String, _ path: String, sections: Int, heights: [Double], table: inout Table
    ) async {
        let section = SectionSpec(items: heights.map { Item(height: $0) })
        var spec = LayoutSpec(
            width: 1000, defaults: SectionProperties(columns: 3, columnSpacing: 4, rowSpacing: 4))
        spec.sections = Array(repeating: section, count: sections)
        guard let layout = try? await LayoutWidths.make(spec).layouts else { return }
        let items = layout.first.itemCount
        spec = LayoutSpec(width: 1)
        do {
            let directory = try StateDirectory(path: path)
            let store = DurableStore(directory: directory, options: StoreOptions(policy: .everysec))
            _ = try await store.recover()
            let create = Measure.time {
                try? store.commit([.created("big", seq: layout.seq, spec: layout.spec)])
            }
            let write = Measure.time {
                store.snapshot("big", layout)
                store.waitForSnapshots()
            }
            store.close()
            let bytes = fileSize(path + "/L1.wfs")
            table.add(
                "storage, snapshot of \(items) items in \(sections) sections (\(kind))",
                "\(round(Double(bytes) / Double(items) * 100) / 100) bytes/item, written in \(Format.seconds(write))",
                "journal create \(Format.seconds(create))", "≤ 20 bytes/item")
            let start = nanoseconds()
            let again = DurableStore(directory: try StateDirectory(path: path))
            let recovered = try await again.recover()
            let seconds = Double(nanoseconds() - start) / 1e9
            again.close()
            let same = recovered.first.map { $0.layout.first.contentSize == layout.first.contentSize } ?? false
            table.add(
                "storage, recovery of \(items) items (\(kind)): load, decode, place",
                Format.seconds(seconds), same ? "same content size" : "DIFFERENT", "≤ 2 s")
            // The parts of it: decoding the snapshot's bytes, and building the layout from the decoded inputs.
            let file = readFile(path + "/L1.wfs")
            var stored: StoredLayout?
            let decode = Measure.time { stored = try? file.withUnsafeBytes { try SnapshotFormat.decode($0) } }
            if let stored {
                let start = nanoseconds()
                _ = try? await LayoutWidths.restored(stored.spec, seq: stored.seq)
                let place = Double(nanoseconds() - start) / 1e9
                table.add(
                    "storage, recovery of \(items) items (\(kind)), in parts",
                    "decode \(Format.seconds(decode)), make \(Format.seconds(place))")
            }
        } catch {
            table.add("storage (\(kind))", "failed: \(error)")
        }
    }

    private static func journalRecordSizes(_ table: inout Table) {
        for (name, height) in [("integer", 123.0), ("real", 123.456_789)] {
            let update = ItemUpdate(index: 5_000, item: Item(height: height))
            let record = JournalRecord.apply(seq: 1_000_000, commands: [.updateItems(section: 500, updates: [update])])
            table.add(
                "storage, journal record of a 1-item items.update (\(name) height)",
                "\(record.encoded.count) bytes", "8 of framing")
        }
    }

    /// Commits `commits` single-item updates, `perCommit` to a commit, and reports commits per second.
    private static func appendThroughput(
        _ policy: FsyncPolicy, _ path: String, commits: Int, perCommit: Int, _ table: inout Table
    ) async {
        do {
            let store = DurableStore(directory: try StateDirectory(path: path), options: StoreOptions(policy: policy))
            _ = try await store.recover()
            try await store.commit([.created("a", seq: 1, spec: LayoutSpec(width: 300, sections: [SectionSpec()]))])
            var seq = 1
            let count = policy == .always && perCommit == 1 ? min(commits, 2_000) : commits
            var failure: StorageError?
            let seconds = Measure.time {
                for _ in 0..<count / perCommit {
                    let entries = (0..<perCommit).map { _ in
                        seq += 1
                        let update = ItemUpdate(index: 0, item: Item(height: Double(seq % 400)))
                        return JournalEntry.applied(
                            "a", seq: seq, commands: [.updateItems(section: 0, updates: [update])])
                    }
                    do throws(StorageError) { try store.commit(entries) } catch { failure = error }
                }
            }
            store.close()
            let name = perCommit == 1 ? "1 change per commit" : "\(perCommit) changes per commit (group commit)"
            table.add(
                "storage, journal appends, fsync \(policy), \(name)",
                failure.map { "failed: \($0)" } ?? Format.rate(Double(count) / seconds) + " changes",
                "\(count) changes")
        } catch {
            table.add("storage, journal appends, fsync \(policy)", "failed: \(error)")
        }
    }

    private static func makeDirectory() -> String? {
        var template = Array("/tmp/waterfall-bench-storage-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { return nil }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    private static func readFile(_ path: String) -> [UInt8] {
        let size = fileSize(path)
        var bytes = [UInt8](repeating: 0, count: size)
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
            if n <= 0 { break }
            done += n
        }
        return bytes
    }

    private static func fileSize(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Removes the benchmark's directories (one level of subdirectories, as made here).
    private static func removeTree(_ path: String) {
        guard let directory = opendir(path) else { return }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            let child = path + "/" + name
            if unlink(child) != 0 { removeTree(child) }
        }
        closedir(directory)
        rmdir(path)
    }
}
