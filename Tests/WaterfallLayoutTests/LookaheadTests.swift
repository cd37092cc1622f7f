import Testing
import WaterfallLayout
import WaterfallTestSupport

/// `lookahead` (the Geometry article, "Gaps filled by lookahead"), worked out by hand. Three columns 100 wide with
/// spacing 10 (a width of 320), rowSpacing 10.
@Suite struct LookaheadTests {
    /// The article's example: items of 50 and 40, a span of 2 and 20, then 60.
    static let example = items([50, 40]) + [Item(height: 20, span: .columns(2)), Item(height: 60)]

    static func spec(_ lookahead: Lookahead?, _ items: [Item] = example) -> LayoutSpec {
        LayoutSpec(
            width: 320,
            sections: [SectionSpec(properties: SectionProperties(columns: 3, lookahead: lookahead), items: items)])
    }

    /// In index order the span goes to column 1 at y 50, leaving 50 points of column 2 empty; the order 0, 2, 1
    /// leaves none: the span at column 1, y 0, item 1 under it at y 30. Item 3 is a window of its own: column 2, y 30.
    @Test func theWindowTakesTheOrderThatLeavesLeastWhitespace() async throws {
        let plain = try await build(Self.spec(nil))
        #expect(
            plain.itemFrames(0) == [
                rect(0, 0, 100, 50), rect(110, 0, 100, 40), rect(110, 50, 210, 20), rect(0, 60, 100, 60),
            ])
        let layout = try await build(Self.spec(Lookahead(items: 3, limit: 6)))
        #expect(
            layout.itemFrames(0) == [
                rect(0, 0, 100, 50), rect(110, 30, 100, 40), rect(110, 0, 210, 20), rect(220, 30, 100, 60),
            ])
        #expect(layout.frames(ofSection: 0).height == 90)
    }

    /// The second order in lexicographic order (0, 2, 1) is the winner, so a limit of 2 finds it and a limit of 1
    /// (the identity only) places as without lookahead; so do windows of one item.
    @Test(arguments: [
        (Lookahead(items: 3, limit: 2), true), (Lookahead(items: 3, limit: 1), false),
        (Lookahead(items: 1, limit: 720), false),
    ])
    func theLimitBoundsTheOrdersWeighed(_ lookahead: Lookahead, fills: Bool) async throws {
        let plain = try await build(Self.spec(nil)).itemFrames(0)
        let frames = try await build(Self.spec(lookahead)).itemFrames(0)
        #expect((frames[2] == rect(110, 0, 210, 20)) == fills)
        #expect((frames == plain) == !fills)
    }

    /// Queries find items stacked out of index order in a column, in index order; reading order follows the frames.
    @Test func queriesAndReadingOrderFollowTheFrames() async throws {
        let layout = try await build(Self.spec(Lookahead(items: 3, limit: 6)))
        let band = rect(0, 25, 320, 10)
        #expect(layout.elements(in: band).compactMap(\.index) == [0, 1, 3])
        let all = layout.elements(in: rect(0, 0, 320, 200), order: .reading).compactMap(\.index)
        #expect(all == [0, 2, 1, 3])
        #expect(layout.neighbors(of: ItemPath(section: 0, item: 1)).above?.index == 2)
    }

    /// An edit places its window again from the window's first item: item 2 no longer spanning, every order
    /// leaves no whitespace and index order wins, as in a layout made afresh.
    @Test func anEditPlacesItsWindowAgain() async throws {
        var layout = try await build(Self.spec(Lookahead(items: 3, limit: 6)))
        _ = try await layout.validateAndApply([
            .updateItems(section: 0, updates: [ItemUpdate(index: 2, item: Item(height: 20))])
        ])
        let fresh = try await build(
            Self.spec(Lookahead(items: 3, limit: 6), items([50, 40, 20, 60])))
        #expect(layout.itemFrames(0) == fresh.itemFrames(0))
        #expect(layout.itemFrames(0)[1] == rect(110, 0, 100, 40))
    }

    @Test(arguments: [
        (Lookahead(items: 0, limit: 1), "sections[0].lookahead.items", "0"),
        (Lookahead(items: 9, limit: 1), "sections[0].lookahead.items", "9"),
        (Lookahead(items: 2, limit: 0), "sections[0].lookahead.limit", "0"),
        (Lookahead(items: 2, limit: 40321), "sections[0].lookahead.limit", "40321"),
    ])
    func outOfRangeMembersAreRefused(_ lookahead: Lookahead, field: String, value: String) async throws {
        let error = await thrown { _ = try await build(Self.spec(lookahead)) }
        guard case .invalidValue(let f, let v, _)? = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(f == field)
        #expect(v == value)
    }

    /// Round robin, the cursor tie rule and stable reflow cannot go with lookahead, set in the section or reached
    /// through the defaults; windows of one item go with anything.
    @Test(arguments: [
        SectionProperties(placement: .next), SectionProperties(tieBreak: .cursor), SectionProperties(reflow: .stable),
    ])
    func rulesLookaheadCannotGoWithAreRefused(_ rule: SectionProperties) async throws {
        var own = rule
        own.columns = 3
        own.lookahead = Lookahead(items: 2, limit: 2)
        let spec = LayoutSpec(width: 320, sections: [SectionSpec(properties: own, items: Self.example)])
        let error = await thrown { _ = try await build(spec) }
        guard case .invalidValue(let field, _, let reason)? = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(field == "sections[0]")
        #expect(reason.contains("cannot go with"))
        own.lookahead = Lookahead(items: 1, limit: 5)
        _ = try await build(LayoutSpec(width: 320, sections: [SectionSpec(properties: own, items: Self.example)]))
        // Defaults that bring the rule to a section with lookahead are refused, and change nothing.
        var layout = try await build(Self.spec(Lookahead(items: 2, limit: 2)))
        let before = Observed(layout)
        let refused = await thrown {
            _ = try await layout.validateAndApply([.configureLayout(LayoutPatch(defaults: rule))])
        }
        #expect(refused != nil)
        #expect(Observed(layout) == before)
    }

    /// layout.css cannot follow the winning order across widths: refused, naming the section.
    @Test func responsiveLayoutsRefuseLookahead() async throws {
        let error = await thrown {
            _ = try ResponsiveLayout.compute(Self.spec(Lookahead(items: 3, limit: 6)), minWidth: 200, maxWidth: 900)
        }
        guard case .invalidValue(let field, _, _)? = error else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(field == "sections[0].lookahead")
    }

    /// Past 64 columns, with items of height 0 stacked at one y (rowSpacing 0): the kernel's own entries keep each
    /// column's index in placement order, so frames, an edit inside a window and a query all match the reference.
    @Test func wideSectionsMatchTheReference() async throws {
        var random = RandomCommands(seed: 77, maxItems: 300, columns: 80...80)
        var items = random.items(300)
        for k in stride(from: 0, to: items.count, by: 7) { items[k].height = 0 }
        let properties = SectionProperties(columns: 80, rowSpacing: 0, lookahead: Lookahead(items: 4, limit: 24))
        let spec = LayoutSpec(width: 8000, sections: [SectionSpec(properties: properties, items: items)])
        var layout = try await build(spec)
        var reference = ReferenceLayout(spec)
        #expect(layout.itemFrames(0) == reference.layout().sections[0].items)
        let edit = LayoutCommand.insertItems(section: 0, at: 10, items: ItemList(random.items(3)))
        let accepted = reference.apply([edit])
        #expect(accepted)
        _ = try await layout.validateAndApply([edit])
        let expected = reference.layout().sections[0].items
        #expect(layout.itemFrames(0) == expected)
        let band = rect(0, 300, 8000, 40)
        let found = layout.elements(in: band).compactMap(\.index)
        #expect(found == expected.indices.filter { expected[$0].isVisible(in: band) })
    }
}
