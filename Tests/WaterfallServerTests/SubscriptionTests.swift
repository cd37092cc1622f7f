import Testing
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport

@testable import WaterfallServer

/// `subscribe`: `layout.changed` and `layout.dropped` events, their order, and `subscription.overflow`.
@Suite(.tags(.server)) struct SubscriptionTests {
    @Test func aSubscriberSeesEveryChangeByAnyConnectionInOrder() async throws {
        let fixture = try await InProcessDaemon.start()
        let writer = try fixture.connect()
        let other = try fixture.connect()
        let watcher = try fixture.connect()
        try await writer.result("layout.create", MethodTests.feed)
        try await watcher.result("subscribe", ["layout": "feed"])
        let insert: JSONValue = ["layout": "feed", "section": 0, "at": 3, "items": [["h": 10]]]
        let first = try await writer.result("items.insert", insert)
        let second = try await other.result("sections.move", ["layout": "feed", "from": 0, "to": 0, "diff": false])
        let ops: JSONValue = [["method": "items.delete", "params": ["section": 0, "items": [0]]]]
        let third = try await other.result("batch", ["layout": "feed", "ops": ops])
        // A failed change sends nothing.
        _ = try await writer.error("items.delete", ["layout": "feed", "section": 0, "items": [99]])
        let events = try await (0..<3).asyncMap { _ in try JSONValue(parsing: try await watcher.readLine()) }
        #expect(events.map { $0.keys } == Array(repeating: ["jsonrpc", "method", "params"], count: 3))
        #expect(events.map { $0["method"] } == Array(repeating: "layout.changed", count: 3))
        #expect(events.map { $0["params"]?["seq"] } == [2, 3, 4])
        #expect(events.map { $0["params"]?["layout"] } == ["feed", "feed", "feed"])
        // ops: the requests as applied; a single request's params are repeated as sent.
        #expect(events[0]["params"]?["ops"] == [["method": "items.insert", "params": insert]])
        #expect(
            events[1]["params"]?["ops"]
                == [["method": "sections.move", "params": ["layout": "feed", "from": 0, "to": 0, "diff": false]]])
        #expect(events[2]["params"]?["ops"] == ops)
        // The diff is the one in the reply, and it is there even when the writer did not ask for one.
        #expect(events[0]["params"]?["diff"] == first["diff"])
        #expect(second["diff"] == nil)
        #expect(events[1]["params"]?["diff"] == ["sections": []])
        #expect(events[2]["params"]?["diff"] == third["diff"])
        // Nothing more is queued: the next line is the reply.
        #expect(try await watcher.result("ping") == ["pong": true])
        await fixture.stop()
    }

    @Test func aSubscriberSeesItsOwnChangeAndItsReplyAsSeparateLines() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        try await client.result("layout.create", MethodTests.feed)
        try await client.result("subscribe", ["layout": "feed"])
        try await client.raw.write(
            #"{"id":"m","method":"items.delete","params":{"layout":"feed","section":0,"items":[0]}}"# + "\n")
        let lines = try await client.raw.readLines(2).map { try JSONValue(parsing: $0) }
        #expect(Set(lines.compactMap { $0["method"]?.text ?? $0["id"]?.text }) == ["layout.changed", "m"])
        await fixture.stop()
    }

    @Test func aSubscriberLearnsOfADropAndOfAReplace() async throws {
        let fixture = try await InProcessDaemon.start()
        let writer = try fixture.connect()
        let watcher = try fixture.connect()
        try await writer.result("layout.create", MethodTests.feed)
        try await watcher.result("subscribe", ["layout": "feed"])
        try await writer.result("layout.drop", ["layout": "feed"])
        #expect(
            try await watcher.readLine() == #"{"jsonrpc":"2.0","method":"layout.dropped","params":{"layout":"feed"}}"#)
        // The subscription ended with the layout: a new layout of the same name sends nothing.
        try await writer.result("layout.create", MethodTests.feed)
        try await writer.result("items.delete", ["layout": "feed", "section": 0, "items": [0]])
        #expect(try await watcher.result("ping") == ["pong": true])
        // Replacing a layout drops the old one.
        try await watcher.result("subscribe", ["layout": "feed"])
        try await writer.result("layout.create", ["layout": "feed", "width": 10, "replace": true])
        #expect(
            try await watcher.readLine() == #"{"jsonrpc":"2.0","method":"layout.dropped","params":{"layout":"feed"}}"#)
        #expect(try await fixture.stats()["subscriptions"] == 0)
        await fixture.stop()
    }

    @Test func subscriptionsEndWithTheirConnection() async throws {
        let fixture = try await InProcessDaemon.start()
        let writer = try fixture.connect()
        try await writer.result("layout.create", MethodTests.feed)
        do {
            let watcher = try fixture.connect()
            try await watcher.result("subscribe", ["layout": "feed"])
            watcher.raw.closeNow()
        }
        #expect(await eventually { fixture.server.stats.connectionsOpen == 1 })
        #expect(try await writer.result("stats")["subscriptions"] == 0)
        try await writer.result("items.delete", ["layout": "feed", "section": 0, "items": [0]])
        await fixture.stop()
    }

    /// Events interleave with a subscriber's own pipelined replies as whole lines, never inside one.
    @Test func eventsNeverLandInsideAReply() async throws {
        let fixture = try await InProcessDaemon.start()
        let writer = try fixture.connect()
        let watcher = try fixture.connect()
        let items = Array(repeating: #"{"h":3.25}"#, count: 500).joined(separator: ",")
        _ = try await writer.send(
            #"{"id":0,"method":"layout.create","params":{"layout":"feed","width":700,"sections":[{"items":[\#(items)]}]}}"#
        )
        try await watcher.result("subscribe", ["layout": "feed"])
        let gets = 40
        let changes = 200
        let requests = (0..<gets).map { #"{"id":\#($0),"method":"layout.get","params":{"layout":"feed"}}"# }
        async let lines = watcher.raw.readLines(gets + changes)
        async let written: Void = watcher.raw.write(requests.joined(separator: "\n") + "\n")
        for k in 0..<changes {
            try await writer.raw.write(
                #"{"id":\#(k),"method":"items.update","params":{"layout":"feed","section":0,"#
                    + #""items":[{"i":\#(499 - k % 3),"h":\#(k)}],"diff":false}}"#
                    + "\n")
        }
        try await written
        _ = try await writer.raw.readLines(changes)
        var seqs: [Int] = []
        var ids: [Int] = []
        for line in try await lines {
            let value = try JSONValue(parsing: line)
            if value["method"] == "layout.changed" {
                seqs.append(try #require(value["params"]?.int("seq")))
            } else {
                ids.append(try #require(value.int("id"), "\(line.prefix(100))"))
            }
        }
        #expect(ids == Array(0..<gets))
        #expect(seqs == Array(2..<(changes + 2)))
        await fixture.stop()
    }

    @Test func aSlowSubscriberOverflowsAndIsUnsubscribedWhileOthersAreServed() async throws {
        let fixture = try await InProcessDaemon.start {
            $0.subscriberMaxPendingBytes = 64 * 1024
        }
        let writer = try fixture.connect()
        let slow = try fixture.connect()
        let fast = try fixture.connect()
        let items = Array(repeating: #"{"h":7}"#, count: 1000).joined(separator: ",")
        _ = try await writer.send(
            #"{"id":0,"method":"layout.create","params":{"layout":"feed","width":500,"sections":[{"items":[\#(items)]}]}}"#
        )
        try await slow.result("subscribe", ["layout": "feed"])
        try await fast.result("subscribe", ["layout": "feed"])
        // Each change moves every item: an event of about 40 KB that `slow` never reads.
        var changes = 0
        while try await fixture.stats()["subscriptions"] == 2, changes < 400 {
            changes += 1
            let width = changes % 2 == 0 ? 500 : 480
            let reply = try await writer.result(
                "layout.configure", ["layout": "feed", "width": .int(Int64(width)), "diff": false])
            #expect(reply["seq"] == .int(Int64(changes + 1)))
            let event = try JSONValue(parsing: try await fast.readLine())
            #expect(event["params"]?["seq"] == .int(Int64(changes + 1)), "the reading subscriber keeps up")
        }
        #expect(try await fixture.stats()["subscriptions"] == 1, "after \(changes) changes")
        // After the overflow, later changes are not sent to the slow subscriber.
        try await writer.result("layout.configure", ["layout": "feed", "width": 400])
        // `slow` reads now: its events in order, then the overflow notice, then its own reply.
        var seq = 1
        while true {
            let line = try await slow.readLine()
            let value = try JSONValue(parsing: line)
            if value["method"] == "subscription.overflow" {
                #expect(line == #"{"jsonrpc":"2.0","method":"subscription.overflow","params":{"layout":"feed"}}"#)
                break
            }
            #expect(value["method"] == "layout.changed")
            seq += 1
            #expect(value["params"]?["seq"] == .int(Int64(seq)))
        }
        #expect(seq < changes + 1, "some events were not sent")
        #expect(try await slow.result("ping") == ["pong": true])
        // It can subscribe again.
        try await slow.result("subscribe", ["layout": "feed"])
        try await writer.result("items.delete", ["layout": "feed", "section": 0, "items": [0]])
        #expect(try JSONValue(parsing: try await slow.readLine())["params"]?["seq"] == .int(Int64(changes + 3)))
        await fixture.stop()
    }
}

extension Sequence where Element: Sendable {
    /// `map` with an async transform, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
