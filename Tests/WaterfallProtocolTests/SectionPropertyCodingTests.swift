import Testing
import WaterfallJSON
import WaterfallLayout

@testable import WaterfallProtocol

/// Section properties and patches through the wire: encoded as `layout.export` writes them, decoded as requests read
/// them, every property of `SectionPropertyTable` comes back as it was.
@Suite struct SectionPropertyCodingTests {
    static let every = SectionProperties(
        minColumnWidth: 80.5, maxColumns: 4, columnSpacing: 3, rowSpacing: 0.25,
        insets: Insets(top: 1, left: 2, bottom: 3, right: 4), headerHeight: 40, footerHeight: 0.1,
        headerInsets: Insets(top: 0, left: 5, bottom: 0, right: 0), footerInsets: .zero, placement: .next,
        tolerance: 2, tieBreak: .cursor, pinHeader: true, spanPlacement: .leastWhitespace,
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
                "spanPlacement", "lookahead",
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
