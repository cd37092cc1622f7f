import Testing
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport

@testable import WaterfallServer

/// Every error kind of the Errors article's table through the socket, and that a rejected request changed nothing.
///
/// Not provoked here: `internal` is a bug in the daemon and `shutting_down` answers requests that arrive while it
/// stops (the transport closes connections then, so a client cannot reach it on purpose); `forbidden` is the
/// transport's, covered by `ServerTests.refusesAForbiddenPeerWithOneLine` and
/// `ServerTests.allowsConfiguredUsersAndGroups`; the `limit` on connections by `ServerTests.refusesConnectionsOverTheLimit`.
@Suite(.tags(.server)) struct ErrorKindTests {
    /// A request line the daemon refuses before it reaches a method: its reply, and the error it carries.
    struct RawCase: Sendable, CustomTestStringConvertible {
        var line: [UInt8]
        var id: JSONValue
        var kind: String
        var code: Int64
        var message: String
        var testDescription: String { String(decoding: line, as: UTF8.self) }

        init(_ line: String, id: JSONValue = nil, _ kind: String, _ code: Int64, _ message: String) {
            self.line = Array(line.utf8)
            self.id = id
            self.kind = kind
            self.code = code
            self.message = message
        }

        init(bytes: [UInt8], _ kind: String, _ code: Int64, _ message: String) {
            self.init("", kind, code, message)
            line = bytes
        }
    }

    static let rawCases: [RawCase] = [
        RawCase("not json", "parse_error", -32700, "line: "),
        RawCase(#"{"id":1,"method":"ping""#, "parse_error", -32700, "line: "),
        RawCase(#"{"id":1,"method":"ping"} x"#, "parse_error", -32700, "line: "),
        RawCase(#"{"id":1,"id":2,"method":"ping"}"#, "parse_error", -32700, "line: "),
        // Invalid UTF-8 inside a string, and a lone continuation byte outside one.
        RawCase(
            bytes: Array(#"{"id":1,"method":"p"#.utf8) + [0xFF] + Array(#"ng"}"#.utf8), "parse_error", -32700, "line: "),
        RawCase(bytes: [0x80] + Array(#"{"id":1,"method":"ping"}"#.utf8), "parse_error", -32700, "line: "),
        RawCase(#"[]"#, "invalid_request", -32600, "request: an empty batch array"),
        RawCase(#""ping""#, "invalid_request", -32600, "request: not an object"),
        RawCase(#"{"id":5}"#, id: 5, "invalid_request", -32600, "method: missing"),
        RawCase(#"{"id":5,"method":7}"#, id: 5, "invalid_request", -32600, "method: must be a string"),
        RawCase(#"{"jsonrpc":"2.1","id":5,"method":"ping"}"#, id: 5, "invalid_request", -32600, #"jsonrpc: "2.1""#),
        RawCase(#"{"id":1.5,"method":"ping"}"#, "invalid_request", -32600, "id: 1.5 is not an integer"),
        RawCase(#"{"id":"x","method":"pong"}"#, id: "x", "unknown_method", -32601, #"no method named "pong""#),
        RawCase(#"{"id":"x","method":"Ping"}"#, id: "x", "unknown_method", -32601, #"no method named "Ping""#),
        RawCase(#"{"id":6,"method":"ping","params":{"x":1}}"#, id: 6, "bad_params", -32602, "params.x: unknown field"),
        RawCase(#"{"id":6,"method":"ping","params":[]}"#, id: 6, "bad_params", -32602, "params: must be an object"),
        RawCase(#"{"params":{},"ID":6,"id":7,"method":"ping"}"#, id: 7, "bad_params", -32602, "ID: unknown field"),
        RawCase(#"{"id":8,"method":"layout.get"}"#, id: 8, "bad_params", -32602, "params.layout: missing"),
    ]

    @Test(arguments: rawCases)
    func refusesARequestLine(_ c: RawCase) async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        let before = try await client.snapshot("feed")
        try await client.raw.write(c.line + [0x0A])
        let reply = try JSONValue(parsing: try await client.readLine())
        #expect(reply.keys == ["jsonrpc", "id", "error"])
        #expect(reply["id"] == c.id)
        let error = try WireError(reply)
        #expect(error.kind == c.kind)
        #expect(error.code == c.code)
        #expect(error.message.contains(c.message), "\(error)")
        // The connection stays open and nothing changed.
        #expect(try await client.snapshot("feed") == before)
        await fixture.stop()
    }

    /// A request on the standard layout `feed` that is refused: the kind and a fragment of the message.
    struct Case: Sendable, CustomTestStringConvertible {
        var method: String
        var params: JSONValue
        var kind: String
        var message: String
        var testDescription: String { "\(method) \(params) → \(kind)" }

        init(_ method: String, _ params: JSONValue, _ kind: String, _ message: String) {
            self.method = method
            self.params = params
            self.kind = kind
            self.message = message
        }
    }

    static let cases: [Case] = [
        // bad_params: missing, unknown, wrong type, out of range.
        Case(
            "items.insert", ["layout": "feed", "section": 0, "items": [["h": 1]]], "bad_params", "params.at: missing"),
        Case(
            "items.insert", ["layout": "feed", "section": 0, "at": 0, "items": [["h": 1]], "atx": 1], "bad_params",
            "params.atx: unknown field"),
        Case(
            "items.insert", ["layout": "feed", "section": 0, "at": 0, "items": [["h": -1]]], "bad_params",
            "params.items[0].h"),
        Case(
            "items.insert", ["layout": "feed", "section": 0, "at": 0, "items": [["h": 1], ["h": 1, "span": 0]]],
            "bad_params", "params.items[1].span"),
        Case(
            "items.insert", ["layout": "feed", "section": 0, "at": 0, "items": [["h": 1, "w": 0]]], "bad_params",
            "params.items[0].w"),
        Case(
            "items.update", ["layout": "feed", "section": 0, "items": [["i": 0, "h": "1"]]], "bad_params",
            #"params.items[0].h: must be a number, not string "1""#),
        Case(
            "items.update", ["layout": "feed", "section": 0, "items": [["h": 1]]], "bad_params",
            "params.items[0].i: missing"),
        Case(
            "items.insert", ["layout": "feed", "section": 0, "at": 0, "items": [["h": 1]], "diff": "no"], "bad_params",
            "params.diff: must be true or false"),
        Case(
            "items.delete", ["layout": "bad name", "section": 0, "items": [0]], "bad_params",
            "params.layout: 'bad name'"),
        Case("items.delete", ["layout": "", "section": 0, "items": [0]], "bad_params", "params.layout: ''"),
        Case(
            "items.delete", ["layout": .string(String(repeating: "a", count: 129)), "section": 0, "items": [0]],
            "bad_params", "params.layout"),
        Case(
            "sections.configure", ["layout": "feed", "section": 0, "columns": 2, "minColumnWidth": 50], "bad_params",
            "params.minColumnWidth: cannot be set together with columns"),
        Case("sections.configure", ["layout": "feed", "section": 0, "columns": 0], "bad_params", "params.columns"),
        Case(
            "sections.configure", ["layout": "feed", "section": 0, "rowSpacing": -1], "bad_params", "params.rowSpacing"),
        Case("layout.configure", ["layout": "feed", "width": 0], "bad_params", "params.width"),
        Case("layout.configure", ["layout": "feed", "scale": -1], "bad_params", "params.scale"),
        Case(
            "layout.configure", ["layout": "feed", "defaults": ["columns": 2, "minColumnWidth": 9]], "bad_params",
            "params.defaults.minColumnWidth"),
        Case("query", ["layout": "feed", "rect": ["x": 0, "y": 0, "w": -1, "h": 1]], "bad_params", "params.rect"),
        Case("query", ["layout": "feed", "rect": ["x": 0, "y": 0, "w": 1]], "bad_params", "params.rect.h: missing"),
        Case(
            "batch", ["layout": "feed", "ops": [["method": "layout.drop", "params": [:]]]], "bad_params",
            #"params.ops[0].method: "layout.drop" cannot be used in a batch"#),
        Case(
            "batch",
            [
                "layout": "feed",
                "ops": [["method": "items.delete", "params": ["layout": "feed", "section": 0, "items": [0]]]],
            ],
            "bad_params", "params.ops[0].params.layout: unknown field"),
        Case("layout.create", ["layout": "other", "width": -5], "bad_params", "params.width"),
        Case("layout.create", ["layout": "other"], "bad_params", "params.width: missing"),
        Case(
            "layout.create",
            [
                "layout": "other", "width": 100,
                "sections": [["items": [["h": 1, "id": .string(String(repeating: "i", count: 257))]]]],
            ],
            "bad_params", "params.sections[0].items[0].id"),
        Case("layout.drop", ["layout": "feed", "force": true], "bad_params", "params.force: unknown field"),
        Case("subscribe", ["layouts": "feed"], "bad_params", "params.layout: missing"),
        // not_found: a layout, section or item index.
        Case("layout.get", ["layout": "nope"], "not_found", "params.layout: layout 'nope' does not exist"),
        Case("layout.get", ["layout": "feed", "sections": [1]], "not_found", "params.sections[0]"),
        Case("layout.drop", ["layout": "nope"], "not_found", "'nope'"),
        Case("subscribe", ["layout": "nope"], "not_found", "'nope'"),
        Case("unsubscribe", ["layout": "nope"], "not_found", "'nope'"),
        Case("query", ["layout": "nope", "rect": ["x": 0, "y": 0, "w": 1, "h": 1]], "not_found", "'nope'"),
        Case("items.insert", ["layout": "nope", "section": 0, "at": 0, "items": [["h": 1]]], "not_found", "'nope'"),
        Case(
            "items.insert", ["layout": "feed", "section": 1, "at": 0, "items": [["h": 1]]], "not_found",
            "params.section"),
        Case("items.insert", ["layout": "feed", "section": 0, "at": 4, "items": [["h": 1]]], "not_found", "params.at"),
        Case("items.delete", ["layout": "feed", "section": 0, "items": [0, 3]], "not_found", "params.items[1]"),
        Case(
            "items.update", ["layout": "feed", "section": 0, "items": [["i": 3, "h": 1]]], "not_found",
            "params.items[0]"),
        Case("items.move", ["layout": "feed", "from": [0, 3], "to": [0, 0]], "not_found", "params.from"),
        Case("items.move", ["layout": "feed", "from": [0, 0], "to": [0, 3]], "not_found", "params.to"),
        Case("items.move", ["layout": "feed", "from": [0, 0], "to": [1, 0]], "not_found", "params.to"),
        Case("sections.delete", ["layout": "feed", "sections": [1]], "not_found", "params.sections[0]"),
        Case("sections.move", ["layout": "feed", "from": 0, "to": 1], "not_found", "params.to"),
        Case("sections.insert", ["layout": "feed", "at": 2, "sections": [[:]]], "not_found", "params.at"),
        Case("sections.configure", ["layout": "feed", "section": -1, "columns": 1], "bad_params", "params.section"),
        Case("sections.configure", ["layout": "feed", "section": 7, "columns": 1], "not_found", "params.section"),
        Case(
            "batch", ["layout": "feed", "ops": [["method": "items.delete", "params": ["section": 0, "items": [3]]]]],
            "not_found", "params.ops[0].params.items[0]"),
        // exists.
        Case("layout.create", ["layout": "feed", "width": 100], "exists", "params.layout: 'feed' exists"),
        Case("layout.create", ["layout": "feed", "width": 100, "replace": false], "exists", "'feed' exists"),
        // invalid_geometry: a negative column width.
        Case("layout.configure", ["layout": "feed", "width": 5], "invalid_geometry", "section 0"),
        Case(
            "sections.configure", ["layout": "feed", "section": 0, "insets": ["left": 400]], "invalid_geometry",
            "negative column width"),
        Case(
            "sections.insert", ["layout": "feed", "at": 1, "sections": [["columns": 40]]], "invalid_geometry",
            "section 1"),
    ]

    @Test(arguments: cases)
    func refusesAndChangesNothing(_ c: Case) async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        let before = try await client.snapshot("feed")
        let list = try await client.result("layout.list")
        let error = try await client.error(c.method, c.params)
        #expect(error.kind == c.kind)
        #expect(error.message.contains(c.message), "\(error)")
        #expect(try await client.snapshot("feed") == before)
        #expect(try await client.result("layout.list") == list)
        await fixture.stop()
    }

    @Test func answersAnOverlongLineWithTooLargeAndAppliesNothing() async throws {
        let fixture = try await InProcessDaemon.start { $0.maxLineBytes = 300 }
        let client = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        let before = try await client.snapshot("feed")
        let items = Array(repeating: #"{"h":1}"#, count: 60).joined(separator: ",")
        let long =
            #"{"id":9,"method":"items.insert","params":{"layout":"feed","section":0,"at":0,"items":[\#(items)]}}"#
        #expect(long.utf8.count > 300)
        let reply = try await client.send(long)
        #expect(
            reply
                == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32004,"message":"line: longer than the limit of 300 "#
                + #"bytes","data":{"kind":"too_large"}}}"#)
        #expect(try await client.snapshot("feed") == before)
        #expect(try await client.result("ping") == ["pong": true])
        await fixture.stop()
    }

    @Test func refusesLayoutsOverTheLimit() async throws {
        let fixture = try await InProcessDaemon.start { $0.maxLayouts = 2 }
        let client = try fixture.connect()
        try await client.result("layout.create", ["layout": "a", "width": 1])
        try await client.result("layout.create", ["layout": "b", "width": 1])
        let error = try await client.error("layout.create", ["layout": "c", "width": 1])
        #expect(error.kind == "limit")
        #expect(error.code == -32005)
        #expect(error.message.contains("2 layouts"), "\(error)")
        // Replacing is not a new layout; dropping frees a place.
        try await client.result("layout.create", ["layout": "b", "width": 2, "replace": true])
        try await client.result("layout.drop", ["layout": "a"])
        try await client.result("layout.create", ["layout": "c", "width": 1])
        #expect(try await client.result("layout.list").array("layouts").map { $0["layout"] } == ["b", "c"])
        await fixture.stop()
    }

    @Test func refusesItemsOverTheLayoutLimit() async throws {
        let fixture = try await InProcessDaemon.start { $0.maxItemsPerLayout = 5 }
        let client = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        let before = try await client.snapshot("feed")
        let insert: JSONValue = ["layout": "feed", "section": 0, "at": 0, "items": [["h": 1], ["h": 1], ["h": 1]]]
        let error = try await client.error("items.insert", insert)
        #expect(error.kind == "limit", "\(error)")
        #expect(try await client.snapshot("feed") == before)
        let tooMany = try await client.error(
            "layout.create",
            ["layout": "big", "width": 10, "sections": [["items": .array(Array(repeating: ["h": 1], count: 6))]]])
        #expect(tooMany.kind == "limit")
        #expect(try await client.result("layout.list").array("layouts").count == 1)
        // Up to the limit is fine.
        try await client.result(
            "items.insert", ["layout": "feed", "section": 0, "at": 0, "items": [["h": 1], ["h": 1]]])
        await fixture.stop()
    }

    /// The budget counts items, sections and columns: "feed" weighs 3 items + 1 section + 2 columns = 6.
    @Test func refusesItemsOverTheDaemonLimitAndReleasesThemOnDrop() async throws {
        let fixture = try await InProcessDaemon.start { $0.maxTotalItems = 8 }
        let client = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        let before = try await client.snapshot("feed")
        let create = try await client.error(
            "layout.create", ["layout": "b", "width": 10, "sections": [["items": [["h": 1], ["h": 1], ["h": 1]]]]])
        #expect(create.kind == "limit", "\(create)")
        let insert = try await client.error(
            "items.insert", ["layout": "feed", "section": 0, "at": 0, "items": [["h": 1], ["h": 1], ["h": 1]]])
        #expect(insert.kind == "limit", "\(insert)")
        let batch = try await client.error(
            "batch",
            [
                "layout": "feed",
                "ops": [
                    [
                        "method": "sections.insert",
                        "params": ["at": 0, "sections": [["items": [["h": 1], ["h": 1], ["h": 1]]]]],
                    ]
                ],
            ])
        #expect(batch.kind == "limit", "\(batch)")
        #expect(try await client.snapshot("feed") == before)
        // A failed request must not leak its reservation: deleting and dropping give the budget back.
        _ = try await client.error(
            "items.insert", ["layout": "feed", "section": 7, "at": 0, "items": [["h": 1], ["h": 1]]])
        try await client.result(
            "items.insert", ["layout": "feed", "section": 0, "at": 0, "items": [["h": 1], ["h": 1]]])
        try await client.result("items.delete", ["layout": "feed", "section": 0, "items": [0, 1, 2]])
        try await client.result(
            "items.insert", ["layout": "feed", "section": 0, "at": 0, "items": [["h": 1], ["h": 1], ["h": 1]]])
        try await client.result("layout.create", ["layout": "feed", "width": 10, "replace": true])
        try await client.result(
            "layout.create", ["layout": "b", "width": 10, "sections": [["items": [["h": 1], ["h": 1], ["h": 1]]]]])
        try await client.result("layout.drop", ["layout": "b"])
        try await client.result(
            "layout.create",
            ["layout": "c", "width": 10, "sections": [["items": .array(Array(repeating: ["h": 1], count: 5))]]])
        #expect(fixture.service.budget.current == 8)
        await fixture.stop()
    }

    @Test func refusesABatchOverTheLimit() async throws {
        let fixture = try await InProcessDaemon.start { $0.maxBatchOps = 2 }
        let client = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        let before = try await client.snapshot("feed")
        let op: JSONValue = ["method": "sections.move", "params": ["from": 0, "to": 0]]
        let error = try await client.error("batch", ["layout": "feed", "ops": [op, op, op]])
        #expect(error.kind == "limit")
        #expect(error.message.contains("params.ops"), "\(error)")
        #expect(try await client.snapshot("feed") == before)
        try await client.result("batch", ["layout": "feed", "ops": [op, op]])
        await fixture.stop()
    }

    @Test func refusesSectionsAndColumnsOverTheLimit() async throws {
        let fixture = try await InProcessDaemon.start {
            $0.maxSectionsPerLayout = 2
            $0.maxColumns = 4
        }
        let client = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        let before = try await client.snapshot("feed")
        let sections = try await client.error("sections.insert", ["layout": "feed", "at": 0, "sections": [[:], [:]]])
        #expect(sections.kind == "limit", "\(sections)")
        let columns = try await client.error("sections.configure", ["layout": "feed", "section": 0, "columns": 5])
        #expect(["limit", "bad_params"].contains(columns.kind), "\(columns)")
        #expect(columns.message.contains("params.columns"), "\(columns)")
        #expect(try await client.snapshot("feed") == before)
        await fixture.stop()
    }
}
