import Foundation
import Testing
import WaterfallClient
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallServerTestSupport
import WaterfallWire

@Suite(.tags(.server)) struct WaterfallClientTests {
    static let spec = LayoutSpec(
        width: 375, scale: 0, direction: .ltr, minContentHeight: 0,
        defaults: {
            var p = SectionProperties()
            p.columns = 2
            p.insets = Insets(top: 0, left: 10, bottom: 0, right: 10)
            return p
        }(),
        sections: [
            SectionSpec(
                properties: {
                    var p = SectionProperties()
                    p.headerHeight = 44
                    return p
                }(), items: [Item(height: 120), Item(height: 80), Item(height: 100, id: "ad-1")])
        ])

    @Test func typedCallsMatchTheReadmeSession() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            try await client.ping()
            let version = try await client.version()
            #expect(version.protocolVersion == 2 && version.server == "waterfalld")
            let created = try await client.createLayout("feed", Self.spec)
            #expect(created.seq == 1 && created.contentSize == Size(width: 375, height: 234))
            #expect(created.diff?.sections.first?.items.count == 3)
            let inserted = try await client.insertItems(
                [Item(height: 60), Item(height: 3, aspectWidth: 4, span: .full)], at: 3, inSection: 0, of: "feed")
            #expect(inserted.seq == 2 && inserted.contentSize.height == 510.25)
            #expect(inserted.diff?.sections[0].items.map(\.index) == [3, 4])
            let visible = try await client.query("feed", rect: Rect(x: 0, y: 100, width: 375, height: 100))
            #expect(visible.elements.map(\.index) == [0, 1, 2, 3])
            #expect(visible.elements[2].id == "ad-1")
            let listed = try await client.listLayouts()
            #expect(listed == [LayoutSummary(layout: "feed", sections: 1, items: 5, seq: 2, widths: [375])])
            let frames = try await client.frames(of: "feed", sections: [0])
            #expect(frames.sections[0].items[4].frame == Rect(x: 10, y: 244, width: 355, height: 266.25))
            #expect(frames.sections[0].header == Rect(x: 0, y: 0, width: 375, height: 44))
            let stats = try await client.stats()
            #expect(stats["layouts"] == 1 && stats["connections.open"] == 1)
            try await client.dropLayout("feed")
            #expect(try await client.listLayouts().isEmpty)
        }
    }

    /// The README's "Items that stay in their column, and reading order": a stable section after item 1 grew, read
    /// in reading order, and item 4's neighbours.
    @Test func readingOrderAndNeighborsMatchTheReadme() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            let spec = LayoutSpec(
                width: 320, defaults: SectionProperties(columns: 3, reflow: .stable),
                sections: [SectionSpec(items: [100, 50, 80, 60, 40].map { Item(height: $0) })])
            _ = try await client.createLayout("photos", spec)
            _ = try await client.updateItems(
                [ItemUpdate(index: 1, item: Item(height: 150))], inSection: 0, of: "photos")
            let rect = Rect(x: 0, y: 0, width: 320, height: 300)
            #expect(try await client.query("photos", rect: rect).elements.map(\.index) == [0, 1, 2, 3, 4])
            let reading = try await client.query("photos", rect: rect, order: .reading)
            #expect(reading.elements.map(\.index) == [0, 1, 2, 4, 3])
            let n = try await client.neighbors(of: ItemPath(section: 0, item: 4), in: "photos")
            #expect(n.above?.index == 2 && n.left?.index == 1 && n.below == nil && n.right == nil)
            #expect(n.left?.frame == Rect(x: 110, y: 0, width: 100, height: 150))
            // Any declared method by its request type: the frames of items by index, in the order listed.
            let listed = try await client.send(
                ItemsGetRequest(
                    layout: "photos", items: [ItemPath(section: 0, item: 1), ItemPath(section: 0, item: 0)]))
            #expect(listed.elements.map(\.frame) == [n.left?.frame, reading.elements.first?.frame])
            await #expect(throws: WaterfallClientError.self) {
                try await client.send(ItemsGetRequest(layout: "photos", items: [ItemPath(section: 0, item: 5)]))
            }
        }
    }

    @Test func daemonErrorsCarryKindCodeAndMessage() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            let error = await #expect(throws: WaterfallClientError.self) {
                _ = try await client.frames(of: "missing")
            }
            #expect(error?.source == .daemon && error?.kind == "not_found" && error?.code == -32001)
            #expect(error?.message == "params.layout: layout 'missing' does not exist")
            let bad = await #expect(throws: WaterfallClientError.self) {
                _ = try await client.call(
                    method: "items.update", params: ["layout": "x", "section": 0, "items": [["i": 0, "h": -1]]])
            }
            #expect(bad?.kind == "bad_params" || bad?.kind == "not_found")
            let unknown = await #expect(throws: WaterfallClientError.self) {
                _ = try await client.call(method: "no.such.method")
            }
            #expect(unknown?.kind == "unknown_method" && unknown?.code == -32601)
            // The connection survives errors.
            try await client.ping()
        }
    }

    @Test func aReplyWithoutAnIdGoesToTheOldestCall() async throws {
        // A line over the limit is answered with "id": null, in order: it is the call's own error.
        let daemon = try await InProcessDaemon.start { $0.maxLineBytes = 100 }
        let client = try await WaterfallClient.connect(to: daemon.path)
        let big = Task {
            try await client.call(method: "ping", params: ["pad": .string(String(repeating: "a", count: 200))])
        }
        let small = Task { try await client.call(method: "ping") }
        let error = await #expect(throws: WaterfallClientError.self) { _ = try await big.value }
        #expect(error?.kind == "too_large")
        #expect(try await small.value == ["pong": true])
        await daemon.stop()
    }

    @Test func connectionErrorsNameTheSocketPath() async throws {
        let path = "/tmp/waterfall-client-no-such-dir/waterfalld.sock"
        let error = await #expect(throws: WaterfallClientError.self) {
            _ = try await WaterfallClient.connect(to: path)
        }
        #expect(error?.source == .connection && error?.kind == "cannot_connect" && error?.socketPath == path)
        #expect(error?.message.contains(path) == true && error?.message.contains("No such file") == true)
    }

    @Test func manyCallsInFlightOnOneConnectionGetTheirOwnReplies() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.createLayout("p", LayoutSpec(width: 300, sections: [SectionSpec(items: [])]))
            // 200 concurrent appends: each result's seq is its own, and all seqs 2...201 come back once.
            let seqs = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for k in 0..<200 {
                    group.addTask {
                        let result = try await client.insertItems(
                            [Item(height: Double(k + 1))], at: 0, inSection: 0, of: "p", options: .init(diff: false))
                        return (k, result.seq)
                    }
                }
                var seqs: [Int] = []
                for try await (_, seq) in group { seqs.append(seq) }
                return seqs
            }
            #expect(seqs.sorted() == Array(2...201))
            #expect(try await client.listLayouts().first?.items == 200)
        }
    }

    @Test func callsFailWhenTheConnectionEnds() async throws {
        let daemon = try await InProcessDaemon.start()
        let client = try await WaterfallClient.connect(to: daemon.path)
        let subscriber = try await WaterfallClient.connect(to: daemon.path)
        _ = try await client.createLayout("gone", LayoutSpec(width: 300, sections: []))
        let events = try await subscriber.subscribe("gone")
        await daemon.stop()
        var iterator = events.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
        let error = await #expect(throws: WaterfallClientError.self) { try await client.ping() }
        #expect(error?.source == .connection && error?.socketPath == daemon.path)
    }

    @Test func closingEndsCallsAndSubscriptions() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.createLayout("c", LayoutSpec(width: 300, sections: []))
            let events = try await client.subscribe("c")
            client.close()
            var iterator = events.makeAsyncIterator()
            #expect(try await iterator.next() == nil)
            let error = await #expect(throws: WaterfallClientError.self) { try await client.ping() }
            #expect(error?.kind == "connection_closed")
        }
    }

    @Test func closingTwiceLeavesLaterConnectionsAlone() async throws {
        try await InProcessDaemon.with { daemon in
            // A released client closes again; its descriptor's number may by then be another connection's.
            for _ in 0..<20 {
                let first = try await WaterfallClient.connect(to: daemon.path)
                first.close()
                try await Task.sleep(for: .milliseconds(1))
                let second = try await WaterfallClient.connect(to: daemon.path)
                first.close()
                try await second.ping()
            }
        }
    }

    @Test func aSubscriptionSeesEveryChangeThenTheDrop() async throws {
        try await InProcessDaemon.with { daemon in
            let writer = try await WaterfallClient.connect(to: daemon.path)
            let reader = try await WaterfallClient.connect(to: daemon.path)
            _ = try await writer.createLayout("s", Self.spec)
            let events = try await reader.subscribe("s")
            let update = try await writer.updateItems(
                [ItemUpdate(index: 0, item: Item(height: 90))], inSection: 0, of: "s")
            _ = try await writer.moveItem(
                from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 2), in: "s")
            try await writer.dropLayout("s")
            var received: [LayoutEvent] = []
            for try await event in events { received.append(event) }
            #expect(received.count == 3)
            guard case .changed(let first) = received[0], case .changed(let second) = received[1] else {
                Issue.record("not two changes: \(received)")
                return
            }
            #expect(first.seq == 2 && first.diff == update.diff && first.ops.map(\.method) == ["items.update"])
            #expect(second.seq == 3 && second.ops.first?.params["to"] == [0, 2])
            #expect(received[2] == .dropped(layout: "s"))
        }
    }

    /// A typed call with an anchor: where it went (its event says the same), `.removed` when the call deleted it,
    /// and nil when the call named none.
    @Test func anchorsThroughTypedCalls() async throws {
        try await InProcessDaemon.with { daemon in
            let writer = try await WaterfallClient.connect(to: daemon.path)
            let reader = try await WaterfallClient.connect(to: daemon.path)
            _ = try await writer.createLayout("a", Self.spec)
            let events = try await reader.subscribe("a")
            // [30, 120, 80, 100] under a 44 header: the 100 goes from y 134 in column 1 to y 174 in column 0.
            let inserted = try await writer.insertItems(
                [Item(height: 30)], at: 0, inSection: 0, of: "a",
                options: MutationOptions(diff: false, anchor: ItemPath(section: 0, item: 2)))
            #expect(inserted.anchor == .moved(ItemPath(section: 0, item: 3), dy: 40) && inserted.diff == nil)
            let deleted = try await writer.batch(
                [.deleteItems(section: 0, indices: [3])], in: "a",
                options: MutationOptions(anchor: ItemPath(section: 0, item: 3)))
            #expect(deleted.anchor == .removed && deleted.diff != nil)
            let plain = try await writer.deleteItems([0], inSection: 0, of: "a")
            #expect(plain.anchor == nil)
            let refused = await #expect(throws: WaterfallClientError.self) {
                _ = try await writer.deleteItems(
                    [0], inSection: 0, of: "a", options: MutationOptions(anchor: ItemPath(section: 0, item: 9)))
            }
            #expect(String(describing: refused).contains("params.anchor.i: 9"))
            var anchors: [AnchorResult?] = []
            for try await event in events {
                guard case .changed(let change) = event else { break }
                anchors.append(change.anchor)
                if anchors.count == 3 { break }
            }
            #expect(anchors == [inserted.anchor, .removed, nil])
        }
    }

    @Test func aSubscriberThatFallsBehindGetsOverflowAndTheEnd() async throws {
        let daemon = try await InProcessDaemon.start { $0.subscriberMaxPendingBytes = 16_384 }
        let writer = try await WaterfallClient.connect(to: daemon.path)
        let reader = try await WaterfallClient.connect(to: daemon.path)
        _ = try await writer.createLayout("o", Self.spec)
        let events = try await reader.subscribe("o")
        // Unread, the events fill the subscription's buffer; the connection then stops reading and the daemon's
        // pending bytes for it pass the limit.
        for k in 0..<3_000 {
            _ = try await writer.updateItems(
                [ItemUpdate(index: 0, item: Item(height: Double(k % 7 + 1)))], inSection: 0, of: "o",
                options: .init(diff: false))
        }
        var changes = 0
        var last: LayoutEvent?
        for try await event in events {
            if case .changed = event { changes += 1 }
            last = event
        }
        #expect(last == .overflow(layout: "o") && changes >= 1024 && changes < 3_000)
        // The connection reads again: calls on it are answered.
        try await reader.ping()
        await daemon.stop()
    }

    @Test func aSubscriptionNobodyReadsDoesNotHoldUpTheConnection() async throws {
        try await InProcessDaemon.with { daemon in
            let writer = try await WaterfallClient.connect(to: daemon.path)
            let reader = try await WaterfallClient.connect(to: daemon.path)
            _ = try await writer.createLayout("n", Self.spec)
            do {
                // Released at once: its events go nowhere rather than filling a buffer nobody empties.
                _ = try await reader.subscribe("n")
            }
            for k in 0..<2_000 {
                _ = try await writer.updateItems(
                    [ItemUpdate(index: 0, item: Item(height: Double(k % 7 + 1)))], inSection: 0, of: "n")
            }
            try await reader.ping()
        }
    }

    @Test func cancellingTheIteratingTaskEndsTheSequence() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.createLayout("t", Self.spec)
            let events = try await client.subscribe("t")
            let iteration = Task {
                var count = 0
                for try await _ in events { count += 1 }
                return count
            }
            try await Task.sleep(for: .milliseconds(20))
            iteration.cancel()
            #expect(try await iteration.value == 0)
            try await client.ping()
        }
    }

    @Test func unsubscribeEndsTheSequence() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.createLayout("u", Self.spec)
            let events = try await client.subscribe("u")
            _ = try await client.deleteItems([0], inSection: 0, of: "u")
            try await client.unsubscribe("u")
            _ = try await client.deleteItems([0], inSection: 0, of: "u")
            var seqs: [Int] = []
            for try await case .changed(let change) in events { seqs.append(change.seq) }
            #expect(seqs == [2])
        }
    }

    @Test func aTimeoutFailsTheCallNotTheConnection() async throws {
        // A listening socket that never answers: the call times out, naming its method.
        try await SilentListener.withClient(timeout: .milliseconds(100)) { client in
            let error = await #expect(throws: WaterfallClientError.self) { try await client.ping() }
            #expect(error?.source == .timeout && error?.message == "no reply to ping within 0.1 s")
        }
    }

    @Test func theRawCallReturnsTheResultAsWritten() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            #expect(try await client.call(method: "ping") == ["pong": true])
            let node = try await client.callNode(method: "ping")
            #expect(String(decoding: node.rawBytes, as: UTF8.self) == #"{"pong":true}"#)
        }
    }

    @Test func theDefaultSocketPathFollowsTheDaemonsRule() {
        #expect(WaterfallClient.defaultSocketPath(environment: ["WATERFALLD_SOCKET": "/x/y.sock"]) == "/x/y.sock")
        #expect(WaterfallClient.defaultSocketPath(environment: ["XDG_RUNTIME_DIR": "/tmp"]) == "/tmp/waterfalld.sock")
        #expect(
            WaterfallClient.defaultSocketPath(environment: ["XDG_RUNTIME_DIR": "/no/such/dir"])
                == "/tmp/waterfalld-\(getuid())/waterfalld.sock")
    }
}
