import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallTestSupport

@testable import WaterfallServer

/// `layout.css` of a layout's inputs inline, in the form `layout.export` returns: the same result, byte for byte,
/// as of the stored layout, from a daemon that keeps nothing of it.
@Suite(.tags(.server)) struct InlineStylesheetTests {
    @Test(arguments: 0..<6)
    func theInlineFormGivesTheStoredFormsStylesheet(seed: Int) async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        var feeds = ResponsiveFeeds(seed: UInt64(4300 + seed))
        var (spec, minWidth, maxWidth) = feeds.feed(maxItems: 30)
        if seed == 0 { (spec, minWidth, maxWidth) = (ResponsiveFeeds.photoFeed(count: 1000), 320, 1920) }
        spec.width = minWidth
        _ = try await client.result("layout.create", WireCommand.create("a", spec))
        // A change, so that the inputs are what the layout has become rather than what created it.
        _ = try await client.result(
            "items.insert", ["layout": "a", "section": 0, "at": 0, "items": [["h": 90, "w": 120]]])
        let export = try await client.result("layout.export", ["layout": "a"])
        let inputs = try #require(export["layout"])
        let range: [(key: String, value: JSONValue)] = [
            ("minWidth", .double(minWidth)), ("maxWidth", .double(maxWidth)), ("items", seed == 0 ? 100 : 20),
            ("selector", "#feed"),
        ]
        let stored = try await client.result("layout.css", .object([("layout", "a")] + range))
        _ = try await client.result("layout.drop", ["layout": "a"])
        let inline = try await client.result("layout.css", .object([("layout", inputs)] + range))
        #expect(inline.jsonText == stored.jsonText)
        #expect(try await client.result("layout.list")["layouts"] == [])
        await fixture.stop()
    }

    /// Inline inputs are checked as `layout.create` checks them, each error naming its field under `params.layout`.
    @Test func badInlineInputsNameTheirField() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        let range: [(key: String, value: JSONValue)] = [("minWidth", 300), ("maxWidth", 600)]
        let cases: [(JSONValue, String)] = [
            (["sections": []], "params.layout.width: missing"),
            (["width": 300, "sections": [["items": [["h": -1]]]]], "params.layout.sections[0].items[0].h"),
            (["width": 300, "defaults": ["columns": 0]], "params.layout.defaults.columns"),
            (["width": 300, "layout": "x"], "params.layout.layout: unknown field"),
        ]
        for (inputs, message) in cases {
            let error = try await client.error("layout.css", .object([("layout", inputs)] + range))
            #expect(error.kind == "bad_params", "\(inputs.jsonText): \(error)")
            #expect(error.message.hasPrefix(message), "\(inputs.jsonText): \(error.message)")
        }
        await fixture.stop()
    }
}
