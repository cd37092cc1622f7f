import Testing
import WaterfallLayout
import WaterfallStorageFormat
import WaterfallTestSupport

@Suite struct SnapshotFormatTests {
    @Test(arguments: 0..<20)
    func randomLayoutsRoundTrip(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(seed))
        var layout = try await Layout.make(random.layout()).layout
        for _ in 0..<10 {
            let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
            _ = try? await layout.validateAndApply([random.command(counts: counts)])
        }
        let bytes = SnapshotFormat.encode(LayoutWidths(layout), name: "n\(seed)", generation: UInt64(seed))
        let stored = try bytes.withUnsafeBytes { try SnapshotFormat.decode($0) }
        #expect(stored == StoredLayout(name: "n\(seed)", seq: layout.seq, generation: UInt64(seed), spec: layout.spec))
    }

    /// A stable section's kept columns survive a snapshot: the layout restored from it has the frames it had, not
    /// those of placing its items afresh (which would send items to other columns).
    @Test(arguments: 0..<10)
    func stableColumnsSurviveASnapshot(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(100 + seed))
        random.reflowChance = 1
        var layout = try await Layout.make(random.layout()).layout
        for _ in 0..<30 {
            let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
            _ = try? await layout.validateAndApply([random.command(counts: counts)])
        }
        let bytes = SnapshotFormat.encode(LayoutWidths(layout), name: "s", generation: 0)
        let stored = try bytes.withUnsafeBytes { try SnapshotFormat.decode($0) }
        let restored = try await LayoutWidths.restored(stored.spec, seq: stored.seq).first
        for s in 0..<layout.sectionCount {
            #expect(restored.frames(ofSection: s) == layout.frames(ofSection: s), "seed \(seed), section \(s)")
        }
    }

    /// Sections longer than one items record span several.
    @Test func bigSectionsSpanRecords() async throws {
        let count = SnapshotFormat.itemsPerRecord * 2 + 5
        let spec = LayoutSpec(
            width: 300, sections: [SectionSpec(items: (0..<count).map { Item(height: Double($0 % 500)) }), .init()])
        let bytes = try await Self.encode(spec)
        let stored = try bytes.withUnsafeBytes { try SnapshotFormat.decode($0) }
        #expect(stored.spec == spec)
        // At most 3 bytes an item for integer heights under 16,384, plus framing.
        #expect(bytes.count < count * 3 + 200)
    }

    /// Records of bare heights and records of general items side by side in one section, and each item of either
    /// in the bytes `ByteWriter.item` writes for it: the second record has an aspect item, the third an id.
    @Test func recordsOfHeightsAndOfItemsMix() async throws {
        let count = SnapshotFormat.itemsPerRecord * 2 + 5
        var items = (0..<count).map { (k: Int) -> Item in
            // Integers and tenths: varints, `Float`s and `Double`s among the heights.
            let height: Double = k % 3 == 0 ? 0.1 * Double(k) : Double(k % 500)
            return Item(height: height)
        }
        items[SnapshotFormat.itemsPerRecord + 7].aspectWidth = 2
        items[count - 1].id = "last"
        let spec = LayoutSpec(width: 300, sections: [SectionSpec(items: items)])
        let bytes = try await Self.encode(spec)
        let stored = try bytes.withUnsafeBytes { try SnapshotFormat.decode($0) }
        #expect(stored.spec == spec)
        var itemBytes = ByteWriter()
        for item in items { itemBytes.item(item) }
        // The records: header, section, three of items (a tag byte, then the items), end.
        let payloads = Self.payloads(bytes)
        #expect(payloads.count == 6)
        #expect(payloads[2...4].flatMap { $0.dropFirst() } == itemBytes.bytes)
    }

    /// The payloads of a file's records, in order.
    static func payloads(_ bytes: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var offset = RecordFile.headerSize
        while offset + RecordFile.frameOverhead <= bytes.count {
            let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
            let start = offset + RecordFile.frameOverhead
            result.append(Array(bytes[start..<min(bytes.count, start + length)]))
            offset = start + length
        }
        return result
    }

    /// A snapshot is renamed into place whole: any cut or flipped byte is refused, never cut off.
    @Test func anyDamageIsRefused() async throws {
        var random = RandomCommands(seed: 3, maxItems: 5)
        let bytes = try await Self.encode(random.layout())
        for cut in 0..<bytes.count {
            #expect(throws: FormatError.self, "cut at \(cut)") {
                try Array(bytes[..<cut]).withUnsafeBytes { try SnapshotFormat.decode($0) }
            }
        }
        for position in 0..<bytes.count where position != 6 && position != 7 {
            var damaged = bytes
            damaged[position] ^= 1
            #expect(throws: FormatError.self, "flip at \(position)") {
                try damaged.withUnsafeBytes { try SnapshotFormat.decode($0) }
            }
        }
    }

    static func encode(_ spec: LayoutSpec) async throws -> [UInt8] {
        SnapshotFormat.encode(try await LayoutWidths.make(spec).layouts, name: "x", generation: 0)
    }
}
