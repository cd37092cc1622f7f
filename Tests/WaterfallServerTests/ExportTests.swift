import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallTestSupport

@testable import WaterfallServer

/// `layout.export` gives a layout's inputs in the shape of `layout.create`'s params: creating them under another
/// name rebuilds the same frames, whatever properties and changes the layout has had.
@Suite(.tags(.server)) struct ExportTests {
    @Test(arguments: 0..<6)
    func anExportCreatesTheSameFrames(seed: Int) async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        var random = RandomCommands(seed: UInt64(seed), maxItems: 40)
        let spec = LayoutSpec(
            width: 300 + Double(seed), scale: seed % 2 == 0 ? 0 : 2, direction: seed % 3 == 0 ? .rtl : .ltr,
            minContentHeight: Double(seed * 10), defaults: SectionProperties(columns: 1 + seed % 3, rowSpacing: 4),
            sections: [
                SectionSpec(properties: SectionProperties(headerHeight: 20), items: random.items(5)),
                SectionSpec(items: random.items(3)),
            ])
        _ = try await client.result("layout.create", WireCommand.create("a", spec))
        var reference = try await LayoutWidths.make(spec).layouts
        for _ in 0..<30 {
            let command = await StorageCrashTests.nextChange(&reference, &random)
            let wire = WireCommand(command)
            _ = try await client.result(wire.method, wire.params(layout: "a"))
        }
        let export = try await client.result("layout.export", ["layout": "a"])
        #expect(export.keys == ["seq", "layout"])
        #expect(export["seq"] == .int(Int64(reference.seq)))
        guard case .object(let members) = export["layout"] else {
            Issue.record("no layout in \(export)")
            return
        }
        #expect(!members.contains { $0.key == "layout" || $0.key == "replace" })
        _ = try await client.result("layout.create", .object([(key: "layout", value: "copy")] + members))
        let original = try await client.result("layout.get", ["layout": "a"])
        let copy = try await client.result("layout.get", ["layout": "copy"])
        #expect(original["sections"] == copy["sections"])
        #expect(original["contentSize"] == copy["contentSize"])
        let missing = try await client.call("layout.export", ["layout": "nope"])
        #expect(missing["error"]?["data"]?["kind"] == "not_found")
        await fixture.stop()
    }

    /// `tieBreak` and `pinHeader` come out of an export as they went in, in the defaults and in sections, and a
    /// `null` reset takes them out.
    @Test func anExportKeepsTieBreakAndPinHeader() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        let spec = LayoutSpec(
            width: 300, defaults: SectionProperties(tieBreak: .cursor),
            sections: [
                SectionSpec(properties: SectionProperties(tieBreak: .leftmost, pinHeader: true)), SectionSpec(),
            ])
        _ = try await client.result("layout.create", WireCommand.create("a", spec))
        var export = try await client.result("layout.export", ["layout": "a"])
        #expect(export["layout"]?["defaults"] == ["tieBreak": "cursor"])
        #expect(Self.firstSection(export) == ["tieBreak": "leftmost", "pinHeader": true, "items": []])
        _ = try await client.result(
            "sections.configure", ["layout": "a", "section": 0, "tieBreak": nil, "pinHeader": false])
        export = try await client.result("layout.export", ["layout": "a"])
        #expect(Self.firstSection(export) == ["pinHeader": false, "items": []])
        await fixture.stop()
    }

    private static func firstSection(_ export: JSONValue) -> JSONValue? {
        guard case .array(let sections)? = export["layout"]?["sections"] else { return nil }
        return sections.first
    }
}
