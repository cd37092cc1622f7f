import Testing
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport

@testable import WaterfallServer

/// Every method of the Methods article through the socket, with the real `LayoutService`, and its result's shape.
///
/// The standard layout: width 310, two columns of 150 with the default spacing of 10, items 100, 50 and 70 tall,
/// so item 2 goes under item 1 (the shorter column): frames written by hand from the Geometry article.
@Suite(.tags(.server)) struct MethodTests {
    static let feed: JSONValue = [
        "layout": "feed", "width": 310, "sections": [["items": [["h": 100], ["h": 50], ["h": 70, "id": "c"]]]],
    ]

    @Test func ping() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        #expect(try await client.result("ping") == ["pong": true])
        #expect(try await client.result("ping", [:]) == ["pong": true])
        await fixture.stop()
    }

    @Test func versionReportsTheLimits() async throws {
        let fixture = try await InProcessDaemon.start { $0.maxLayouts = 7 }
        let client = try fixture.connect()
        let version = try await client.result("version")
        #expect(version.keys == ["server", "version", "protocol", "instance", "durable", "limits"])
        #expect(version["durable"] == true)
        guard case .string(let instance) = version["instance"], !instance.isEmpty else {
            Issue.record("version has no instance: \(version)")
            return
        }
        // Another start (here an ephemeral one) is another instance.
        let ephemeral = try await InProcessDaemon.start { $0.ephemeral = true }
        let other = try await ephemeral.connect().result("version")
        #expect(other["durable"] == false)
        #expect(other["instance"] != .string(instance))
        await ephemeral.stop()
        #expect(version["server"] == "waterfalld")
        #expect(version["protocol"] == 2)
        let limits = try #require(version["limits"])
        #expect(limits["maxLayouts"] == 7)
        #expect(limits["maxLineBytes"] == 16_777_216)
        #expect(limits["maxItemsPerLayout"] == 10_000_000)
        #expect(limits["maxBatchOps"] == 10_000)
        await fixture.stop()
    }

    @Test func createReturnsAMutationResultWithNewSections() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        let created = try await client.result("layout.create", Self.feed)
        #expect(
            created.jsonText
                == #"{"seq":1,"contentSize":{"w":310,"h":130},"diff":{"sections":[{"section":0,"origin":0,"height":130,"#
                + #""count":3,"new":true,"items":[{"i":0,"x":0,"y":0,"w":150,"h":100},{"i":1,"x":160,"y":0,"w":150,"#
                + #""h":50},{"i":2,"x":160,"y":60,"w":150,"h":70,"id":"c"}]}]}}"#)
        // An empty layout: no sections, minContentHeight applies.
        let empty = try await client.result("layout.create", ["layout": "e", "width": 100, "minContentHeight": 40])
        #expect(empty.jsonText == #"{"seq":1,"contentSize":{"w":100,"h":40},"diff":{"sections":[]}}"#)
        await fixture.stop()
    }

    @Test func createWithReplaceStartsOver() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", Self.feed)
        try await client.result("items.delete", ["layout": "feed", "section": 0, "items": [0]])
        let replaced = try await client.result(
            "layout.create", ["layout": "feed", "width": 200, "replace": true, "diff": false])
        #expect(replaced.jsonText == #"{"seq":1,"contentSize":{"w":200,"h":0}}"#)
        #expect(
            try await client.result("layout.list").jsonText
                == #"{"layouts":[{"layout":"feed","sections":0,"items":0,"seq":1,"widths":[200]}]}"#)
        // replace of a name not in use simply creates it.
        try await client.result("layout.create", ["layout": "new", "width": 1, "replace": true])
        await fixture.stop()
    }

    @Test func configureRelaysOutTheLayout() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", Self.feed)
        let configured = try await client.result(
            "layout.configure", ["layout": "feed", "width": 210, "defaults": ["columnSpacing": 0]])
        #expect(configured["seq"] == 2)
        // Columns of 105 without spacing; item 2 still under item 1 (50 + 10 row spacing).
        #expect(
            configured["diff"]?.jsonText
                == #"{"sections":[{"section":0,"origin":0,"height":130,"count":3,"items":[{"i":0,"x":0,"y":0,"w":105,"#
                + #""h":100},{"i":1,"x":105,"y":0,"w":105,"h":50},{"i":2,"x":105,"y":60,"w":105,"h":70,"id":"c"}]}]}"#)
        // Direction rtl mirrors every frame.
        let mirrored = try await client.result("layout.configure", ["layout": "feed", "direction": "rtl"])
        #expect(mirrored["diff"]?["sections"]?.jsonText.contains(#"{"i":0,"x":105,"y":0,"w":105,"h":100}"#) == true)
        await fixture.stop()
    }

    @Test func dropForgetsTheLayout() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", Self.feed)
        #expect(try await client.result("layout.drop", ["layout": "feed"]) == [:])
        #expect(try await client.error("layout.get", ["layout": "feed"]).kind == "not_found")
        #expect(try await client.result("layout.list") == ["layouts": []])
        // The name is free again.
        #expect(try await client.result("layout.create", Self.feed)["seq"] == 1)
        await fixture.stop()
    }

    @Test func listsLayoutsByName() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result(
            "layout.create", ["layout": "b", "width": 10, "sections": [[:], ["items": [["h": 1]]]]])
        try await client.result("layout.create", Self.feed)
        try await client.result("items.delete", ["layout": "feed", "section": 0, "items": [2]])
        #expect(
            try await client.result("layout.list").jsonText
                == #"{"layouts":[{"layout":"b","sections":2,"items":1,"seq":1,"widths":[10]},"#
                + #"{"layout":"feed","sections":1,"items":2,"seq":2,"widths":[310]}]}"#)
        await fixture.stop()
    }

    @Test func getReturnsSectionFramesAndFiltersSections() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result(
            "layout.create",
            [
                "layout": "g", "width": 100,
                "sections": [
                    ["columns": 1, "headerHeight": 20, "items": [["h": 10]]],
                    ["columns": 1, "footerHeight": 5, "footerInsets": ["top": 1], "items": [["h": 30, "id": "x"]]],
                ],
            ])
        let all = try await client.result("layout.get", ["layout": "g"])
        #expect(
            all.jsonText
                == #"{"seq":1,"contentSize":{"w":100,"h":66},"sections":["#
                + #"{"section":0,"origin":0,"height":30,"count":1,"header":{"x":0,"y":0,"w":100,"h":20},"#
                + #""items":[{"i":0,"x":0,"y":20,"w":100,"h":10}]},"#
                + #"{"section":1,"origin":30,"height":36,"count":1,"footer":{"x":0,"y":61,"w":100,"h":5},"#
                + #""items":[{"i":0,"x":0,"y":30,"w":100,"h":30,"id":"x"}]}]}"#)
        let one = try await client.result("layout.get", ["layout": "g", "sections": [1]])
        #expect(one.array("sections").map { $0["section"] } == [1])
        let reversed = try await client.result("layout.get", ["layout": "g", "sections": [1, 0]])
        #expect(reversed.array("sections").map { $0["section"] } == [1, 0])
        // A section listed twice would only make the reply larger, without bound.
        let twice = try await client.error("layout.get", ["layout": "g", "sections": [1, 0, 1]])
        #expect(twice.kind == "bad_params" && twice.message == "params.sections[2]: 1 is listed twice")
        let none = try await client.result("layout.get", ["layout": "g", "sections": []])
        #expect(none.array("sections").isEmpty)
        await fixture.stop()
    }

    @Test func insertsDeletesAndMovesSections() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", Self.feed)
        let inserted = try await client.result(
            "sections.insert",
            ["layout": "feed", "at": 0, "sections": [["columns": 1, "items": [["h": 20]]]]])
        #expect(
            inserted.jsonText
                == #"{"seq":2,"contentSize":{"w":310,"h":150},"diff":{"sections":["#
                + #"{"section":0,"origin":0,"height":20,"count":1,"new":true,"items":[{"i":0,"x":0,"y":0,"w":310,"h":20}]}],"#
                + #""shifts":[{"from":1,"to":1,"dy":20}]}}"#)
        let moved = try await client.result("sections.move", ["layout": "feed", "from": 0, "to": 1])
        #expect(moved["seq"] == 3)
        #expect(
            moved["diff"]?.jsonText
                == #"{"sections":[],"shifts":[{"from":0,"to":0,"dy":-20},{"from":1,"to":1,"dy":130}]}"#)
        let deleted = try await client.result("sections.delete", ["layout": "feed", "sections": [0]])
        #expect(
            deleted.jsonText
                == #"{"seq":4,"contentSize":{"w":310,"h":20},"diff":{"sections":[],"#
                + #""shifts":[{"from":0,"to":0,"dy":-130}]}}"#)
        await fixture.stop()
    }

    @Test func configuresASectionAndResetsWithNull() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result(
            "layout.create",
            ["layout": "feed", "width": 310, "defaults": ["columns": 3], "sections": [["items": [["h": 100]]]]])
        let one = try await client.result(
            "sections.configure", ["layout": "feed", "section": 0, "columns": 1, "headerHeight": 5])
        #expect(
            one["diff"]?.jsonText
                == #"{"sections":[{"section":0,"origin":0,"height":105,"count":1,"header":{"x":0,"y":0,"w":310,"h":5},"#
                + #""items":[{"i":0,"x":0,"y":5,"w":310,"h":100}]}]}"#)
        // null: back to the layout's default (3 columns of 96.666…); the header is kept.
        let reset = try await client.result("sections.configure", ["layout": "feed", "section": 0, "columns": nil])
        let item = try #require(reset["diff"]?["sections"]?.jsonText)
        #expect(item.contains(#""w":96.66666666666667"#), "\(item)")
        #expect(!item.contains("header"))
        let noHeader = try await client.result(
            "sections.configure", ["layout": "feed", "section": 0, "headerHeight": nil])
        #expect(noHeader["diff"]?.jsonText.contains(#""header":null"#) == true)
        await fixture.stop()
    }

    @Test func insertsDeletesUpdatesAndMovesItems() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", Self.feed)
        let inserted = try await client.result(
            "items.insert", ["layout": "feed", "section": 0, "at": 3, "items": [["h": 10, "span": "full"]]])
        #expect(
            inserted.jsonText
                == #"{"seq":2,"contentSize":{"w":310,"h":150},"diff":{"sections":[{"section":0,"origin":0,"height":150,"#
                + #""count":4,"items":[{"i":3,"x":0,"y":140,"w":310,"h":10}]}]}}"#)
        let updated = try await client.result(
            "items.update", ["layout": "feed", "section": 0, "items": [["i": 1, "h": 20, "id": "b"]]])
        // Item 1 shrinks by 30: item 2 moves up 30, the full-width item follows the taller column (110).
        #expect(
            updated["diff"]?.jsonText
                == #"{"sections":[{"section":0,"origin":0,"height":120,"count":4,"items":[{"i":1,"x":160,"y":0,"w":150,"#
                + #""h":20,"id":"b"},{"i":2,"x":160,"y":30,"w":150,"h":70,"id":"c"},{"i":3,"x":0,"y":110,"w":310,"h":10}]}]}"#
        )
        let moved = try await client.result("items.move", ["layout": "feed", "from": [0, 3], "to": [0, 0]])
        #expect(moved["seq"] == 4)
        let deleted = try await client.result("items.delete", ["layout": "feed", "section": 0, "items": [0, 3]])
        #expect(deleted["seq"] == 5)
        let state = try await client.result("layout.get", ["layout": "feed"])
        #expect(
            state.array("sections").first?.array("items").map(\.jsonText) == [
                #"{"i":0,"x":0,"y":0,"w":150,"h":100}"#, #"{"i":1,"x":160,"y":0,"w":150,"h":20,"id":"b"}"#,
            ])
        await fixture.stop()
    }

    @Test func appliesABatchAsOneChange() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", Self.feed)
        let batch = try await client.result(
            "batch",
            [
                "layout": "feed",
                "ops": [
                    ["method": "items.insert", "params": ["section": 0, "at": 0, "items": [["h": 1]]]],
                    ["method": "sections.insert", "params": ["at": 1, "sections": [[:]]]],
                    ["method": "items.delete", "params": ["section": 0, "items": [0]]],
                ],
            ])
        #expect(batch["seq"] == 2, "a batch counts once")
        #expect(batch.keys == ["seq", "contentSize", "diff"])
        #expect(
            batch["diff"]?.jsonText
                == #"{"sections":[{"section":1,"origin":130,"height":0,"count":0,"new":true,"items":[]}]}"#)
        let empty = try await client.result("batch", ["layout": "feed", "ops": []])
        #expect(empty["seq"] == 3, "an empty batch is a change that changes nothing")
        await fixture.stop()
    }

    @Test func batchIsAtomic() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", Self.feed)
        let before = try await client.snapshot("feed")
        let error = try await client.error(
            "batch",
            [
                "layout": "feed",
                "ops": [
                    ["method": "items.insert", "params": ["section": 0, "at": 0, "items": [["h": 1]]]],
                    ["method": "items.delete", "params": ["section": 0, "items": [9]]],
                ],
            ])
        #expect(error.kind == "not_found")
        #expect(error.message.contains("params.ops[1]"), "\(error)")
        #expect(try await client.snapshot("feed") == before)
        await fixture.stop()
    }

    @Test func queriesAVisibleRect() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result(
            "layout.create",
            [
                "layout": "feed", "width": 310,
                "sections": [["headerHeight": 10, "items": [["h": 100], ["h": 50], ["h": 70, "id": "c"]]]],
            ])
        let visible = try await client.result(
            "query", ["layout": "feed", "rect": ["x": 0, "y": 65, "w": 310, "h": 20]])
        #expect(
            visible.jsonText
                == #"{"seq":1,"contentSize":{"w":310,"h":140},"elements":["#
                + #"{"kind":"item","section":0,"i":0,"x":0,"y":10,"w":150,"h":100},"#
                + #"{"kind":"item","section":0,"i":2,"x":160,"y":70,"w":150,"h":70,"id":"c"}]}"#)
        let top = try await client.result("query", ["layout": "feed", "rect": ["x": 0, "y": 0, "w": 1, "h": 1]])
        #expect(top.array("elements").map { $0["kind"] } == ["header"])
        let nothing = try await client.result(
            "query", ["layout": "feed", "rect": ["x": 0, "y": 500, "w": 10, "h": 10]])
        #expect(nothing.array("elements").isEmpty)
        await fixture.stop()
    }

    @Test func subscribesAndUnsubscribes() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", Self.feed)
        #expect(try await client.result("subscribe", ["layout": "feed"]) == [:])
        #expect(try await client.result("subscribe", ["layout": "feed"]) == [:], "subscribing twice is harmless")
        #expect(try await fixture.stats()["subscriptions"] == 1)
        #expect(try await client.result("unsubscribe", ["layout": "feed"]) == [:])
        #expect(try await client.result("unsubscribe", ["layout": "feed"]) == [:])
        #expect(try await fixture.stats()["subscriptions"] == 0)
        // No event reaches an unsubscribed connection: the next line is the reply.
        try await client.result("items.delete", ["layout": "feed", "section": 0, "items": [0]])
        await fixture.stop()
    }

    @Test func reportsStats() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", Self.feed)
        let stats = try await client.result("stats")
        #expect(
            stats.keys == [
                "uptimeSeconds", "requests", "errors", "layouts", "sections", "items", "subscriptions", "connections",
                "bytesRead", "bytesWritten", "linesRead", "linesTooLarge", "memory", "events", "descriptors",
                "methods", "storage",
            ])
        #expect(stats["requests"] == 2)
        #expect(stats["layouts"] == 1)
        #expect(stats["sections"] == 1)
        #expect(stats["items"] == 3)
        #expect(stats["connections"]?["open"] == 1)
        #expect((stats["memory"]?.int("residentBytes") ?? 0) > 0)
        let descriptors = stats["descriptors"]
        #expect((descriptors?.int("limit") ?? 0) >= DescriptorBudget.minimumJournals)
        #expect((descriptors?.int("open") ?? 0) > 0)
        #expect(descriptors?.int("reserved") == DescriptorBudget.reserved)
        #expect((descriptors?.int("journals") ?? 0) >= DescriptorBudget.minimumJournals)
        #expect(descriptors?.int("journalsOpen") == 1)
        await fixture.stop()
    }

    /// Every mutating method, with params (besides `layout`) that succeed on the standard layout.
    static let mutations: [(method: String, params: JSONValue)] = [
        ("layout.configure", ["width": 300]),
        ("sections.insert", ["at": 0, "sections": [[:]]]),
        ("sections.delete", ["sections": [0]]),
        ("sections.move", ["from": 0, "to": 0]),
        ("sections.configure", ["section": 0, "rowSpacing": 0]),
        ("items.insert", ["section": 0, "at": 0, "items": [["h": 1]]]),
        ("items.delete", ["section": 0, "items": [0]]),
        ("items.update", ["section": 0, "items": [["i": 0, "h": 1]]]),
        ("items.move", ["from": [0, 0], "to": [0, 2]]),
        ("batch", ["ops": [["method": "sections.move", "params": ["from": 0, "to": 0]]]]),
    ]

    /// `"diff": false` on every mutating method: the result without its diff.
    @Test(arguments: mutations)
    func leavesOutTheDiffWhenAsked(method: String, params: JSONValue) async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", Self.feed)
        guard case .object(let members) = params else { return }
        let result = try await client.result(
            method, .object([("layout", "feed")] + members + [("diff", false)]))
        #expect(result.keys == ["seq", "contentSize"])
        #expect(result["seq"] == 2)
        await fixture.stop()
    }
}

extension InProcessDaemon {
    /// The `stats` result, from a connection of its own.
    func stats() async throws -> JSONValue {
        try await connect().result("stats")
    }
}
