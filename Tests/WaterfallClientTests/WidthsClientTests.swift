import Testing
import WaterfallClient
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallServerTestSupport

/// The client's `width` and `widths`: a layout laid out at several widths (the Widths article's feed at 375 and
/// 820), read and changed at the width each call names.
@Suite(.tags(.server)) struct WidthsClientTests {
    /// One section of four items, columns at least 180 wide: two at 375, four at 820.
    static var spec: LayoutSpec {
        var defaults = SectionProperties()
        defaults.minColumnWidth = 180
        var spec = LayoutSpec(
            width: 375, defaults: defaults,
            sections: [SectionSpec(items: [Item(height: 100), Item(height: 50), Item(height: 80), Item(height: 60)])])
        spec.widths = [375, 820]
        return spec
    }

    @Test func readsAndChangesTakeTheWidthTheyName() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            let created = try await client.createLayout("feed", Self.spec, options: MutationOptions(width: 820))
            // layout.create answers at the first width.
            #expect(created.contentSize == Size(width: 375, height: 170))
            #expect(try await client.listLayouts().map(\.widths) == [[375, 820]])
            #expect(try await client.export("feed").spec.widths == [375, 820])

            let wide = try await client.frames(of: "feed", width: 820)
            #expect(wide.contentSize == Size(width: 820, height: 100))
            #expect(wide.sections[0].items.map(\.frame.x) == [0, 207.5, 415, 622.5])
            #expect(try await client.frames(of: "feed", sections: [0]).contentSize.width == 375)

            let updated = try await client.updateItems(
                [ItemUpdate(index: 0, item: Item(height: 40))], inSection: 0, of: "feed",
                options: MutationOptions(width: 820))
            #expect(updated.seq == 2 && updated.contentSize == Size(width: 820, height: 80))
            #expect(updated.diff?.sections[0].items.map(\.frame) == [Rect(x: 0, y: 0, width: 197.5, height: 40)])

            let narrow = try await client.query(
                "feed", rect: Rect(x: 0, y: 0, width: 375, height: 100), width: 375)
            #expect(narrow.contentSize == Size(width: 375, height: 130))
            #expect(narrow.elements.map(\.index) == [0, 1, 2, 3])
            let atWide = try await client.query("feed", rect: Rect(x: 0, y: 0, width: 820, height: 10), width: 820)
            #expect(atWide.elements.map(\.frame.width) == [197.5, 197.5, 197.5, 197.5])

            let neighbors = try await client.neighbors(of: ItemPath(section: 0, item: 0), in: "feed", width: 820)
            #expect(neighbors.above == nil && neighbors.below == nil && neighbors.left == nil)
            #expect(neighbors.right?.frame == Rect(x: 207.5, y: 0, width: 197.5, height: 50))
            #expect(try await client.neighbors(of: ItemPath(section: 0, item: 0), in: "feed").below?.index == 2)

            // A width the layout does not have is the daemon's bad_params, naming it.
            await #expect {
                _ = try await client.frames(of: "feed", width: 500)
            } throws: { error in
                (error as? WaterfallClientError).map { $0.kind == "bad_params" && $0.message.contains("500") } ?? false
            }
            client.close()
        }
    }

    /// `layout.configure`'s own `width` is the layout's: with `options.width` the client sends a batch of the
    /// configure, so the result is at the width asked for and the layout's widths are the patch's.
    @Test func configureAtAWidthAnswersThere() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.createLayout("feed", Self.spec)
            let configured = try await client.configureLayout(
                "feed", LayoutPatch(widths: [375, 1024]), options: MutationOptions(width: 1024))
            #expect(configured.seq == 2 && configured.contentSize.width == 1024)
            #expect(try await client.listLayouts().first?.widths == [375, 1024])
            let plain = try await client.configureLayout("feed", LayoutPatch(scale: 2))
            #expect(plain.seq == 3 && plain.contentSize.width == 375)
            let batched = try await client.batch(
                [.deleteItems(section: 0, indices: [3])], in: "feed", options: MutationOptions(width: 1024))
            #expect(batched.contentSize == Size(width: 1024, height: 100))
            client.close()
        }
    }

    /// A subscription at a width carries that width's diffs; a scoped one's snapshot is at it too.
    @Test func subscribeAtAWidth() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            let watcher = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.createLayout("feed", Self.spec)
            let events = try await watcher.subscribe("feed", width: 820)
            _ = try await client.updateItems([ItemUpdate(index: 0, item: Item(height: 40))], inSection: 0, of: "feed")
            var iterator = events.makeAsyncIterator()
            guard case .changed(let change)? = try await iterator.next() else {
                Issue.record("no layout.changed")
                return
            }
            #expect(change.contentSize == Size(width: 820, height: 80))
            let moved = try await watcher.moveViewport(of: "feed", to: Viewport(y: 0, height: 50), width: 820)
            #expect(moved.contentSize.width == 820)
            #expect(moved.diff.sections.first?.items.map(\.frame.width).allSatisfy { $0 == 197.5 } == true)
            client.close()
            watcher.close()
        }
    }

    @Test func theOpenRPCDocumentListsEveryMethodWithItsParams() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            let document = try await client.openRPCDocument()
            guard case .array(let methods)? = document["methods"] else {
                Issue.record("no methods in \(document)")
                return
            }
            let get = methods.first { $0["name"] == "layout.get" }
            guard case .array(let params)? = get?["params"] else {
                Issue.record("layout.get has no params")
                return
            }
            #expect(params.contains { $0["name"] == "width" })
            client.close()
        }
    }
}
