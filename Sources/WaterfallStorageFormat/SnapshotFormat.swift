import WaterfallLayout

/// A layout's inputs as a snapshot file: a header record (name, seq, the journal generation it covers, settings,
/// section count), then per section a record of its properties and item count followed by its items in records of
/// at most `itemsPerRecord`, then an end record with the item total.
///
/// Items are in the compact form of `ByteWriter.item`; a plain item costs its 3 to 9 bytes plus 8 bytes of framing
/// per 65,536 items.
package enum SnapshotFormat {
    /// Items per record: big enough that framing is noise, small enough that no record nears 4 GB.
    package static let itemsPerRecord = 65_536

    /// The snapshot file of `layouts`, named `name`, covering the journal up to generation `generation`.
    ///
    /// - Complexity: O(items); reads the layout in place (a caller hands it an immutable copy).
    package static func encode(_ layouts: LayoutWidths, name: String, generation: UInt64) -> [UInt8] {
        // Inputs are the same at every width: the first width's are written, with the list of widths.
        let layout = layouts.first
        var w = ByteWriter(capacity: RecordFile.headerSize + 64 + layout.itemCount * 10)
        w.bytes.append(contentsOf: RecordFile.header(.snapshot))
        RecordFile.append(to: &w) { w in
            w.u8(Tag.header)
            w.string(name)
            w.int(layout.seq)
            w.varint(generation)
            w.settings(
                widths: layouts.widths, scale: layout.scale, direction: layout.direction, axis: layout.axis,
                minContentHeight: layout.minContentHeight, defaults: layout.defaults)
            w.varint(UInt64(layout.sectionCount))
        }
        var heights: [Double] = []
        for s in 0..<layout.sectionCount {
            let count = layout.itemCount(inSection: s)
            RecordFile.append(to: &w) { w in
                w.u8(Tag.section)
                w.properties(layout.properties(ofSection: s))
                w.varint(UInt64(count))
            }
            for start in stride(from: 0, to: count, by: itemsPerRecord) {
                let range = start..<min(start + itemsPerRecord, count)
                RecordFile.append(to: &w) { w in
                    w.u8(Tag.items)
                    // Items that are only heights are written from an array of them, not one by one through
                    // `Item`s, which would make a bulk-loaded layout's snapshot costly next to its load.
                    if layout.heights(inSection: s, in: range, into: &heights) {
                        w.itemSequence(ItemList(heights: heights))
                    } else {
                        layout.forEachItem(inSection: s, in: range) { w.item($0) }
                    }
                }
            }
        }
        RecordFile.append(to: &w) { w in
            w.u8(Tag.end)
            w.varint(UInt64(layout.itemCount))
        }
        return w.bytes
    }

    /// Decodes a whole snapshot file.
    ///
    /// - Throws: `FormatError` naming the offset of the first problem; a snapshot is written whole and renamed
    ///   into place, so unlike a journal's end, any damage is refused.
    package static func decode(_ file: UnsafeRawBufferPointer) throws(FormatError) -> StoredLayout {
        let index = try self.index(file)
        var stored = index.layout
        stored.spec.sections.reserveCapacity(index.sections.count)
        for section in index.sections { stored.spec.sections.append(try self.section(section, in: file)) }
        return stored
    }

    /// Checks a snapshot's framing and checksums and reads everything but the sections' items: what
    /// `section(_:in:)` then decodes, section by section (in parallel, if the caller likes).
    ///
    /// - Throws: `FormatError` naming the offset of the first problem.
    package static func index(_ file: UnsafeRawBufferPointer) throws(FormatError) -> SnapshotIndex {
        try RecordFile.checkHeader(file, .snapshot)
        let scan = RecordFile.scan(file)
        if let problem = scan.problem { throw problem }
        var records = scan.payloads[...]
        func next() throws(FormatError) -> ByteReader {
            guard let payload = records.popFirst() else { throw .truncated(offset: file.count) }
            return ByteReader(UnsafeRawBufferPointer(rebasing: file[payload]), base: payload.lowerBound)
        }
        var r = try next()
        try expect(Tag.header, &r)
        let name = try r.string("layout")
        let seq = try r.int("seq")
        let generation = try r.varint("generation")
        let settings = try r.settings()
        let sectionCount = try r.count("section count", limit: file.count)
        try expectEnd(r)
        var total = 0
        var sections: [SnapshotIndex.Section] = []
        sections.reserveCapacity(sectionCount)
        for _ in 0..<sectionCount {
            var r = try next()
            try expect(Tag.section, &r)
            let properties = try r.properties()
            let count = try r.count("item count", limit: file.count)
            try expectEnd(r)
            // The encoder fills every items record but a section's last, so the count says how many there are.
            let recordCount = (count + itemsPerRecord - 1) / itemsPerRecord
            guard records.count >= recordCount else { throw .truncated(offset: file.count) }
            let itemRecords = Array(records.prefix(recordCount))
            records = records.dropFirst(recordCount)
            total += count
            sections.append(SnapshotIndex.Section(properties: properties, count: count, records: itemRecords))
        }
        var end = try next()
        try expect(Tag.end, &end)
        let stated = try end.varint("item total")
        guard stated == UInt64(total) else { throw end.malformed("item total \(stated), not \(total)") }
        try expectEnd(end)
        if let extra = records.first {
            throw .malformed(offset: extra.lowerBound - RecordFile.frameOverhead, what: "a record after the end")
        }
        let layout = StoredLayout(name: name, seq: seq, generation: generation, spec: settings)
        return SnapshotIndex(layout: layout, sections: sections, itemCount: total)
    }

    /// Decodes the items of one section of an indexed snapshot.
    ///
    /// - Throws: `FormatError` naming the offset of the first malformed item.
    package static func section(
        _ section: SnapshotIndex.Section, in file: UnsafeRawBufferPointer
    ) throws(FormatError) -> SectionSpec {
        var items: [Item] = []
        items.reserveCapacity(section.count)
        for (k, payload) in section.records.enumerated() {
            var r = ByteReader(UnsafeRawBufferPointer(rebasing: file[payload]), base: payload.lowerBound)
            try expect(Tag.items, &r)
            let count = min(itemsPerRecord, section.count - k * itemsPerRecord)
            for _ in 0..<count { items.append(try r.item()) }
            try expectEnd(r)
        }
        return SectionSpec(properties: section.properties, items: items)
    }

    // MARK: Private

    private enum Tag {
        static let header: UInt8 = 1
        static let section: UInt8 = 2
        static let items: UInt8 = 3
        static let end: UInt8 = 4
    }

    private static func expect(_ tag: UInt8, _ r: inout ByteReader) throws(FormatError) {
        let found = try r.u8("record type")
        guard found == tag else { throw .malformed(offset: r.base, what: "record type \(found), not \(tag)") }
    }

    private static func expectEnd(_ r: ByteReader) throws(FormatError) {
        guard r.isAtEnd else { throw r.malformed("\(r.remaining) bytes after the record's fields") }
    }
}

/// A snapshot's layout without its sections, and where each section's items are.
package struct SnapshotIndex: Sendable {
    /// One section: its own properties, its item count, and the payload ranges of its items records.
    package struct Section: Sendable {
        package var properties: SectionProperties
        package var count: Int
        package var records: [Range<Int>]
    }

    /// The layout with its settings and no sections.
    package var layout: StoredLayout
    package var sections: [Section]
    package var itemCount: Int
}

/// A layout as a snapshot holds it: its inputs and version, not its frames.
package struct StoredLayout: Sendable, Hashable {
    package var name: String
    package var seq: Int
    /// The journal generation the snapshot covers: segments up to this one hold nothing newer.
    package var generation: UInt64
    package var spec: LayoutSpec

    package init(name: String, seq: Int, generation: UInt64, spec: LayoutSpec) {
        self.name = name
        self.seq = seq
        self.generation = generation
        self.spec = spec
    }
}
