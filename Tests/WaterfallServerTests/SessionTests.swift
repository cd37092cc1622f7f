import Testing
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport

@testable import WaterfallServer

/// Request handling under load and abuse: notifications, pipelining, concurrent clients, vanishing clients.
@Suite(.tags(.server), .serialized) struct SessionTests {
    @Test func aHandTypedRequestIsAnsweredWithANullID() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        #expect(try await client.send(#"{"method":"ping"}"#) == #"{"jsonrpc":"2.0","id":null,"result":{"pong":true}}"#)
        #expect(
            try await client.send(#"{"method":"ping"}"# + "\r")
                == #"{"jsonrpc":"2.0","id":null,"result":{"pong":true}}"#)
        #expect(
            try await client.send(#"{"id":"a","method":"ping"}"#)
                == #"{"jsonrpc":"2.0","id":"a","result":{"pong":true}}"#)
        await fixture.stop()
    }

    @Test func notificationsRunAndGetNoReply() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        let lines = [
            #"{"jsonrpc":"2.0","method":"items.insert","params":{"layout":"feed","section":0,"at":0,"items":[{"h":5}]}}"#,
            #"{"jsonrpc":"2.0","method":"ping"}"#,
            // Failing notifications are silent too (JSON-RPC: the client cannot be told).
            #"{"jsonrpc":"2.0","method":"no.such.method"}"#,
            #"{"jsonrpc":"2.0","method":"items.delete","params":{"layout":"feed","section":0,"items":[99]}}"#,
            #"{"jsonrpc":"2.0","method":"layout.create","params":{"layout":"n","width":1}}"#,
            #"{"id":1,"method":"layout.list"}"#,
        ]
        try await client.raw.write(lines.joined(separator: "\n") + "\n")
        #expect(
            try await client.readLine()
                == #"{"jsonrpc":"2.0","id":1,"result":{"layouts":[{"layout":"feed","sections":1,"items":4,"seq":2,"widths":[310]},"#
                + #"{"layout":"n","sections":0,"items":0,"seq":1,"widths":[1]}]}}"#)
        // Nothing else was written: the next line is the next reply.
        #expect(
            try await client.send(#"{"id":2,"method":"ping"}"#) == #"{"jsonrpc":"2.0","id":2,"result":{"pong":true}}"#)
        await fixture.stop()
    }

    /// Consecutive changes to one layout are made in one visit to it, yet each is answered as if alone: its own
    /// seq, its own error, and a change to another layout or a failing one in between changes nothing for the rest.
    @Test func pipelinedChangesAreAnsweredOneByOne() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        func update(_ id: Int, layout: String = "feed", index: Int, height: Int) -> String {
            #"{"id":\#(id),"method":"items.update","params":{"layout":"\#(layout)","section":0,"#
                + #""items":[{"i":\#(index),"h":\#(height)}],"diff":false}}"#
        }
        let lines = [
            update(1, index: 0, height: 10), update(2, index: 7, height: 10), update(3, index: 1, height: 20),
            #"{"jsonrpc":"2.0","method":"items.update","params":{"layout":"feed","section":0,"items":[{"i":2,"h":5}]}}"#,
            update(4, layout: "nope", index: 0, height: 1), update(5, index: 2, height: 30),
            #"{"id":6,"method":"ping"}"#, update(7, index: 0, height: 40),
        ]
        try await client.raw.write(lines.joined(separator: "\n") + "\n")
        var replies: [String] = []
        for _ in 0..<7 { replies.append(try await client.readLine()) }
        #expect(replies[0].hasPrefix(#"{"jsonrpc":"2.0","id":1,"result":{"seq":2,"#))
        #expect(
            replies[1].contains(#""id":2,"error""#) && replies[1].contains("params.items[0]: 7 is not an item index"))
        #expect(replies[2].hasPrefix(#"{"jsonrpc":"2.0","id":3,"result":{"seq":3,"#))
        // The notification made seq 4 and got no reply.
        #expect(replies[3].contains(#""id":4,"error""#) && replies[3].contains("'nope' does not exist"))
        #expect(replies[4].hasPrefix(#"{"jsonrpc":"2.0","id":5,"result":{"seq":5,"#))
        #expect(replies[5] == #"{"jsonrpc":"2.0","id":6,"result":{"pong":true}}"#)
        #expect(replies[6].hasPrefix(#"{"jsonrpc":"2.0","id":7,"result":{"seq":6,"#))
        await fixture.stop()
    }

    @Test func answersTenThousandPipelinedRequestsInOrder() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", ["layout": "p", "width": 310, "sections": [[:]]])
        var heights: [Int] = []
        var lines: [String] = []
        lines.reserveCapacity(10_000)
        for id in 1...10_000 {
            if id % 3 != 0 || heights.isEmpty {
                let h = id % 97
                lines.append(
                    #"{"id":\#(id),"method":"items.insert","params":{"layout":"p","section":0,"at":\#(heights.count),"#
                        + #""items":[{"h":\#(h)}]}}"#)
                heights.append(h)
            } else {
                // Near the end, so that each relayout stays short and the test fast.
                let i = max(0, heights.count - 1 - id % 7)
                heights[i] = id % 89
                lines.append(
                    #"{"id":\#(id),"method":"items.update","params":{"layout":"p","section":0,"#
                        + #""items":[{"i":\#(i),"h":\#(id % 89)}],"diff":false}}"#)
            }
        }
        async let replies = client.raw.readLines(10_000)
        try await client.raw.write(lines.joined(separator: "\n") + "\n")
        let answered = try await replies
        #expect(answered.count == 10_000)
        for (k, line) in answered.enumerated() {
            let prefix = #"{"jsonrpc":"2.0","id":\#(k + 1),"result":{"seq":\#(k + 2),"#
            guard line.hasPrefix(prefix) else {
                Issue.record("reply \(k + 1): \(line)")
                break
            }
        }
        // The final state equals a layout created from the expected items.
        let expected = try await client.result(
            "layout.create",
            ["layout": "q", "width": 310, "sections": [["items": .array(heights.map { ["h": .int(Int64($0))] })]]])
        _ = expected
        let actual = try await client.result("layout.get", ["layout": "p"])
        let fresh = try await client.result("layout.get", ["layout": "q"])
        #expect(actual["seq"] == 10_001)
        #expect(actual["sections"] == fresh["sections"])
        #expect(actual["contentSize"] == fresh["contentSize"])
        await fixture.stop()
    }

    @Test func servesSixtyFourConcurrentClients() async throws {
        let fixture = try await InProcessDaemon.start()
        let setup = try fixture.connect()
        // One section per client in the shared layout, so each client knows its indices there.
        let sections = JSONValue.array(Array(repeating: [:], count: 64))
        try await setup.result("layout.create", ["layout": "shared", "width": 500, "sections": sections])
        let rounds = 20
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let client = try fixture.connect()
                    try await client.result(
                        "layout.create", ["layout": .string("own\(index)"), "width": 300, "sections": [[:]]])
                    var lines: [String] = []
                    for k in 0..<rounds {
                        lines.append(
                            #"{"id":\#(2 * k),"method":"items.insert","params":{"layout":"own\#(index)","section":0,"#
                                + #""at":\#(k),"items":[{"h":\#(k + 1)}],"diff":false}}"#)
                        lines.append(
                            #"{"id":\#(2 * k + 1),"method":"items.insert","params":{"layout":"shared","#
                                + #""section":\#(index),"at":0,"items":[{"h":\#(k + 1),"id":"c\#(index)"}],"#
                                + #""diff":false}}"#)
                    }
                    // Write everything, then read: the replies are small enough for the socket buffers, and a
                    // client blocks one thread of the test instead of two (64 clients share dispatch's pool with
                    // the server's connections).
                    try await client.raw.write(lines.joined(separator: "\n") + "\n")
                    let replies = try await client.raw.readLines(2 * rounds)
                    var lastShared = 0
                    for (k, line) in replies.enumerated() {
                        let reply = try JSONValue(parsing: line)
                        #expect(reply["id"] == .int(Int64(k)))
                        let seq = try #require(reply["result"]?.int("seq"), "\(line)")
                        if k % 2 == 0 {
                            #expect(seq == k / 2 + 2)
                        } else {
                            #expect(seq > lastShared, "the shared layout's seq grows")
                            lastShared = seq
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let list = try await setup.result("layout.list")
        let rows = list.array("layouts")
        #expect(rows.count == 65)
        let shared = try await setup.result("layout.get", ["layout": "shared"])
        for (index, section) in shared.array("sections").enumerated() {
            let items = section.array("items")
            #expect(items.map { $0["id"] } == Array(repeating: .string("c\(index)"), count: rounds))
            #expect(items.map { $0["h"] } == (1...rounds).reversed().map { .int(Int64($0)) })
        }
        for row in rows {
            if row["layout"] == "shared" {
                #expect(row["items"] == .int(Int64(64 * rounds)))
                #expect(row["seq"] == .int(Int64(64 * rounds + 1)))
            } else {
                #expect(row["items"] == .int(Int64(rounds)))
                #expect(row["seq"] == .int(Int64(rounds + 1)))
            }
        }
        await fixture.stop()
    }

    // A partial line and its end-of-file arriving in one read event still close the connection: a reader that
    // stopped at the short read would leave it open for good.
    @Test
    func survivesClientsVanishingMidLineAndMidReply() async throws {
        let fixture = try await InProcessDaemon.start()
        let setup = try fixture.connect()
        // A layout whose `layout.get` is about 400 KB, more than the socket buffers hold.
        let items = Array(repeating: #"{"h":12.5,"id":"item"}"#, count: 6_000).joined(separator: ",")
        _ = try await setup.send(
            #"{"id":1,"method":"layout.create","params":{"layout":"big","width":999,"sections":[{"items":[\#(items)]}]}}"#
        )
        let before = try await setup.snapshot("big")
        let baseline = openFileDescriptorCount()
        for _ in 0..<5 {
            let midLine = try TestClient(path: fixture.path)
            try await midLine.write(#"{"id":1,"method":"items.insert","params":{"layout":"big","section":0,"at":0,"it"#)
            midLine.closeNow()
            let midReply = try TestClient(path: fixture.path)
            try await midReply.write(#"{"id":1,"method":"layout.get","params":{"layout":"big"}}"# + "\n")
            _ = try await midReply.readLines(0)
            midReply.closeNow()
        }
        // Generous: in a debug build each abandoned reply is still slow to encode.
        #expect(await eventually(within: 10) { fixture.server.stats.connectionsOpen == 1 })
        #expect(await eventually(within: 10) { openFileDescriptorCount() <= baseline })
        #expect(try await setup.snapshot("big") == before, "the half-sent insert did nothing")
        #expect(try await setup.result("ping") == ["pong": true])
        await fixture.stop()
    }

    /// The daemon serves at least 512 clients at once: connect them all first, then have every one ask and wait.
    @Test func servesFiveHundredTwelveClientsAtOnce() async throws {
        let fixture = try await InProcessDaemon.start()
        var clients: [TestClient] = []
        for _ in 0..<512 { clients.append(try TestClient(path: fixture.path)) }
        #expect(await eventually(within: 10) { fixture.server.stats.connectionsOpen == 512 })
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (k, client) in clients.enumerated() {
                group.addTask {
                    try await client.write("{\"id\":\(k),\"method\":\"ping\"}\n")
                    let reply = try await client.readLines(1)
                    #expect(reply == ["{\"jsonrpc\":\"2.0\",\"id\":\(k),\"result\":{\"pong\":true}}"])
                }
            }
            try await group.waitForAll()
        }
        for client in clients { client.closeNow() }
        await fixture.stop()
    }
}
