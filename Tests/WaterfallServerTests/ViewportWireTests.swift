import Testing
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport

@testable import WaterfallServer

/// Viewports through the daemon, durable and `--ephemeral` (their code paths differ): a bad one, on a change, a
/// batch or `subscribe`, is `bad_params` naming the field and the value, and changes nothing (no seq, no event, no
/// subscription); `null` is no viewport.
///
/// `MethodTests.feed` is 310 wide: two columns of 150, items 100 (column 0, y 0), 50 (column 1, y 0) and 70
/// (column 1, y 60).
@Suite(.tags(.server)) struct ViewportWireTests {
    /// A viewport member (as JSON text) and the error it must get: its kind and, for `bad_params`, its message.
    static let badViewports: [(viewport: String, kind: String, message: String)] = [
        (#"{"y":0,"h":0}"#, "bad_params", "params.viewport.h: 0 must be finite and > 0"),
        (#"{"y":0,"h":-5}"#, "bad_params", "params.viewport.h: -5 must be finite and > 0"),
        (#"{"y":0,"h":-0.0}"#, "bad_params", "params.viewport.h: 0 must be finite and > 0"),
        (#"{"y":0}"#, "bad_params", "params.viewport.h: missing"),
        (#"{"h":10}"#, "bad_params", "params.viewport.y: missing"),
        (#"{"y":0,"h":null}"#, "bad_params", "params.viewport.h: missing"),
        (#"{"y":"0","h":10}"#, "bad_params", #"params.viewport.y: must be a number, not string "0""#),
        (#"{"y":0,"h":true}"#, "bad_params", "params.viewport.h: must be a number, not bool true"),
        (#"{"y":0,"h":[10]}"#, "bad_params", "params.viewport.h: must be a number, not array [10]"),
        (#"{"y":0,"h":10,"w":300}"#, "bad_params", "params.viewport.w: unknown field"),
        ("[0,10]", "bad_params", "params.viewport: must be an object, not array"),
        ("10", "bad_params", "params.viewport: must be an object, not number"),
        (#""top""#, "bad_params", "params.viewport: must be an object, not string"),
        // JSON has no infinite number: one that overflows a double is refused as the line is read.
        (#"{"y":1e999,"h":10}"#, "parse_error", ""),
        (#"{"y":0,"h":1e999}"#, "parse_error", ""),
    ]

    @Test(arguments: [true, false])
    func aBadViewportIsBadParamsNamingItAndChangesNothing(durable: Bool) async throws {
        let fixture = try await InProcessDaemon.start { $0.ephemeral = !durable }
        let writer = try fixture.connect()
        let watcher = try fixture.connect()
        try await writer.result("layout.create", MethodTests.feed)
        try await watcher.result("subscribe", ["layout": "feed", "viewport": ["y": 0, "h": 100]])
        let before = try await writer.snapshot("feed")
        let update = #""section":0,"items":[{"i":0,"h":90}]"#
        for (viewport, kind, message) in Self.badViewports {
            let requests = [
                ("items.update", #"{"layout":"feed",\#(update),"viewport":\#(viewport)}"#),
                (
                    "batch",
                    #"{"layout":"feed","ops":[{"method":"items.update","params":{\#(update)}}],"viewport":\#(viewport)}"#
                ),
                ("subscribe", #"{"layout":"feed","viewport":\#(viewport)}"#),
            ]
            for (method, params) in requests {
                let line = #"{"jsonrpc":"2.0","id":7,"method":"\#(method)","params":\#(params)}"#
                let reply = try JSONValue(parsing: try await writer.send(line))
                let error = try WireError(reply)
                #expect(error.kind == kind, "\(line): \(error)")
                if kind == "bad_params" { #expect(error.message == message, "\(line)") }
                #expect(reply["id"] == (kind == "parse_error" ? .null : 7), "\(line)")
            }
        }
        #expect(try await writer.snapshot("feed") == before)
        // No refused subscribe subscribed the writer: its next change is answered with no event before or after.
        try await writer.result("items.update", ["layout": "feed", "section": 0, "items": [["i": 0, "h": 90]]])
        #expect(try await writer.result("ping") == ["pong": true])
        // The watcher's first event is that change's (seq 2): none went out for the refusals.
        let event = try JSONValue(parsing: try await watcher.readLine())
        #expect(event["params"]?.int("seq") == 2)
        await fixture.stop()
    }

    /// A batch takes its viewport beside `ops`, as it takes `anchor` and `diff`: in an op it is an unknown field.
    @Test(arguments: [true, false])
    func aViewportInABatchOpIsAnUnknownField(durable: Bool) async throws {
        let fixture = try await InProcessDaemon.start { $0.ephemeral = !durable }
        let client = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        let before = try await client.snapshot("feed")
        let ops: JSONValue = [
            ["method": "items.update", "params": ["section": 0, "items": [["i": 0, "h": 90]]]],
            [
                "method": "items.delete",
                "params": ["section": 0, "items": [2], "viewport": ["y": 0, "h": 100]],
            ],
        ]
        let error = try await client.error("batch", ["layout": "feed", "ops": ops])
        #expect(error.kind == "bad_params")
        #expect(error.message == "params.ops[1].params.viewport: unknown field")
        #expect(try await client.snapshot("feed") == before)
        await fixture.stop()
    }

    /// `"viewport": null` is no viewport: the full diff, and a subscription's full events.
    @Test func aNullViewportIsNone() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        let watcher = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        #expect(try await watcher.result("subscribe", ["layout": "feed", "viewport": .null]) == [:])
        let full = try await client.result(
            "items.update", ["layout": "feed", "section": 0, "items": [["i": 1, "h": 60]], "viewport": .null])
        let event = try JSONValue(parsing: try await watcher.readLine())
        // Item 1 grew by 10: item 2 below it moved, outside any viewport one might have named.
        #expect(full["diff"]?["sections"] == event["params"]?["diff"]?["sections"])
        #expect(full["diff"]?["sections"]?.jsonText.contains(#""i":2,"#) == true)
        await fixture.stop()
    }

    /// `subscribe` again without a viewport makes a scoped subscription unscoped: its next event lists item 2,
    /// which moved below the old viewport [0, 10).
    @Test func subscribingAgainWithoutAViewportUnscopes() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        let watcher = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        let scoped = try await watcher.result("subscribe", ["layout": "feed", "viewport": ["y": 0, "h": 10]])
        #expect(scoped.keys == ["seq", "contentSize", "viewport", "diff"])
        #expect(try await watcher.result("subscribe", ["layout": "feed"]) == [:])
        let full = try await client.result(
            "items.update", ["layout": "feed", "section": 0, "items": [["i": 1, "h": 60]]])
        let event = try JSONValue(parsing: try await watcher.readLine())
        #expect(event["params"]?["diff"] == full["diff"])
        #expect(full["diff"]?.jsonText.contains(#""i":2,"#) == true)
        await fixture.stop()
    }
}
