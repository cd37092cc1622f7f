import Testing
import WaterfallLayout
import WaterfallStorageFormat
import WaterfallTestSupport

@Suite struct RecordFileTests {
    /// A small journal: a create and a few changes.
    static func journal() -> (bytes: [UInt8], records: [JournalRecord], ends: [Int]) {
        var random = RandomCommands(seed: 7, maxItems: 6)
        var records = [JournalRecord.create(layout: "feed", seq: 1, spec: random.layout())]
        for k in 0..<4 {
            records.append(.apply(seq: k + 2, commands: [random.command(counts: [3, 2])]))
        }
        var w = ByteWriter()
        w.bytes = RecordFile.header(.journal)
        var ends: [Int] = []
        for record in records {
            record.encode(into: &w)
            ends.append(w.bytes.count)
        }
        return (w.bytes, records, ends)
    }

    /// Cut at every byte, a journal reads as the records that fit whole, and the rest is a torn end to cut off.
    @Test func everyTruncationIsATornEnd() throws {
        let (bytes, records, ends) = Self.journal()
        for cut in RecordFile.headerSize...bytes.count {
            let contents = try Array(bytes[..<cut]).withUnsafeBytes { try JournalRecord.read($0) }
            let whole = ends.filter { $0 <= cut }.count
            #expect(contents.records.map(\.record) == Array(records[..<whole]), "cut at \(cut)")
            let boundary = whole == 0 ? RecordFile.headerSize : ends[whole - 1]
            #expect(contents.scan.end == boundary, "cut at \(cut)")
            #expect((contents.scan.problem == nil) == (cut == boundary), "cut at \(cut)")
            if contents.scan.problem != nil { #expect(contents.scan.isTorn, "cut at \(cut)") }
        }
    }

    /// Cut inside the header, the file is refused as truncated.
    @Test func truncatedHeaderIsRefused() {
        let (bytes, _, _) = Self.journal()
        for cut in 0..<RecordFile.headerSize {
            #expect(throws: FormatError.self, "cut at \(cut)") {
                try Array(bytes[..<cut]).withUnsafeBytes { try JournalRecord.read($0) }
            }
        }
    }

    /// A flipped byte anywhere in a record before the last stops the scan at that record, as damage (valid
    /// records follow); in the last record it reads as a torn end.
    @Test func flippedBytesAreFound() throws {
        let (bytes, records, ends) = Self.journal()
        for position in RecordFile.headerSize..<bytes.count {
            var damaged = bytes
            damaged[position] ^= 0x20
            let contents = try damaged.withUnsafeBytes { try JournalRecord.read($0) }
            let record = ends.firstIndex { $0 > position }!
            let start = record == 0 ? RecordFile.headerSize : ends[record - 1]
            #expect(contents.records.map(\.record) == Array(records[..<record]), "flip at \(position)")
            #expect(contents.scan.problem?.offset == start, "flip at \(position)")
            #expect(contents.scan.isTorn == (record == records.count - 1), "flip at \(position)")
        }
    }

    @Test func zerosAreNotRecords() throws {
        let (bytes, records, _) = Self.journal()
        let contents = try (bytes + [UInt8](repeating: 0, count: 4096)).withUnsafeBytes {
            try JournalRecord.read($0)
        }
        #expect(contents.records.map(\.record) == records)
        #expect(contents.scan.end == bytes.count)
        #expect(contents.scan.isTorn)
    }

    @Test(arguments: [UInt16(0), 2, 999])
    func otherVersionsAreRefusedByNumber(version: UInt16) {
        let file = RecordFile.header(.journal, version: version)
        #expect(throws: FormatError.unsupportedVersion(found: version, supported: 1)) {
            try file.withUnsafeBytes { try JournalRecord.read($0) }
        }
        let message = FormatError.unsupportedVersion(found: version, supported: 1).description
        #expect(message.contains("format version \(version)"))
    }

    @Test func aSnapshotIsNotAJournal() {
        let file = RecordFile.header(.snapshot)
        #expect(throws: FormatError.badMagic(expected: "waterfall journal", offset: 0)) {
            try file.withUnsafeBytes { try JournalRecord.read($0) }
        }
    }
}
