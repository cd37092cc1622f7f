import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallServerTestSupport
import WaterfallTestSupport
import WaterfallWire

@testable import WaterfallServer

/// Seeded runs of random requests, pipelined to an in-process daemon: every request it accepts, every reply and
/// every event a subscriber gets match the OpenRPC document (`rpc.discover`), naming the method and the field
/// when one does not.
@Suite(.tags(.server)) struct WireSchemaTests {
    @Test(arguments: 0..<3)
    func randomRequestsAndRepliesMatchTheDocument(seed: Int) async throws {
        let fixture = try await InProcessDaemon.start { $0.ephemeral = true }
        let client = try fixture.connect()
        let watcher = try fixture.connect()
        var random = RandomCommands(seed: UInt64(seed), maxItems: 30)
        let spec = random.layout()
        var reference = try await Layout.make(spec).layout
        var check = WireSchemaCheck()
        let opening = [line(1, "layout.create", WireCommand.create("a", spec)), line(2, "rpc.discover", nil)]
        _ = try await exchange(opening, client, &check)
        _ = try await watcher.result("subscribe", ["layout": "a"])
        var lines: [String] = []
        for id in 3..<150 {
            lines.append(await randomRequest(id: id, &random, &reference))
        }
        let changes = try await exchange(lines, client, &check)
        // The watcher gets one layout.changed per change.
        let events = try await watcher.raw.readLines(changes)
        for event in events {
            if let failure = check.received(event) { Issue.record("\(failure)\n  event: \(event)") }
        }
        #expect(events.allSatisfy { $0.contains(#""method":"layout.changed""#) })
        await fixture.stop()
    }

    // MARK: Private

    /// Sends `lines` pipelined, reads their replies and checks both; returns how many were changes that succeeded.
    private func exchange(_ lines: [String], _ client: RPCClient, _ check: inout WireSchemaCheck) async throws -> Int {
        for text in lines { check.sent(text) }
        try await client.raw.write(lines.joined(separator: "\n") + "\n")
        var changes = 0
        for (text, reply) in zip(lines, try await client.raw.readLines(lines.count)) {
            if let failure = check.received(reply) { Issue.record("\(failure)\n  request: \(text)\n  reply: \(reply)") }
            let method = (try? JSONValue(parsing: text))?["method"]
            let isChange = method == "batch" || ChangeMethod.allCases.contains { method == .string($0.rawValue) }
            if isChange, reply.contains(#""result""#) { changes += 1 }
        }
        return changes
    }

    private func line(_ id: Int, _ method: String, _ params: JSONValue?) -> String {
        var members: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("id", .int(Int64(id)))]
        members.append(("method", .string(method)))
        if let params { members.append(("params", params)) }
        return JSONValue.object(members).jsonText
    }

    /// A change (alone, with `diff: false` or an anchor, or a batch of a few), or now and then a read.
    private func randomRequest(id: Int, _ random: inout RandomCommands, _ reference: inout Layout) async -> String {
        let counts = (0..<reference.sectionCount).map { reference.itemCount(inSection: $0) }
        switch random.int(0...19) {
        case 0: return line(id, "layout.get", random.chance(0.5) ? ["layout": "a"] : ["layout": "a", "sections": [0]])
        case 1:
            let rect: JSONValue = ["x": 0, "y": .int(Int64(random.int(0...2000))), "w": 400, "h": 900]
            return line(id, "query", ["layout": "a", "rect": rect])
        case 2:
            let method = ["layout.list", "layout.export", "version", "stats", "ping"][random.int(0...4)]
            return line(id, method, method == "layout.export" ? ["layout": "a"] : nil)
        case 3, 4:
            let commands = (0..<random.int(2...3)).map { _ in random.command(counts: counts) }
            _ = try? await reference.validateAndApply(commands)
            let ops = commands.map { command -> JSONValue in
                let wire = WireCommand(command)
                return ["method": .string(wire.method), "params": wire.params]
            }
            return line(id, "batch", ["layout": "a", "ops": .array(ops)])
        default:
            let command = random.command(counts: counts)
            _ = try? await reference.validateAndApply([command])
            guard case .object(var members) = WireCommand(command).params(layout: "a") else { return "" }
            if random.chance(0.2) { members.append(("diff", false)) }
            if random.chance(0.2), let s = counts.indices.first(where: { counts[$0] > 0 }) {
                members.append(
                    ("anchor", ["section": .int(Int64(s)), "i": .int(Int64(random.int(0...counts[s] - 1)))]))
            }
            return line(id, WireCommand(command).method, .object(members))
        }
    }
}
