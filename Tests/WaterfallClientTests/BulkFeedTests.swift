import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallTestSupport

/// The benchmark's long feed through the daemon, at a size a test affords: what the viewport scenario measures must
/// be what the Diffs article's scoped diffs promise.
@Suite(.tags(.server)) struct BulkFeedTests {
    /// A new height in the middle of the feed with a viewport around that item: the scoped result lists the item and
    /// every item of the viewport whose frame moved.
    @Test func aViewportAroundTheChangedItemListsItAndWhatMovedInView() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            let feed = BulkFeed(count: 100_000)
            _ = try await client.createLayout(
                BulkFeed.name,
                LayoutSpec(width: 1000, defaults: SectionProperties(columns: 3), sections: [SectionSpec()]))
            for start in stride(from: 0, to: feed.heights.count, by: 10_000) {
                let items = feed.heights[start..<(start + 10_000)].map { Item(height: $0) }
                _ = try await client.insertItems(
                    items, at: start, inSection: 0, of: BulkFeed.name, options: MutationOptions(diff: false))
            }
            let middle = feed.heights.count / 2
            let viewport = try await feed.viewport(around: middle)
            let before = try await client.query(BulkFeed.name, rect: viewport.rect).elements
            let result = try await client.updateItems(
                [ItemUpdate(index: middle, item: Item(height: 333.3))], inSection: 0, of: BulkFeed.name,
                options: MutationOptions(viewport: viewport))
            let after = try await client.query(BulkFeed.name, rect: viewport.rect).elements
            let listed = result.diff?.sections.first?.items.map(\.index) ?? []
            #expect(listed.contains(middle), "the changed item \(middle) is not listed: \(listed)")
            // Held and moved (in view after or not), or in view after and not held.
            let framesBefore = Dictionary(uniqueKeysWithValues: before.map { ($0.index ?? -1, $0.frame) })
            let framesAfter = Dictionary(uniqueKeysWithValues: after.map { ($0.index ?? -1, $0.frame) })
            let moved = Set(framesBefore.keys).union(framesAfter.keys).filter { framesBefore[$0] != framesAfter[$0] }
            #expect(Set(listed) == moved)
            #expect(moved.count > 1)
        }
    }
}
