import Foundation
import Testing
import WaterfallServerTestSupport
import WaterfallTestSupport

/// The examples of the JSON-RPC 2.0 specification (its section 7), adapted to this daemon's methods, replayed
/// through the socket against an in-process server and against the built daemon keeping its layouts on disk.
@Suite(.tags(.server, .process)) struct JSONRPCSpecTests {
    /// Where the examples run.
    enum Daemon: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case inProcess = "in-process"
        case durable = "durable waterfalld"

        var testDescription: String { rawValue }
    }

    /// Lines sent on one connection and the lines expected back (`…` stands for one JSON value, as in the docs).
    struct Example: CustomTestStringConvertible, Sendable {
        let name: String
        let sent: [String]
        let expected: [String]

        var testDescription: String { name }
    }

    /// A one-item layout named `name`, and its reply.
    static func create(_ name: String, id: Int) -> (String, String) {
        (
            #"{"jsonrpc":"2.0","id":\#(id),"method":"layout.create","params":{"layout":"\#(name)","width":300,"#
                + #""sections":[{"items":[{"h":10}]}],"diff":false}}"#,
            #"{"jsonrpc":"2.0","id":\#(id),"result":{"seq":1,"contentSize":{"w":300,"h":10}}}"#
        )
    }

    /// An `items.update` of `name`'s item to height `h`, as a request (with `id`) or a notification.
    static func update(_ name: String, h: Int, id: String? = nil) -> String {
        #"{"jsonrpc":"2.0","# + (id.map { #""id":\#($0),"# } ?? "")
            + #""method":"items.update","params":{"layout":"\#(name)","section":0,"items":[{"i":0,"h":\#(h)}],"#
            + #""diff":false}}"#
    }

    static func error(_ id: String, _ code: Int, _ kind: String, _ message: String = "…") -> String {
        let text = message == "…" ? message : "\"\(message)\""
        return #"{"jsonrpc":"2.0","id":\#(id),"error":{"code":\#(code),"message":\#(text),"data":{"kind":"\#(kind)"}}}"#
    }

    static let notAnObject = error("null", -32600, "invalid_request", "request: not an object")

    static let examples: [Example] = [
        Example(
            name: "rpc call with named params", sent: [create("named", id: 1).0], expected: [create("named", id: 1).1]),
        Example(
            name: "rpc call with positional params (params by name only)",
            sent: [#"{"jsonrpc":"2.0","method":"ping","params":[42,23],"id":2}"#],
            expected: [error("2", -32602, "bad_params", "params: must be an object, not array")]),
        Example(
            name: "notifications",
            sent: [
                create("told", id: 1).0, update("told", h: 20), #"{"jsonrpc":"2.0","method":"foobar"}"#,
                #"{"jsonrpc":"2.0","method":"ping","params":[1,2,3,4,5]}"#,
                #"{"jsonrpc":"2.0","method":"items.update","params":{"layout":"told","section":9}}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"layout.get","params":{"layout":"told"}}"#,
            ],
            expected: [
                create("told", id: 1).1,
                #"{"jsonrpc":"2.0","id":2,"result":{"seq":2,"contentSize":{"w":300,"h":20},"sections":[…]}}"#,
            ]),
        Example(
            name: "rpc call of non-existent method",
            sent: [
                #"{"jsonrpc":"2.0","method":"foobar","id":"1"}"#,
                #"{"jsonrpc":"2.0","method":"foobar","params":[1,2],"id":"2"}"#,
            ],
            expected: [
                error(#""1""#, -32601, "unknown_method", #"method: no method named \"foobar\""#),
                error(#""2""#, -32601, "unknown_method", #"method: no method named \"foobar\""#),
            ]),
        Example(
            name: "rpc call with invalid JSON",
            sent: [#"{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]"#],
            expected: [error("null", -32700, "parse_error")]),
        Example(
            name: "rpc call with invalid Request object",
            sent: [#"{"jsonrpc":"2.0","method":1,"params":"bar"}"#],
            expected: [error("null", -32600, "invalid_request", "method: must be a string, not number")]),
        Example(
            name: "rpc call batch, invalid JSON",
            sent: [
                #"[{"jsonrpc":"2.0","method":"sum","params":[1,2,4],"id":"1"},{"jsonrpc":"2.0","method""#
                    + "]"
            ],
            expected: [error("null", -32700, "parse_error")]),
        Example(
            name: "rpc call with an empty array", sent: ["[]"],
            expected: [error("null", -32600, "invalid_request", "request: an empty batch array")]),
        Example(name: "rpc call with an invalid batch, but not empty", sent: ["[1]"], expected: ["[\(notAnObject)]"]),
        Example(
            name: "rpc call with invalid batch", sent: ["[1,2,3]"],
            expected: ["[\(notAnObject),\(notAnObject),\(notAnObject)]"]),
        Example(
            name: "rpc call batch",
            sent: [
                "[" + create("mixed", id: 1).0 + "," + update("mixed", h: 20) + "," + #"{"foo":"boo"}"# + ","
                    + #"{"jsonrpc":"2.0","method":"foo.get","params":{"name":"myself"},"id":"5"}"# + ","
                    + update("mixed", h: 30, id: #""9""#) + "," + #"{"jsonrpc":"2.0","method":"ping","id":"10"}"# + "]"
            ],
            expected: [
                "[" + create("mixed", id: 1).1 + ","
                    + error("null", -32600, "invalid_request", "method: missing; foo: unknown field") + ","
                    + error(#""5""#, -32601, "unknown_method", #"method: no method named \"foo.get\""#) + ","
                    + #"{"jsonrpc":"2.0","id":"9","result":{"seq":3,"contentSize":{"w":300,"h":30}}}"# + ","
                    + #"{"jsonrpc":"2.0","id":"10","result":{"pong":true}}"# + "]"
            ]),
        Example(
            name: "rpc call batch (all notifications)",
            sent: [
                create("quiet", id: 1).0,
                "[" + update("quiet", h: 20) + "," + #"{"jsonrpc":"2.0","method":"ping"}"# + "]",
                #"{"jsonrpc":"2.0","id":2,"method":"items.update","params":{"layout":"quiet","section":0,"items":[]}}"#,
            ],
            expected: [
                create("quiet", id: 1).1,
                #"{"jsonrpc":"2.0","id":2,"result":{"seq":3,"contentSize":{"w":300,"h":20},"diff":…}}"#,
            ]),
    ]

    @Test("A specification example gets the specified replies", arguments: Daemon.allCases, examples)
    func replaysTheExample(_ daemon: Daemon, _ example: Example) async throws {
        try await Self.withDaemon(daemon) { path in
            let client = try TestClient(path: path, timeout: 10)
            defer { client.closeNow() }
            for line in example.sent { try await client.write(line + "\n") }
            let replies = try await Self.readUntilSync(client)
            #expect(replies.count == example.expected.count, "\(replies)")
            for (expected, actual) in zip(example.expected, replies) {
                #expect(
                    ReplyPattern(expected).firstDifference(in: actual) == nil, "expected \(expected)\ngot \(actual)")
            }
        }
    }

    /// A `layout.get` too long for one chunk, inside an array, on a connection subscribed to the layout that an
    /// element changes: the reply is one array line, whole and in request order, and the event is a line of its
    /// own.
    @Test("A long reply inside an array streams, and events stay outside its line", arguments: Daemon.allCases)
    func longReplyInAnArray(_ daemon: Daemon) async throws {
        try await Self.withDaemon(daemon) { path in
            let client = try TestClient(path: path, timeout: 20)
            defer { client.closeNow() }
            let items = Array(repeating: #"{"h":10}"#, count: 20_000).joined(separator: ",")
            try await client.write(
                #"{"id":1,"method":"layout.create","params":{"layout":"big","width":300,"diff":false,"#
                    + #""sections":[{"items":[\#(items)]}]}}"# + "\n"
                    + #"{"id":2,"method":"subscribe","params":{"layout":"big"}}"# + "\n"
                    + "[" + Self.update("big", h: 20, id: "3") + #",{"jsonrpc":"2.0","id":4,"method":"layout.get","#
                    + #""params":{"layout":"big"}},{"jsonrpc":"2.0","id":5,"method":"ping"}]"# + "\n")
            let lines = try await client.readLines(4)
            try #require(lines.count == 4, "\(lines.map { $0.prefix(200) })")
            let array = try #require(lines.first { $0.hasPrefix("[") })
            #expect(array.utf8.count > 200_000)
            let replies = try #require(try JSONSerialization.jsonObject(with: Data(array.utf8)) as? [[String: Any]])
            #expect(replies.map { $0["id"] as? Int } == [3, 4, 5])
            let event = try #require(lines.first { $0.contains(#""method":"layout.changed""#) })
            #expect(event.hasPrefix("{"))
        }
    }

    // MARK: Private

    /// Runs `body` with the socket of a fresh daemon of kind `daemon`.
    private static func withDaemon(_ daemon: Daemon, _ body: (String) async throws -> Void) async throws {
        switch daemon {
        case .inProcess:
            let server = try await InProcessDaemon.start { $0.ephemeral = true }
            do {
                try await body(server.path)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        case .durable:
            let state = try makeTemporaryDirectory()
            defer { removeDirectory(state) }
            let spawned = try await DaemonProcess.start(.init(arguments: ["--state-dir", state]))
            do {
                try await body(spawned.socketPath)
            } catch {
                _ = await spawned.stop()
                throw error
            }
            #expect(await spawned.stop() == .exited(0))
        }
    }

    /// Pings and returns the lines that came before the pong.
    private static func readUntilSync(_ client: TestClient) async throws -> [String] {
        try await client.write(#"{"id":"sync","method":"ping"}"# + "\n")
        var lines: [String] = []
        while let line = try await client.readLines(1).first {
            if line == #"{"jsonrpc":"2.0","id":"sync","result":{"pong":true}}"# { return lines }
            lines.append(line)
        }
        throw TestFailure("the connection closed before the pong: \(lines)")
    }
}
