import Foundation
import Glibc
import Testing
import WaterfallTestSupport

/// Hostile lines, each able to kill a careless durable daemon or get a wrong answer from it, sent to the built
/// daemon both durable and `--ephemeral`: each is refused with the error kind it names, the field and the value in
/// its message, nothing changes (the layout's seq stays), and the daemon answers the next request.
@Suite(.tags(.process)) struct HostileInputTests {
    /// A hostile line, the error kind and the text its message must hold.
    struct Case: Sendable, CustomStringConvertible {
        let line: String
        let kind: String
        let mentions: [String]
        var description: String { String(line.prefix(90)) }

        init(_ line: String, _ kind: String, _ mentions: String...) {
            self.line = line
            self.kind = kind
            self.mentions = mentions
        }
    }

    static let huge = "9223372036854775807"

    static let cases: [Case] = [
        // Invalid JSON that a number shortcut whose digit test let commas pass would take for an item.
        Case(
            #"{"id":1,"method":"items.insert","params":{"layout":"feed","section":0,"at":1,"items":[{"h":0.1,,,,,,,}]}}"#,
            "parse_error", "unexpected ','", "at byte 95"),
        Case(
            #"{"id":1,"method":"items.insert","params":{"layout":"feed","section":0,"at":\#(huge),"items":[{"h":1}]}}"#,
            "bad_params", "params.at", huge),
        Case(
            #"{"id":1,"method":"sections.insert","params":{"layout":"feed","at":\#(huge),"sections":[{}]}}"#,
            "bad_params", "params.at", huge),
        Case(
            #"{"id":1,"method":"batch","params":{"layout":"feed","ops":[{"method":"items.insert","params":{"section":0,"at":\#(huge),"items":[{"h":1}]}}]}}"#,
            "bad_params", "params.ops[0].params.at", huge),
        Case(
            #"{"id":1,"method":"batch","params":{"layout":"feed","ops":[{"method":"sections.insert","params":{"at":\#(huge),"sections":[{}]}}]}}"#,
            "bad_params", "params.ops[0].params.at", huge),
        Case(
            #"{"id":1,"method":"items.delete","params":{"layout":"feed","section":0,"items":[\#(huge)]}}"#,
            "bad_params", "params.items[0]", huge),
        Case(
            #"{"id":1,"method":"items.update","params":{"layout":"feed","section":-9223372036854775808,"items":[{"i":0,"h":1}]}}"#,
            "bad_params", "params.section", "-9223372036854775808"),
        Case(
            #"{"id":1,"method":"items.move","params":{"layout":"feed","from":[0,\#(huge)],"to":[0,0]}}"#,
            "bad_params", "params.from[1]", huge),
        Case(
            #"{"id":1,"method":"sections.delete","params":{"layout":"feed","sections":[0,\#(huge)]}}"#,
            "bad_params", "params.sections[1]", huge),
        Case(
            #"{"id":1,"method":"items.update","params":{"layout":"feed","section":0,"items":[{"i":0,"h":1}],"anchor":{"section":0,"i":\#(huge)}}}"#,
            "bad_params", "params.anchor.i", huge),
        Case(
            #"{"id":1,"method":"items.insert","params":{"layout":"feed","section":0,"at":0,"items":[{"h":1,"span":\#(huge)}]}}"#,
            "bad_params", "params.items[0].span", huge),
        // Items that are only heights, decoded as bare heights, and a list that turns general.
        Case(
            #"{"id":1,"method":"items.insert","params":{"layout":"feed","section":0,"at":0,"items":[{"h":1},{"h":2},{"h":-1}]}}"#,
            "bad_params", "params.items[2].h", "-1"),
        Case(
            #"{"id":1,"method":"items.insert","params":{"layout":"feed","section":0,"at":0,"items":[{"h":1},{"h":1e10}]}}"#,
            "bad_params", "params.items[1].h", "10000000000"),
        Case(
            #"{"id":1,"method":"items.insert","params":{"layout":"feed","section":0,"at":0,"items":[{"h":1},{"h":2},{"h":3,"w":0}]}}"#,
            "bad_params", "params.items[2].w", "0"),
        // Items kept as heights by the connection's reader (`JSONReader.forRequests`) under a
        // method that does not read them so: the line is read again, and the general decoder names what is wrong.
        Case(
            #"{"id":1,"method":"items.update","params":{"layout":"feed","section":0,"items":[{"h":1},{"h":2}]}}"#,
            "bad_params", "params.items[0].i", "missing"),
        Case(
            #"{"id":1,"method":"items.delete","params":{"layout":"feed","section":0,"items":[{"h":5}]}}"#,
            "bad_params", "params.items[0]: must be an integer", #"not object {\"h\":5}"#),
        Case(
            #"{"id":1,"method":"layout.get","params":{"layout":"feed","sections":[0,0]}}"#,
            "bad_params", "params.sections", "0"),
        Case(
            #"{"id":1,"method":"sections.configure","params":{"layout":"feed","section":0,"headerHeight":10,"headerInsets":{"left":60,"right":60}}}"#,
            "invalid_geometry", "section 0 would have a header of negative width (-20)"),
        Case(
            #"{"id":1,"method":"sections.insert","params":{"layout":"feed","at":1,"sections":[{"footerHeight":10,"footerInsets":{"left":101}}]}}"#,
            "invalid_geometry", "section 1 would have a footer of negative width (-1)"),
    ]

    @Test(arguments: ["durable", "ephemeral"])
    func hostileLinesAreRefusedAndChangeNothing(mode: String) async throws {
        guard DaemonProcess.builtDaemon != nil else { return }
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let socket = directory + "/w.sock"
        var arguments = ["--socket", socket]
        arguments += mode == "durable" ? ["--state-dir", directory + "/state"] : ["--ephemeral"]
        let process = try DaemonProcess(.init(arguments: arguments))
        var connected: TestClient?
        _ = await eventually(within: 20) {
            connected = try? TestClient(path: socket, timeout: 10)
            return connected != nil
        }
        guard let client = connected else { throw TestFailure("no socket: \(process.standardError)") }
        let create =
            #"{"id":0,"method":"layout.create","params":{"layout":"feed","width":100,"sections":[{"items":[{"h":10}]}]}}"#
        _ = try await DaemonCrashTests.exchange(client, [create], process)
        for hostile in Self.cases {
            let replies = try await DaemonCrashTests.exchange(
                client, [hostile.line, #"{"id":2,"method":"layout.list"}"#], process)
            guard replies.count == 2 else {
                Issue.record("\(hostile): no reply; the daemon said: \(process.standardError.suffix(600))")
                return
            }
            let reply = replies[0]
            #expect(reply.contains(#""kind":"\#(hostile.kind)""#), "\(hostile): \(reply)")
            for text in hostile.mentions { #expect(reply.contains(text), "\(hostile): \(reply) lacks \(text)") }
            #expect(replies[1].contains(#""seq":1"#), "\(hostile) changed the layout: \(replies[1])")
        }
        // As notifications (no reply), then a request that must still be answered. A line that is not JSON has no
        // id to tell a notification by, and is answered with a null id (JSON-RPC): it is not among them.
        let notifications = Self.cases.filter { $0.kind != "parse_error" }.map {
            $0.line.replacingOccurrences(of: #""id":1,"#, with: #""jsonrpc":"2.0","#)
        }
        let last = try await DaemonCrashTests.exchange(
            client, [(notifications + [#"{"id":3,"method":"layout.list"}"#]).joined(separator: "\n")], process)
        #expect(last.count == 1 && last[0].contains(#""id":3"#) && last[0].contains(#""seq":1"#), "\(last)")
    }
}
