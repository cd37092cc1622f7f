import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallWire

/// The connection's sending: requests made while replies are being read leave from the reading thread, as far as
/// the socket takes them; when it is full the writer's queue sends the rest, and everything after, in order.
@Suite(.tags(.server)) struct ConnectionTests {
    /// 64 calls in flight of 4,000 items each (about 2.5 MB of requests, many times a socket's buffer), then calls
    /// made while those replies come: every call gets its own reply, and the items arrive in the order sent.
    @Test func requestsLargerThanTheSocketBufferArriveWholeAndInOrder() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.createLayout("big", LayoutSpec(width: 300, sections: [SectionSpec(items: [])]))
            let chunk = 4_000
            let seqs = try await withThrowingTaskGroup(of: Int.self) { group in
                for k in 0..<64 {
                    group.addTask {
                        // Heights name the chunk; `at: 0` puts later requests first, so the order shows below.
                        let items = (0..<chunk).map { _ in Item(height: Double(k + 1)) }
                        let result = try await client.insertItems(
                            items, at: 0, inSection: 0, of: "big", options: .init(diff: false))
                        // A call made from a reply's continuation, while other replies are still being read.
                        try await client.ping()
                        return result.seq
                    }
                }
                var seqs: [Int] = []
                for try await seq in group { seqs.append(seq) }
                return seqs
            }
            #expect(seqs.count == 64 && Set(seqs).count == 64)
            let frames = try await client.frames(of: "big")
            let heights = frames.sections[0].items.map(\.frame.height)
            #expect(heights.count == 64 * chunk)
            // Each chunk's items stayed together: 64 runs of one height each.
            var runs = 0
            for (k, height) in heights.enumerated() where k == 0 || heights[k - 1] != height { runs += 1 }
            #expect(runs == 64)
        }
    }
}

/// `layout.get` replies of many reads, which the client reads into frames as they come (`FramesStream`): the frames
/// are those the general path reads from the whole reply, on both axes, with calls made meanwhile answered in turn.
@Suite(.tags(.server)) struct StreamedFramesTests {
    @Test(arguments: [Axis.vertical, .horizontal])
    func framesReadAsTheReplyComesAreThoseOfTheWholeReply(axis: Axis) async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            let items = (0..<12_000).map { (k: Int) -> Item in
                let height = Double(20 + k % 17) + 0.25
                return Item(height: height, id: k % 5 == 0 ? "p\(k)" : nil)
            }
            let properties = SectionProperties(columns: 3, headerHeight: 30, footerHeight: 12, pinHeader: true)
            let spec = LayoutSpec(
                width: 390, direction: axis == .horizontal ? .rtl : .ltr, axis: axis,
                sections: [
                    SectionSpec(properties: properties, items: items), SectionSpec(),
                    SectionSpec(items: Array(items.prefix(3_000))),
                ])
            _ = try await client.createLayout("big", spec)
            async let streamed = client.frames(of: "big")
            async let pong: Void = client.ping()
            async let other = client.frames(of: "big", sections: [1])
            let node = try await client.callNode(method: "layout.get", params: .object([("layout", .string("big"))]))
            let whole = try ReplyDecoding.frames(node)
            let frames = try await streamed
            try await pong
            #expect(frames == whole)
            #expect(frames.sections.map(\.items.count) == [12_000, 0, 3_000])
            #expect(try await other.sections.map(\.section) == [1])
        }
    }
}
