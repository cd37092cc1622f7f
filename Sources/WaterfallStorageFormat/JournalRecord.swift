import WaterfallLayout

/// One entry of a layout's journal: its creation, a run of commands applied as one change, or its drop.
package enum JournalRecord: Sendable, Hashable {
    /// The layout `layout` was made from `spec`; it is at `seq` (1) after.
    case create(layout: String, seq: Int, spec: LayoutSpec)
    /// `commands` were applied as one change (one `LayoutWidths.apply`), taking the layout to `seq`.
    case apply(seq: Int, commands: [LayoutCommand])
    /// The layout was dropped: whatever its files still hold is gone.
    case drop(layout: String)

    // MARK: Package

    /// Appends the framed record to `w`.
    package func encode(into w: inout ByteWriter) {
        RecordFile.append(to: &w) { w in
            switch self {
            case .create(let layout, let seq, let spec):
                w.u8(Self.createTag)
                w.int(seq)
                w.string(layout)
                w.spec(spec)
            case .apply(let seq, let commands):
                w.u8(Self.applyTag)
                w.int(seq)
                w.commands(commands)
            case .drop(let layout):
                w.u8(Self.dropTag)
                w.string(layout)
            }
        }
    }

    /// The framed record alone.
    package var encoded: [UInt8] {
        var w = ByteWriter()
        encode(into: &w)
        return w.bytes
    }

    /// At least the framed size of an `apply` record of `commands`, whatever its seq: what a caller reserves before
    /// it knows the seq the change will get.
    ///
    /// Counted, not encoded, for the commands that carry items: the reservation is made before every change, and
    /// encoding a bulk insert only to measure it would encode every item twice.
    package static func encodedSizeBound(_ commands: [LayoutCommand]) -> Int {
        // Frame, type byte, the longest seq varint, the command count.
        var bound = RecordFile.frameOverhead + 1 + 10 + 10
        for command in commands {
            switch command {
            case .insertItems(_, _, let items):
                // A bare height is at most its tag and 8 bytes.
                bound +=
                    1 + 10 + 10 + 10 + (items.heights.map { 9 * $0.count } ?? items.reduce(0) { $0 + itemBound($1) })
            case .updateItems(_, let updates):
                bound += 1 + 10 + 10 + updates.reduce(0) { $0 + 10 + itemBound($1.item) }
            case .deleteItems(_, let indices):
                bound += 1 + 10 + 10 + 10 * indices.count
            default:
                var w = ByteWriter()
                w.command(command)
                bound += w.bytes.count
            }
        }
        return bound
    }

    /// At least the bytes `ByteWriter.item` writes for `item`: its tag, a height of at most 8 bytes, an aspect
    /// width of at most 8, a span varint, an id with its length, a kept column's varint.
    static func itemBound(_ item: Item) -> Int {
        var bound = 1 + 8
        if item.aspectWidth != nil { bound += 8 }
        if case .columns(let n) = item.span, n != 1 { bound += 10 }
        if let id = item.id { bound += 10 + id.utf8.count }
        if item.column != nil { bound += 10 }
        return bound
    }

    /// Decodes the payload of one record, at `base` in its file.
    package static func decode(_ payload: UnsafeRawBufferPointer, base: Int) throws(FormatError) -> JournalRecord {
        var r = ByteReader(payload, base: base)
        let record: JournalRecord
        switch try r.u8("record type") {
        case createTag:
            let seq = try r.int("seq")
            record = .create(layout: try r.string("layout"), seq: seq, spec: try r.spec())
        case applyTag:
            record = .apply(seq: try r.int("seq"), commands: try r.commands())
        case dropTag:
            record = .drop(layout: try r.string("layout"))
        case let tag:
            throw .malformed(offset: base, what: "record type \(tag)")
        }
        guard r.isAtEnd else { throw r.malformed("\(r.remaining) bytes after the record") }
        return record
    }

    /// Every record of a journal file: the header checked, payloads scanned, and each decoded.
    ///
    /// - Returns: the records with the offset each starts at, the length of the valid prefix, and the scan's
    ///   problem (with whether it is a torn end) when the file does not end on a record boundary.
    /// - Throws: `FormatError` for a bad header, or for a record whose checksum holds but whose contents do not
    ///   decode (that is a bug or a different build, never a torn write).
    package static func read(_ file: UnsafeRawBufferPointer) throws(FormatError) -> JournalContents {
        try RecordFile.checkHeader(file, .journal)
        let scan = RecordFile.scan(file)
        var records: [(offset: Int, record: JournalRecord)] = []
        records.reserveCapacity(scan.payloads.count)
        for payload in scan.payloads {
            let record = try decode(UnsafeRawBufferPointer(rebasing: file[payload]), base: payload.lowerBound)
            records.append((payload.lowerBound - RecordFile.frameOverhead, record))
        }
        return JournalContents(records: records, scan: scan)
    }

    // MARK: Private

    private static let createTag: UInt8 = 1
    private static let applyTag: UInt8 = 2
    private static let dropTag: UInt8 = 3
}

/// A journal file read back.
package struct JournalContents: Sendable {
    /// The valid records, each with the file offset its frame starts at.
    package var records: [(offset: Int, record: JournalRecord)]
    package var scan: RecordScan
}
