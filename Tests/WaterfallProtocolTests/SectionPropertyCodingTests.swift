import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// Section properties and patches through the wire: encoded as `layout.export` writes them, decoded as requests read
/// them, every property of `SectionPropertyTable` comes back as it was.
@Suite struct SectionPropertyCodingTests {
    static let every = SectionProperties(
        minColumnWidth: 80.5, maxColumns: 4, columnSpacing: 3, rowSpacing: 0.25,
        insets: Insets(top: 1, left: 2, bottom: 3, right: 4), headerHeight: 40, footerHeight: 0.1,
        headerInsets: Insets(top: 0, left: 5, bottom: 0, right: 0), footerInsets: .zero, placement: .next,
        tolerance: 2, tieBreak: .cursor, pinHeader: true, spanPlacement: .leastWhitespace,
        stamps: [Stamp(column: 1, span: 2, y: 0.5, height: 30), Stamp(column: 0, y: 1e9, height: 1e-3)],
        columnWidths: [2, 0.5, 1.25],
        lookahead: Lookahead(items: 5, limit: 40320))

    @Test(arguments: [
        every, SectionProperties(), SectionProperties(columns: 3, tieBreak: .leftmost, pinHeader: false),
        SectionProperties(pinHeader: true), SectionProperties(placement: .shortest, tieBreak: .cursor),
    ])
    func propertiesRoundTrip(_ properties: SectionProperties) throws {
        let text = Self.text(.object(CommandEncoding.members(of: properties)))
        let document = try JSONDocument(parsing: text)
        var p = try Params(document.root, path: "params")
        #expect(try ModelDecoding.properties(&p) == properties, "\(text)")
        try p.finish()
    }

    @Test func everyPropertyIsExportedByItsKey() {
        let keys = CommandEncoding.members(of: Self.every).map(\.key)
        #expect(
            keys == [
                "minColumnWidth", "maxColumns", "columnSpacing", "rowSpacing", "insets", "headerHeight",
                "footerHeight", "headerInsets", "footerInsets", "placement", "tolerance", "tieBreak", "pinHeader",
                "spanPlacement", "stamps", "columnWidths", "lookahead",
            ])
        let members = CommandEncoding.members(of: SectionProperties(tieBreak: .cursor, pinHeader: false))
        #expect(Self.text(.object(members)) == #"{"tieBreak":"cursor","pinHeader":false}"#)
    }

    /// A patch of every property, each set, reset or kept.
    @Test(arguments: 0..<3)
    func patchesRoundTrip(state: Int) throws {
        var patch = SectionPatch()
        for (k, property) in SectionPropertyTable.all.enumerated() {
            guard let value = property.value(in: Self.every) ?? (k == 0 ? .integer(2) : nil) else { continue }
            switch (k + state) % 3 {
            case 0: property.set(.set(value), in: &patch)
            case 1: property.set(.reset, in: &patch)
            default: break
            }
        }
        // columns and minColumnWidth may not both be set.
        if case .set? = patch.columns, case .set? = patch.minColumnWidth { patch.minColumnWidth = .reset }
        let text = Self.text(.object(CommandEncoding.members(of: patch)))
        let document = try JSONDocument(parsing: text)
        var p = try Params(document.root, path: "params")
        #expect(try ModelDecoding.patch(&p) == patch, "\(text)")
        try p.finish()
    }

    /// A stamp is `{"column", "span"?, "y", "h"}`: `span` defaults to 1, and each field is named when it is bad.
    @Test(arguments: [
        (#"[{"column":2,"y":5,"h":7}]"#, nil),
        (#"{"column":2}"#, #"params.stamps: must be an array of stamps, not object {"column":2}"#),
        (#"[3]"#, "params.stamps[0]: must be an object, not number"),
        (#"[{"column":1024,"y":0,"h":1}]"#, "params.stamps[0].column: 1024 is out of range (0 to 1023)"),
        (#"[{"column":0,"span":0,"y":0,"h":1}]"#, "params.stamps[0].span: 0 is out of range (1 to 1024)"),
        (#"[{"column":0,"y":"a","h":1}]"#, #"params.stamps[0].y: must be a number, not string "a""#),
        (#"[{"column":0,"h":1}]"#, "params.stamps[0].y: missing"),
        (#"[{"column":0,"y":1}]"#, "params.stamps[0].h: missing"),
        (#"[{"y":1,"h":1}]"#, "params.stamps[0].column: missing"),
    ])
    func stampsAreReadStrictly(json: String, error: String?) throws {
        let document = try JSONDocument(parsing: #"{"stamps":"# + json + "}")
        var p = try Params(document.root, path: "params")
        guard let error else {
            #expect(try ModelDecoding.properties(&p).stamps == [Stamp(column: 2, y: 5, height: 7)])
            return
        }
        #expect(throws: ProtocolError(.badParams, error)) {
            try ModelDecoding.properties(&p)
        }
    }

    @Test func moreThanSixtyFourStampsAreRefusedBeforeTheyAreRead() throws {
        let stamps = Array(repeating: #"{"column":0,"y":0,"h":1}"#, count: 65).joined(separator: ",")
        let document = try JSONDocument(parsing: #"{"stamps":["# + stamps + "]}")
        var p = try Params(document.root, path: "params")
        #expect(throws: ProtocolError.badParams("params.stamps", "lists 65 stamps, more than 64")) {
            try ModelDecoding.properties(&p)
        }
    }

    /// `columnWidths` is read as a list of numbers; what is not one is named with its path (ranges and counts
    /// are the engine's to check).
    @Test(arguments: [
        (#"{"columnWidths":3}"#, "params.columnWidths: must be an array of numbers, not number 3"),
        (#"{"columnWidths":[1,"a"]}"#, #"params.columnWidths[1]: must be a number, not string "a""#),
    ])
    func badWeightsAreNamed(_ text: String, _ message: String) throws {
        let document = try JSONDocument(parsing: text)
        let error = #expect(throws: ProtocolError.self) {
            var p = try Params(document.root, path: "params")
            _ = try ModelDecoding.properties(&p)
        }
        #expect(error?.code == .badParams)
        #expect(error?.message == message)
    }

    @Test func weightsRoundTripAsExported() {
        let members = CommandEncoding.members(of: SectionProperties(columns: 3, columnWidths: [2, 1, 0.5]))
        #expect(Self.text(.object(members)) == #"{"columns":3,"columnWidths":[2,1,0.5]}"#)
    }

    private static func text(_ value: JSONValue) -> String {
        var writer = JSONWriter()
        writer.write(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// A lookahead object: both members required, each in range, nothing else.
    @Test(arguments: [
        (#"{"lookahead":{"items":3}}"#, "params.lookahead.limit: missing"),
        (#"{"lookahead":{"items":9,"limit":1}}"#, "params.lookahead.items: 9 is out of range (1 to 8)"),
        (#"{"lookahead":{"items":2,"limit":0}}"#, "params.lookahead.limit: 0 is out of range (1 to 40320)"),
        (#"{"lookahead":{"items":2,"limit":1.5}}"#, "params.lookahead.limit"),
        (#"{"lookahead":{"items":2,"limit":2,"depth":1}}"#, "params.lookahead.depth: unknown field"),
        (#"{"lookahead":5}"#, "params.lookahead"),
    ])
    func badLookaheadsAreRefused(_ text: String, _ message: String) throws {
        let document = try JSONDocument(parsing: text)
        var p = try Params(document.root, path: "params")
        do {
            _ = try ModelDecoding.properties(&p)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.message.hasPrefix(message), "\(text): \(error.message)")
        }
    }
}
