import Testing
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport
import WaterfallTestSupport

@testable import WaterfallServer

/// Horizontal feeds through the daemon, durable and `--ephemeral` (their code paths differ): what a horizontal
/// layout refuses is `bad_params` naming the field and the value and changes nothing, a scoped subscription's
/// events are in `{x, w}` and `dx`, and the layout comes back horizontal from `layout.export`.
@Suite(.tags(.server)) struct HorizontalWireTests {
    /// Two rows 95 high: items 100 (row 0, x 0) and 50 (row 1, x 0); then a 3:2 picture 200 high, 300 wide: 400 along
    /// x in all.
    static let strip: JSONValue = [
        "layout": "strip", "width": 200, "axis": "horizontal",
        "sections": [["items": [["h": 100], ["h": 50]]], ["columns": 1, "items": [["w": 3, "h": 2]]]],
    ]

    @Test(arguments: [true, false])
    func refusalsNameTheFieldAndChangeNothing(durable: Bool) async throws {
        let fixture = try await InProcessDaemon.start { $0.ephemeral = !durable }
        let client = try fixture.connect()
        try await client.result("layout.create", Self.strip)
        let before = try await client.snapshot("strip")
        let refusals: [(String, JSONValue, String)] = [
            (
                "layout.create", ["layout": "other", "width": 100, "axis": "diagonal"],
                #"params.axis: "diagonal" is not "vertical" or "horizontal""#
            ),
            (
                "layout.configure", ["layout": "strip", "axis": "up"],
                #"params.axis: "up" is not "vertical" or "horizontal""#
            ),
            (
                "items.insert", ["layout": "strip", "section": 0, "at": 0, "items": [["w": 2, "h": 0]]],
                "params.items[0].h: 0 must be ≥ 1e-6 for an aspect item of a horizontal layout"
            ),
            (
                "items.update",
                ["layout": "strip", "section": 0, "items": [["i": 0, "h": 9]], "viewport": ["y": 0, "h": 50]],
                "params.viewport: {y, h} must be {x, w} for a horizontal layout"
            ),
            (
                "subscribe", ["layout": "strip", "viewport": ["y": 0, "h": 50]],
                "params.viewport: {y, h} must be {x, w} for a horizontal layout"
            ),
            (
                "layout.css", ["layout": "strip", "minWidth": 100, "maxWidth": 200],
                #"params.layout: 'strip' has axis "horizontal": layout.css writes vertical layouts only (a horizontal feed's frames come from layout.get or query)"#
            ),
        ]
        for (method, params, message) in refusals {
            let error = try await client.error(method, params)
            #expect(error.kind == "bad_params" && error.message == message, "\(method): \(error)")
        }
        #expect(try await client.snapshot("strip") == before)
        #expect(try await client.error("layout.get", ["layout": "other"]).kind == "not_found")
        await fixture.stop()
    }

    @Test(arguments: [true, false])
    func aScopedSubscriptionFollowsTheFeedAlongX(durable: Bool) async throws {
        let fixture = try await InProcessDaemon.start { $0.ephemeral = !durable }
        let writer = try fixture.connect()
        let watcher = try fixture.connect()
        try await writer.result("layout.create", Self.strip)
        let snapshot = try await watcher.result("subscribe", ["layout": "strip", "viewport": ["x": 0, "w": 120]])
        #expect(snapshot["viewport"] == ["x": 0, "w": 120])
        #expect(snapshot["contentSize"] == ["w": 400, "h": 200])
        // Item 0 widens by 40: section 1 (x 100, 300 wide) moves by dx 40; the watcher holds it, so it is a shift.
        let result = try await writer.result(
            "items.update",
            ["layout": "strip", "section": 0, "items": [["i": 0, "h": 140]], "anchor": ["section": 1, "i": 0]])
        #expect(result["anchor"] == ["section": 1, "i": 0, "dx": 40])
        let event = try JSONValue(parsing: try await watcher.readLine())
        let diff = try #require(event["params"]?["diff"])
        #expect(diff["shifts"] == [["from": 1, "to": 1, "dx": 40]])
        guard case .array(let sections)? = diff["sections"] else { throw TestFailure("no sections: \(diff)") }
        #expect(sections.first?["width"] == 140)
        let export = try await writer.result("layout.export", ["layout": "strip"])
        #expect(export["layout"]?["axis"] == "horizontal")
        await fixture.stop()
    }
}
