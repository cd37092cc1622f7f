import Testing
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport
import WaterfallTestSupport

@testable import WaterfallServer

/// Scroll anchors through the daemon: in the result and the `layout.changed` event (after `diff`), `null` for a
/// removed item, a refusal that changes nothing, the bytes of a request without an anchor, and the journal.
///
/// `MethodTests.feed` is 310 wide: two columns of 150, items 100 (column 0, y 0), 50 (column 1, y 0) and 70
/// (column 1, y 60).
@Suite(.tags(.server)) struct AnchorWireTests {
    /// Item 20 inserted at the top: [20, 100, 50, 70] puts the 70 at y 90 in column 0, as item 3.
    static let insert: JSONValue = [
        "layout": "feed", "section": 0, "at": 0, "items": [["h": 20]], "anchor": ["section": 0, "i": 2],
    ]

    @Test func theResultAndTheEventSayWhereTheAnchorWent() async throws {
        let fixture = try await InProcessDaemon.start()
        let writer = try fixture.connect()
        let watcher = try fixture.connect()
        try await writer.result("layout.create", MethodTests.feed)
        try await watcher.result("subscribe", ["layout": "feed"])
        let result = try await writer.result("items.insert", Self.insert)
        #expect(result.keys == ["seq", "contentSize", "diff", "anchor"])
        #expect(result["anchor"] == ["section": 0, "i": 3, "dy": 30])
        let event = try JSONValue(parsing: try await watcher.readLine())
        #expect(event["params"]?.keys == ["layout", "seq", "contentSize", "ops", "diff", "anchor"])
        #expect(event["params"]?["anchor"] == result["anchor"])
        #expect(event["params"]?["diff"] == result["diff"])
        // Without the diff the anchor stays; deleting the anchor item answers null, in the event too.
        let deleted = try await writer.result(
            "items.delete",
            ["layout": "feed", "section": 0, "items": [3], "anchor": ["section": 0, "i": 3], "diff": false])
        #expect(deleted.keys == ["seq", "contentSize", "anchor"])
        #expect(deleted["anchor"] == .null)
        let second = try JSONValue(parsing: try await watcher.readLine())
        #expect(second["params"]?["anchor"] == .null)
        // A batch: the anchor follows through its ops in turn (the 50, item 2, moves to the top: y 0 in column 0).
        let ops: JSONValue = [
            ["method": "items.move", "params": ["from": [0, 2], "to": [0, 0]]],
            ["method": "items.update", "params": ["section": 0, "items": [["i": 1, "h": 5]]]],
        ]
        let batch = try await writer.result(
            "batch", ["layout": "feed", "ops": ops, "anchor": ["section": 0, "i": 2], "diff": false])
        #expect(batch["anchor"] == ["section": 0, "i": 0, "dy": -30])
        await fixture.stop()
    }

    @Test func anAnchorThatIsNotThereChangesNothing() async throws {
        let fixture = try await InProcessDaemon.start()
        let writer = try fixture.connect()
        let watcher = try fixture.connect()
        try await writer.result("layout.create", MethodTests.feed)
        try await watcher.result("subscribe", ["layout": "feed"])
        let before = try await writer.snapshot("feed")
        var params = Self.insert.setting("anchor", ["section": 0, "i": 3])
        let missing = try await writer.error("items.insert", params)
        #expect(missing.kind == "not_found" && missing.code == -32001)
        #expect(missing.message == "params.anchor.i: 3 is not an item of section 0 (it has 3)")
        params = params.setting("anchor", ["section": 1, "i": 0])
        #expect(try await writer.error("items.insert", params).message.hasPrefix("params.anchor.section: 1 "))
        params = params.setting("anchor", ["section": 0, "i": -1])
        #expect(try await writer.error("items.insert", params).kind == "bad_params")
        // A failing op fails the whole request, anchor or not.
        let ops: JSONValue = [["method": "items.delete", "params": ["section": 0, "items": [7]]]]
        let failed = try await writer.error(
            "batch", ["layout": "feed", "ops": ops, "anchor": ["section": 0, "i": 0]])
        #expect(failed.message.hasPrefix("params.ops[0].params.items[0]: 7 "))
        #expect(try await writer.snapshot("feed") == before)
        // No event went out: the next line the watcher reads is its reply.
        #expect(try await watcher.result("ping") == ["pong": true])
        await fixture.stop()
    }

    /// A request without an anchor gets the reply of one with an anchor, byte for byte, less the anchor member.
    @Test func withoutAnAnchorTheReplyIsUnchanged() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        for name in ["a", "b"] {
            try await client.result("layout.create", MethodTests.feed.setting("layout", .string(name)))
        }
        let plain = Self.insert.setting("layout", "a").setting("anchor", nil)
        let anchored = Self.insert.setting("layout", "b")
        let line = { (params: JSONValue) in
            #"{"id":1,"method":"items.insert","params":"# + params.jsonText + "}"
        }
        let without = try await client.send(line(plain))
        let with = try await client.send(line(anchored))
        #expect(!without.contains("anchor"))
        #expect(with == String(without.dropLast(2)) + #","anchor":{"section":0,"i":3,"dy":30}}}"#)
        await fixture.stop()
    }

    /// The journal keeps the change, not its anchor: a restart rebuilds the same frames and seq, and the export
    /// shows no anchor.
    @Test func aRestartReplaysAnchoredChanges() async throws {
        let state = try makeTemporaryDirectory()
        defer { removeDirectory(state) }
        let first = try await InProcessDaemon.start { $0.stateDirectory = state }
        let client = try first.connect()
        try await client.result("layout.create", MethodTests.feed)
        try await client.result("items.insert", Self.insert)
        let ops: JSONValue = [["method": "sections.insert", "params": ["at": 0, "sections": [["items": [["h": 5]]]]]]]
        let batch = try await client.result(
            "batch", ["layout": "feed", "ops": ops, "anchor": ["section": 0, "i": 0], "diff": false])
        #expect(batch["anchor"] == ["section": 1, "i": 0, "dy": 5])
        let frames = try await client.snapshot("feed")
        let export = try await client.result("layout.export", ["layout": "feed"])
        await first.stop()
        let second = try await InProcessDaemon.start { $0.stateDirectory = state }
        let again = try second.connect()
        #expect(try await again.snapshot("feed") == frames)
        #expect(try await again.result("layout.export", ["layout": "feed"]) == export)
        #expect(!export.jsonText.contains("anchor"))
        await second.stop()
    }
}

extension JSONValue {
    /// This object with member `key` set to `value` in place (or appended), or removed when `value` is nil.
    func setting(_ key: String, _ value: JSONValue?) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let k = members.firstIndex(where: { $0.key == key }) {
            if let value { members[k].value = value } else { members.remove(at: k) }
        } else if let value {
            members.append((key: key, value: value))
        }
        return .object(members)
    }
}
