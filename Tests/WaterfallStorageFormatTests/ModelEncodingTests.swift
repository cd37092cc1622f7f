import Testing
import WaterfallLayout
import WaterfallStorageFormat
import WaterfallTestSupport

@Suite struct ModelEncodingTests {
    @Test(arguments: 0..<40)
    func randomSpecsRoundTrip(seed: Int) throws {
        var random = RandomCommands(seed: UInt64(seed))
        let spec = random.layout()
        var w = ByteWriter()
        w.spec(spec)
        let decoded = try w.bytes.withUnsafeBytes { bytes in
            var r = ByteReader(bytes)
            let spec = try r.spec()
            #expect(r.isAtEnd, "seed \(seed)")
            return spec
        }
        #expect(decoded == spec, "seed \(seed)")
    }

    /// Random commands, valid or not, and a patch of every field in each of its three states.
    @Test(arguments: 0..<40)
    func randomCommandsRoundTrip(seed: Int) throws {
        var random = RandomCommands(seed: UInt64(seed))
        var commands = (0..<30).map { _ in random.command(counts: [random.int(0...20), random.int(0...20)]) }
        commands.append(.configureSection(seed, Self.fullPatch(seed)))
        commands.append(.configureLayout(Self.fullLayoutPatch(seed)))
        commands.append(.moveItem(from: ItemPath(section: -1, item: Int.max), to: ItemPath(section: Int.min, item: 0)))
        commands.append(.deleteSections([]))
        let record = JournalRecord.apply(seq: seed + 2, commands: commands)
        let decoded = try Self.roundTrip(record)
        #expect(decoded == record, "seed \(seed)")
    }

    /// An insert of bare heights is written byte for byte as the same items are, and read back bare.
    @Test func bareHeightsAreWrittenAsTheirItems() throws {
        let heights: [Double] = [
            0, 100, 16_383, 16_384, 0.5, 0.1, -0.0, 1e300, .infinity, .nan, 9_007_199_254_740_991,
            9_007_199_254_740_992, 1e9,
        ]
        var bare = ByteWriter()
        bare.items(ItemList(heights: heights))
        var items = ByteWriter()
        items.items(heights.map { Item(height: $0) })
        #expect(bare.bytes == items.bytes)
        let list = try Self.itemList(bare.bytes)
        #expect(list.heights?.map(\.bitPattern) == heights.map(\.bitPattern))
        // A list that turns general part way reads back as items, the same ones.
        let mixed = heights.dropLast(3).map { Item(height: $0) } + [Item(height: 1, id: "x"), Item(height: 2)]
        var general = ByteWriter()
        general.items(ItemList(mixed))
        let back = try Self.itemList(general.bytes)
        #expect(back.heights == nil)
        #expect(back.map(\.id) == mixed.map(\.id))
        #expect(back.map(\.height.bitPattern) == mixed.map(\.height.bitPattern))
    }

    private static func itemList(_ bytes: [UInt8]) throws -> ItemList {
        try bytes.withUnsafeBytes { bytes in
            var r = ByteReader(bytes)
            let list = try r.itemList()
            #expect(r.isAtEnd)
            return list
        }
    }

    @Test(arguments: [
        Item(height: 0), Item(height: 100), Item(height: 16_383), Item(height: 16_384), Item(height: 0.5),
        Item(height: 0.1), Item(height: -0.0), Item(height: 1e300), Item(height: .infinity),
        Item(height: 9_007_199_254_740_992), Item(height: 3, aspectWidth: 4), Item(height: 3, aspectWidth: 1.0 / 3),
        Item(height: 7, span: .full), Item(height: 7, span: .columns(3)), Item(height: 7, span: .columns(-2)),
        Item(height: 1.25, aspectWidth: 2, span: .columns(0), id: "é \u{0}x"),
    ])
    func itemsRoundTripExactly(item: Item) throws {
        var w = ByteWriter()
        w.item(item)
        let back = try w.bytes.withUnsafeBytes { bytes in
            var r = ByteReader(bytes)
            return try r.item()
        }
        #expect(back == item)
        #expect(back.height.bitPattern == item.height.bitPattern)
    }

    /// A plain item is a tag byte and its height: 2 bytes for an integer below 128, 3 below 16,384, 5 for a float's worth, 9 at most.
    @Test(
        arguments: [(100.0, 2), (127, 2), (128, 3), (16_383, 3), (0.5, 5), (0.1, 9), (1.0 / 3, 9)] as [(Double, Int)])
    func plainItemSizes(height: Double, bytes: Int) {
        var w = ByteWriter()
        w.item(Item(height: height))
        #expect(w.bytes.count == bytes)
    }

    /// NaN is not a valid height, but encoding must still be exact about whatever it is given.
    @Test func nanKeepsItsBits() throws {
        let nan = Double(bitPattern: 0x7FF8_0000_0000_1234)
        var w = ByteWriter()
        w.item(Item(height: nan))
        let back = try w.bytes.withUnsafeBytes { bytes in
            var r = ByteReader(bytes)
            return try r.item()
        }
        #expect(back.height.bitPattern == nan.bitPattern)
    }

    @Test(arguments: [
        SectionProperties(tieBreak: .cursor, pinHeader: true),
        SectionProperties(columns: 3, tolerance: 0.5, tieBreak: .leftmost, pinHeader: false),
        SectionProperties(pinHeader: true), SectionProperties(),
        SectionProperties(tieBreak: .cursor, spanPlacement: .leastWhitespace),
        SectionProperties(columns: 2, spanPlacement: .lowest),
        SectionProperties(
            columns: 4,
            stamps: [
                Stamp(column: 1, span: 2, y: 0.1, height: 300), Stamp(column: 0, y: 1e9, height: 0.5),
                Stamp(column: 3, y: 12, height: 1e9),
            ]),
        SectionProperties(stamps: []),
        SectionProperties(columns: 3, columnWidths: [2, 1, 1.0 / 3]),
        SectionProperties(tieBreak: .cursor, columnWidths: [1e-6]),
        SectionProperties(columns: 2, lookahead: Lookahead(items: 8, limit: 40320)),
        SectionProperties(lookahead: Lookahead(items: 1, limit: 1)),
    ])
    func newPropertiesRoundTrip(properties: SectionProperties) throws {
        var w = ByteWriter()
        w.properties(properties)
        let back = try w.bytes.withUnsafeBytes { bytes in
            var r = ByteReader(bytes)
            let p = try r.properties()
            #expect(r.isAtEnd)
            return p
        }
        #expect(back == properties)
    }

    /// Bytes as the format wrote them before `tieBreak` and `pinHeader` (bits 12 and 13) existed still read.
    @Test func propertiesWrittenBeforeTieBreakStillRead() throws {
        // Mask bits 10 and 11 (placement, tolerance): 3072 as a varint; placement 1 (next); tolerance 2.0.
        let properties: [UInt8] = [0x80, 0x18, 1, 0, 0, 0, 0, 0, 0, 0, 0x40]
        let p = try properties.withUnsafeBytes { bytes in
            var r = ByteReader(bytes)
            return try r.properties()
        }
        #expect(p == SectionProperties(placement: .next, tolerance: 2))
        // A patch resetting tolerance (state 2 at bits 22-23): 2 << 22 as a varint.
        let patch: [UInt8] = [0x80, 0x80, 0x80, 0x04]
        let decoded = try patch.withUnsafeBytes { bytes in
            var r = ByteReader(bytes)
            return try r.sectionPatch()
        }
        var expected = SectionPatch()
        expected.tolerance = .reset
        #expect(decoded == expected)
        // Their bits are where they were: the writer gives the same bytes.
        var w = ByteWriter()
        w.properties(SectionProperties(placement: .next, tolerance: 2))
        #expect(Array(w.bytes) == properties)
    }

    /// `reflow` is bit 14 (16384, varint 0x80 0x80 0x01), a byte 0 exact or 1 stable; a kept column is tag bit 7,
    /// a varint after the id. Files from before never set either, and read as before.
    @Test func reflowAndKeptColumnBytes() throws {
        let properties: [UInt8] = [0x80, 0x80, 0x01, 1]
        let p = try properties.withUnsafeBytes { bytes in
            var r = ByteReader(bytes)
            return try r.properties()
        }
        #expect(p == SectionProperties(reflow: .stable))
        // Tag 0x80 | 0: an integral height 7, then column 2.
        let item: [UInt8] = [0x80, 7, 2]
        let decoded = try item.withUnsafeBytes { bytes in
            var r = ByteReader(bytes)
            return try r.item()
        }
        #expect(decoded == Item(height: 7, column: 2))
        var w = ByteWriter()
        w.item(Item(height: 7, column: 2))
        #expect(Array(w.bytes) == item)
        #expect(throws: FormatError.malformed(offset: 4, what: "reflow 2")) {
            try ([0x80, 0x80, 0x01, 2] as [UInt8]).withUnsafeBytes { bytes in
                var r = ByteReader(bytes)
                return try r.properties()
            }
        }
    }

    @Test func badNewPropertyBytesAreNamed() {
        // Bit 19 is no property.
        #expect(throws: FormatError.malformed(offset: 3, what: "properties mask 524288")) {
            try ([0x80, 0x80, 0x20] as [UInt8]).withUnsafeBytes { bytes in
                var r = ByteReader(bytes)
                return try r.properties()
            }
        }
        // Bit 16 (stamps): 65 stamps, and one stamp at column 1023 spanning 2 (zigzag varints 2046 and 4).
        #expect(throws: FormatError.malformed(offset: 3, what: "stamps count 65 is more than 64")) {
            try ([0x80, 0x80, 0x04, 65] as [UInt8]).withUnsafeBytes { bytes in
                var r = ByteReader(bytes)
                return try r.properties()
            }
        }
        #expect(throws: FormatError.malformed(offset: 7, what: "stamp columns 1023 and 2")) {
            try ([0x80, 0x80, 0x04, 1, 0xFE, 0x0F, 4] as [UInt8]).withUnsafeBytes { bytes in
                var r = ByteReader(bytes)
                return try r.properties()
            }
        }
        // Bit 17 (columnWidths) with a count of 2000: more weights than a section has columns.
        #expect(throws: FormatError.malformed(offset: 3, what: "columnWidths count 2000 is more than 1024")) {
            try ([0x80, 0x80, 0x08, 0xD0, 0x0F] as [UInt8]).withUnsafeBytes { bytes in
                var r = ByteReader(bytes)
                return try r.properties()
            }
        }
        // Bit 18 (lookahead) with 9 items, and with a limit of 0.
        for (bytes, what) in [
            ([0x80, 0x80, 0x10, 9, 1, 0, 0, 0] as [UInt8], "lookahead 9, 1"),
            ([0x80, 0x80, 0x10, 2, 0, 0, 0, 0], "lookahead 2, 0"),
        ] {
            #expect(throws: FormatError.malformed(offset: 8, what: what)) {
                try bytes.withUnsafeBytes { bytes in
                    var r = ByteReader(bytes)
                    return try r.properties()
                }
            }
        }
        // Bit 15 (spanPlacement) with the value 2.
        #expect(throws: FormatError.malformed(offset: 4, what: "spanPlacement 2")) {
            try ([0x80, 0x80, 0x02, 2] as [UInt8]).withUnsafeBytes { bytes in
                var r = ByteReader(bytes)
                return try r.properties()
            }
        }
        // Bit 12 (tieBreak) with the value 2.
        #expect(throws: FormatError.malformed(offset: 3, what: "tieBreak 2")) {
            try ([0x80, 0x20, 2] as [UInt8]).withUnsafeBytes { bytes in
                var r = ByteReader(bytes)
                return try r.properties()
            }
        }
        // Bit 13 (pinHeader) with the value 7.
        #expect(throws: FormatError.malformed(offset: 3, what: "pinHeader 7")) {
            try ([0x80, 0x40, 7] as [UInt8]).withUnsafeBytes { bytes in
                var r = ByteReader(bytes)
                return try r.properties()
            }
        }
    }

    /// The axis shares the direction's byte (bit 1 horizontal): settings written before axes existed (0 or 1 there)
    /// read as vertical, each axis and direction reads back, and a byte past both is refused by name.
    @Test(arguments: [
        (UInt8(0), Axis.vertical, Direction.ltr), (1, .vertical, .rtl), (2, .horizontal, .ltr), (3, .horizontal, .rtl),
    ])
    func axisSharesTheDirectionByte(byte: UInt8, axis: Axis, direction: Direction) throws {
        var w = ByteWriter()
        w.settings(
            widths: [300], scale: 0, direction: direction, axis: axis, minContentHeight: 0,
            defaults: SectionProperties())
        #expect(w.bytes[16] == byte)
        let spec = try w.bytes.withUnsafeBytes { bytes in
            var r = ByteReader(bytes)
            return try r.settings()
        }
        #expect(spec.axis == axis && spec.direction == direction && spec.width == 300)
        w.bytes[16] = 4
        #expect(throws: FormatError.malformed(offset: 17, what: "direction 4")) {
            try w.bytes.withUnsafeBytes { bytes in
                var r = ByteReader(bytes)
                return try r.settings()
            }
        }
    }

    @Test func malformedFieldsAreNamed() {
        #expect(throws: FormatError.malformed(offset: 0, what: "command tag 42")) {
            try [42].withUnsafeBytes { bytes in
                var r = ByteReader(bytes)
                return try r.command()
            }
        }
        #expect(throws: FormatError.malformed(offset: 3, what: "item count 5 is more than 1")) {
            try [UInt8(CommandTagValue.insertItems), 0, 0, 5].withUnsafeBytes { bytes in
                var r = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[1...]), base: 1)
                _ = try r.int("section")
                _ = try r.int("at")
                return try r.items()
            }
        }
    }

    // MARK: Private

    private enum CommandTagValue {
        static let insertItems = 1
    }

    static func roundTrip(_ record: JournalRecord) throws -> JournalRecord {
        var file = RecordFile.header(.journal)
        file += record.encoded
        let contents = try file.withUnsafeBytes { try JournalRecord.read($0) }
        #expect(contents.scan.problem == nil)
        #expect(contents.records.count == 1)
        return contents.records[0].record
    }

    static func fullPatch(_ seed: Int) -> SectionPatch {
        var p = SectionPatch()
        let set = seed % 3 == 0
        let insets = Insets(top: 1, left: 2, bottom: 3, right: 4.5)
        p.columns = set ? .set(3) : .reset
        p.minColumnWidth = set ? nil : .set(80)
        p.maxColumns = set ? .set(4) : nil
        p.columnSpacing = .set(1.5)
        p.rowSpacing = .reset
        p.insets = set ? .set(insets) : .reset
        p.headerHeight = .set(40)
        p.footerHeight = set ? .reset : .set(0.1)
        p.headerInsets = .set(insets)
        p.footerInsets = .reset
        p.placement = set ? .set(.next) : .set(.shortest)
        p.tolerance = set ? .reset : .set(2)
        p.tieBreak = [.set(.cursor), .reset, .set(.leftmost)][seed % 3]
        p.pinHeader = [.set(true), .set(false), .reset][(seed / 3) % 3]
        return p
    }

    static func fullLayoutPatch(_ seed: Int) -> LayoutPatch {
        seed % 2 == 0
            ? LayoutPatch(
                width: 375, scale: 2, direction: .rtl, axis: [.horizontal, .vertical][seed / 2 % 2],
                minContentHeight: 0.25, defaults: SectionProperties(columns: 2))
            : LayoutPatch(defaults: SectionProperties())
    }
}
