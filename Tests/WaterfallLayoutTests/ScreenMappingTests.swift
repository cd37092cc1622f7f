import Testing
import WaterfallLayout
import WaterfallTestSupport

/// Horizontal feeds (Geometry, "Horizontal feeds"): the transpose invariant, hand-computed pinned headers and anchors
/// along x, and the refusals (`DifferentialTests.horizontalFeeds` holds them against `ReferenceLayout`).
@Suite struct ScreenMappingTests {
    /// Without rtl, a horizontal layout's frames are the vertical layout's with the same inputs (aspect w:h read as
    /// h:w), transposed.
    @Test(arguments: 0..<40)
    func transposeInvariant(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(6000 + seed), maxItems: 60)
        random.axisChance = 1
        var spec = random.layout()
        spec.direction = .ltr
        spec.axis = .horizontal
        var vertical = spec
        vertical.axis = .vertical
        for s in vertical.sections.indices {
            for k in vertical.sections[s].items.indices {
                guard let w = vertical.sections[s].items[k].aspectWidth else { continue }
                vertical.sections[s].items[k].aspectWidth = vertical.sections[s].items[k].height
                vertical.sections[s].items[k].height = w
            }
        }
        let across = try await Layout.make(spec).layout
        let down = try await Layout.make(vertical).layout
        #expect(across.contentSize == Size(width: down.contentSize.height, height: down.contentSize.width))
        func transposed(_ r: Rect) -> Rect { Rect(x: r.y, y: r.x, width: r.height, height: r.width) }
        for s in 0..<down.sectionCount {
            let want = down.frames(ofSection: s)
            let got = across.screen.frames(across.frames(ofSection: s))
            #expect(got.items.map(\.frame) == want.items.map { transposed($0.frame) }, "seed \(seed), section \(s)")
            #expect(got.header == want.header.map(transposed) && got.footer == want.footer.map(transposed))
            #expect(got.origin == want.origin && got.height == want.height && got.pinMaxY == want.pinMaxY)
        }
    }

    /// A hand-computed horizontal feed: rows 0–95 and 105–200 (width 200, rowSpacing 10 between items along x),
    /// a 30-wide pinned header before the items; under rtl the same, mirrored about x = 0.
    @Test(arguments: [Direction.ltr, .rtl])
    func pinnedHeaderAlongX(direction: Direction) async throws {
        let spec = LayoutSpec(
            width: 200, direction: direction, axis: .horizontal,
            sections: [
                SectionSpec(
                    properties: SectionProperties(headerHeight: 30, pinHeader: true),
                    items: [Item(height: 100), Item(height: 50), Item(height: 40), Item(height: 3, aspectWidth: 2)]),
                SectionSpec(items: [Item(height: 60)]),
            ])
        let layout = try await Layout.make(spec).layout
        let rtl = direction == .rtl
        func x(_ ltr: Double, _ w: Double) -> Double { rtl ? -(ltr + w) : ltr }
        let frames = layout.screen.frames(layout.frames(ofSection: 0))
        // Column width (200 − 10) / 2 = 95; the aspect item 2:3 is 95 × 2 / 3 long along x.
        let aspect = 95.0 * 2 / 3
        #expect(
            frames.items.map(\.frame) == [
                Rect(x: x(30, 100), y: 0, width: 100, height: 95), Rect(x: x(30, 50), y: 105, width: 50, height: 95),
                Rect(x: x(90, 40), y: 105, width: 40, height: 95),
                Rect(x: x(140, aspect), y: 0, width: aspect, height: 95),
            ])
        #expect(frames.header == Rect(x: x(0, 30), y: 0, width: 30, height: 200))
        // pinMaxY in flow is 140 + 63.33 − 30; on screen the header's largest x, or under rtl its smallest.
        let pinFlow = 140 + aspect - 30
        #expect(frames.pinMaxY == (rtl ? -(pinFlow + 30) : pinFlow))
        #expect(layout.contentSize == Size(width: 140 + aspect + 60, height: 200))
        // A viewport 50 wide, 100 into the feed: the header pinned at its leading edge.
        let viewport = Rect(x: rtl ? -150 : 100, y: 0, width: 50, height: 200)
        let header = layout.elements(in: layout.screen.flowRect(viewport)).map(layout.screen.element).first
        #expect(header?.kind == .header && header?.pinned == true)
        #expect(header?.frame == Rect(x: rtl ? -130 : 100, y: 0, width: 30, height: 200))
    }

    /// An anchor before which an item grows moves by `dx`: +20 along x, or under rtl −20 (its right edge).
    @Test(arguments: [Direction.ltr, .rtl])
    func anchorMovesAlongX(direction: Direction) async throws {
        let spec = LayoutSpec(
            width: 100, direction: direction, axis: .horizontal,
            sections: [
                SectionSpec(properties: SectionProperties(columns: 1), items: [Item(height: 40), Item(height: 50)])
            ])
        var layout = try await Layout.make(spec).layout
        let change = try layout.validate(
            [.updateItems(section: 0, updates: [ItemUpdate(index: 0, item: Item(height: 60))])],
            anchor: ItemPath(section: 0, item: 1))
        let (_, anchor) = try await layout.apply(change)
        let path = ItemPath(section: 0, item: 1)
        #expect(layout.screen.anchor(anchor ?? .removed) == .movedAlongX(path, dx: direction == .rtl ? -20 : 20))
    }

    /// A horizontal layout refuses an aspect item without height (endless along x), and a switch to horizontal
    /// while one exists; the layout is unchanged.
    @Test func flatAspectItems() async throws {
        let flat = Item(height: 0, aspectWidth: 2)
        var layout = try await Layout.make(LayoutSpec(width: 100, axis: .horizontal, sections: [SectionSpec()])).layout
        await #expect(
            throws: LayoutError.invalidValue(
                field: "items[0].h", value: "0", reason: "must be ≥ 1e-6 for an aspect item of a horizontal layout")
        ) {
            _ = try await layout.validateAndApply([.insertItems(section: 0, at: 0, items: [flat])])
        }
        var vertical = try await Layout.make(LayoutSpec(width: 100, sections: [SectionSpec(items: [flat])])).layout
        await #expect(throws: LayoutError.self) {
            _ = try await vertical.validateAndApply([.configureLayout(LayoutPatch(axis: .horizontal))])
        }
        #expect(vertical.axis == .vertical && layout.itemCount == 0)
    }

    /// Switching axis back and forth gives back the vertical frames, and the items read back as given.
    @Test func axisRoundTrip() async throws {
        let items = [Item(height: 3, aspectWidth: 4), Item(height: 70), Item(height: 5, aspectWidth: 1.5)]
        let spec = LayoutSpec(width: 300, sections: [SectionSpec(items: items)])
        var layout = try await Layout.make(spec).layout
        let before = layout.frames(ofSection: 0)
        _ = try await layout.validateAndApply([.configureLayout(LayoutPatch(axis: .horizontal))])
        #expect(layout.items(inSection: 0) == items && layout.spec.axis == .horizontal)
        #expect(layout.frames(ofSection: 0).items.map(\.frame) != before.items.map(\.frame))
        _ = try await layout.validateAndApply([.configureLayout(LayoutPatch(axis: .vertical))])
        #expect(layout.frames(ofSection: 0) == before && layout.items(inSection: 0) == items)
    }
}
