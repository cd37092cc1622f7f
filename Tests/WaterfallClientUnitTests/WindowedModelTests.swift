import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallTestSupport

/// The windowed model against the engine on seeded random changes with random viewports and anchors: after every
/// step, what the model holds equals a fresh query of its viewport. Plus hand-computed cases of the scoped rule.
@Suite struct WindowedModelTests {
    @Test(arguments: 0..<40)
    func randomChanges(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 40, steps: 120)
    }

    /// Sections of hundreds of items, with viewports far smaller than the layout.
    @Test(arguments: 100..<106)
    func largeSections(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 800, steps: 40)
    }

    /// Horizontal layouts (rtl among them), as the daemon serves them: snapshots, diffs and anchors mapped to the
    /// screen, the viewport a band of x, the check a query of that band mapped to the screen.
    @Test(arguments: 200..<240)
    func horizontalLayouts(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 40, steps: 120, horizontal: true)
    }

    /// A new height in the middle of a long section, the viewport at the top: nothing in it moves, so the scoped
    /// diff lists the section's entry and no frame.
    @Test func changeBelowTheViewportListsNoFrame() async throws {
        var layout = try await Layout.make(Self.column(count: 100)).layout
        let change = try layout.validate([
            .updateItems(section: 0, updates: [ItemUpdate(index: 50, item: Item(height: 20))])
        ])
        let (diff, _, after) = try await layout.applyScoped(change, viewport: Viewport(y: 0, height: 100))
        #expect(after == Viewport(y: 0, height: 100))
        #expect(diff.sections.count == 1)
        #expect(diff.sections[0].items.isEmpty)
        #expect(diff.sections[0].height == 1010)
    }

    /// Items 0...9 of a column of 10-point items fill [0, 100); growing item 5 by 10 moves items 5...9, and item 9
    /// leaves the viewport: all five are listed (held, changed), item 10 is not (it was out and stays out).
    @Test func changeInTheViewportListsWhatMovedThere() async throws {
        var layout = try await Layout.make(Self.column(count: 100)).layout
        let change = try layout.validate([
            .updateItems(section: 0, updates: [ItemUpdate(index: 5, item: Item(height: 20))])
        ])
        let (diff, _, _) = try await layout.applyScoped(change, viewport: Viewport(y: 0, height: 100))
        #expect(diff.sections[0].items.map(\.index) == [5, 6, 7, 8, 9])
        #expect(diff.sections[0].items.map(\.frame.y) == [50, 70, 80, 90, 100])
    }

    /// An anchor moves the viewport with its item: a delete of item 0 moves item 50 (now 49) and the viewport up by
    /// 10, so the viewport shows the same items; each moved within its section (whose dy is 0), so each is listed.
    @Test func anchoredViewportFollowsItsItem() async throws {
        var layout = try await Layout.make(Self.column(count: 100)).layout
        let change = try layout.validate(
            [.deleteItems(section: 0, indices: [0])], anchor: ItemPath(section: 0, item: 50))
        let (diff, anchor, after) = try await layout.applyScoped(change, viewport: Viewport(y: 500, height: 100))
        #expect(anchor == .moved(ItemPath(section: 0, item: 49), dy: -10))
        #expect(after == Viewport(y: 490, height: 100))
        #expect(diff.sections[0].items.map(\.index) == Array(49...58))
        #expect(diff.sections[0].items.map(\.frame.y) == (49...58).map { Double($0) * 10 })
        #expect(diff.sections[0].dy == 0)
    }

    /// A new height in the middle of a masonry feed, the viewport around it: the items below it in the viewport
    /// moved, and are listed; the reply holds no more than the viewport.
    @Test func changeInTheMiddleListsTheViewportOnly() async throws {
        var properties = SectionProperties()
        properties.columns = 3
        let items = (0..<3000).map { Item(height: Double(20 + ($0 * 37) % 380)) }
        var layout = try await Layout.make(
            LayoutSpec(width: 1000, defaults: properties, sections: [SectionSpec(items: items)])
        ).layout
        let y = layout.frame(ofItem: ItemPath(section: 0, item: 1500)).frame.y
        let viewport = Viewport(y: y - 500, height: 1000)
        let inView = layout.elements(in: viewport.rect).count
        let change = try layout.validate([
            .updateItems(section: 0, updates: [ItemUpdate(index: 1500, item: Item(height: 999))])
        ])
        let (diff, _, _) = try await layout.applyScoped(change, viewport: viewport)
        #expect(!diff.sections[0].items.isEmpty)
        #expect(diff.sections[0].items.count <= 2 * inView)
    }

    // MARK: Private

    /// One section, one column 100 wide, `count` items 10 high.
    private static func column(count: Int) -> LayoutSpec {
        var properties = SectionProperties()
        properties.columns = 1
        properties.rowSpacing = 0
        return LayoutSpec(
            width: 100,
            sections: [SectionSpec(properties: properties, items: Array(repeating: Item(height: 10), count: count))])
    }

    /// With `horizontal`, every layout and configure is horizontal (`axisChance` 1 never draws vertical), and what
    /// the engine answers is mapped to the screen as the daemon maps it.
    private func run(seed: UInt64, maxItems: Int, steps: Int, horizontal: Bool = false) async throws {
        var random = RandomCommands(seed: seed, maxItems: maxItems)
        if horizontal { random.axisChance = 1 }
        var layout = try await Layout.make(random.layout()).layout
        var viewport = randomViewport(&random, layout)
        var model = try WindowedModel(
            seq: layout.seq, contentSize: layout.contentSize, viewport: viewport,
            snapshot: layout.screen.diff(layout.scopedSnapshot(viewport)))
        for step in 0..<steps {
            let context = "seed \(seed), step \(step)"
            if random.chance(0.1) {
                // Scrolling: one request, answered with the new viewport's snapshot.
                viewport = randomViewport(&random, layout)
                try model.move(
                    to: viewport, seq: layout.seq, contentSize: layout.contentSize,
                    snapshot: layout.screen.diff(layout.scopedSnapshot(viewport)))
            }
            let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
            let commands = (0..<(random.chance(0.2) ? random.int(2...3) : 1)).map { _ in random.command(counts: counts)
            }
            let anchor = random.chance(0.4) ? random.anchor(counts: counts) : nil
            guard let change = try? layout.validate(commands, anchor: anchor) else { continue }
            let (diff, outcome, after) = try await layout.applyScoped(change, viewport: model.viewport)
            let screen = layout.screen
            try model.apply(
                seq: layout.seq, commands: commands, diff: screen.diff(diff), anchor: outcome.map(screen.anchor),
                contentSize: layout.contentSize)
            #expect(model.viewport == after, "\(context)")
            let expected = layout.elements(in: screen.flowViewport(model.viewport).rect).map(screen.element)
            #expect(model.elements == expected, "\(context): \(commands)")
            if model.elements != expected { return }
        }
    }

    /// A band along the feed: y, or x for a horizontal layout, whose feed runs toward −x under rtl.
    private func randomViewport(_ random: inout RandomCommands, _ layout: Layout) -> Viewport {
        guard layout.axis == .horizontal else {
            let height = max(1, layout.contentSize.height)
            return Viewport(y: Double(random.int(-50...Int(height))), height: Double(random.int(1...400)))
        }
        let extent = Int(max(1, layout.contentSize.width))
        let start = layout.screen.reversed ? random.int(-extent - 50...50) : random.int(-50...extent)
        return Viewport(y: Double(start), height: Double(random.int(1...400)), axis: .horizontal)
    }
}
