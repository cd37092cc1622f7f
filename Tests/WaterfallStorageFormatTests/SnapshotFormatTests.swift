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
            _ = try? await layout.apply([random.command(counts: counts)])
        }
        let bytes = SnapshotFormat.encode(layout, name: "n\(seed)", generation: UInt64(seed))
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
            _ = try? await layout.apply([random.command(counts: counts)])
        }
        let bytes = SnapshotFormat.encode(layout, name: "s", generation: 0)
        let stored = try bytes.withUnsafeBytes { try SnapshotFormat.decode($0) }
        let restored = try await Layout.restored(stored.spec, seq: stored.seq)
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
        SnapshotFormat.encode(try await Layout.make(spec).layout, name: "x", generation: 0)
    }
}
