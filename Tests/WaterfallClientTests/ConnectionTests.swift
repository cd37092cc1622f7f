import Testing
import WaterfallClient
import WaterfallLayout

/// The connection's sending: requests made while replies are being read leave from the reading thread, as far as
/// the socket takes them; when it is full the writer's queue sends the rest, and everything after, in order.
@Suite struct ConnectionTests {
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
