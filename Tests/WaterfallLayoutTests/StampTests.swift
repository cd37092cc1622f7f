import Testing
import WaterfallLayout

/// `stamps` (the Geometry article, "Stamps"), worked out by hand. Columns are 100 wide with spacing 10 (3 in a width
/// of 320), rowSpacing 10: an item moved below a stamp starts at its bottom + 10.
@Suite struct StampTests {
    static func section(
        width: Double = 320, _ properties: SectionProperties, _ items: [Item], footer: Double? = nil
    ) -> LayoutSpec {
        var properties = properties
        properties.footerHeight = footer
        return LayoutSpec(width: width, sections: [SectionSpec(properties: properties, items: items)])
    }

    /// The article's example: a header of 20, stamp 0 over columns 1–2 at y 30–70, stamp 1 in column 0 at 200–220.
    static let example = section(
        SectionProperties(
            columns: 3, headerHeight: 20,
            stamps: [Stamp(column: 1, span: 2, y: 30, height: 40), Stamp(column: 0, y: 200, height: 20)]),
        items([40, 20, 30]) + [Item(height: 50, span: .columns(2)), Item(height: 10)], footer: 10)

    @Test func itemsFlowAroundStampsAndTheLowestStampEndsTheSection() async throws {
        let layout = try await build(Self.example)
        #expect(
            layout.itemFrames(0) == [
                rect(0, 20, 100, 40), rect(110, 20, 100, 20), rect(0, 70, 100, 30), rect(110, 100, 210, 50),
                rect(0, 110, 100, 10),
            ])
        // The items end at 150 (absolute); stamp 1 at 240; then the footer.
        #expect(layout.frames(ofSection: 0).footer == rect(0, 240, 320, 10))
        #expect(layout.frames(ofSection: 0).height == 250)
    }

    @Test func queriesReturnStampsAfterTheItemsAndBeforeTheFooter() async throws {
        let layout = try await build(Self.example)
        let found = layout.elements(in: rect(0, 0, 320, 300))
        #expect(found.map(\.kind) == [.header, .item, .item, .item, .item, .item, .stamp, .stamp, .footer])
        let stamps = found.filter { $0.kind == .stamp }
        #expect(stamps.map(\.index) == [0, 1])
        #expect(stamps.map(\.frame) == [rect(110, 50, 210, 40), rect(0, 220, 100, 20)])
        // A rect that touches only stamp 1's column below the items.
        #expect(layout.elements(in: rect(0, 200, 50, 30)).map(\.kind) == [.stamp])
    }

    /// `next` keeps its column and moves the item down only: item 1 goes to column 1 below the stamp (0–50).
    @Test func roundRobinMovesItemsDownOnly() async throws {
        let layout = try await build(
            Self.section(
                SectionProperties(columns: 3, placement: .next, stamps: [Stamp(column: 1, y: 0, height: 50)]),
                items([30, 30, 30, 30])))
        #expect(
            layout.itemFrames(0) == [
                rect(0, 0, 100, 30), rect(110, 60, 100, 30), rect(220, 0, 100, 30), rect(0, 40, 100, 30),
            ])
    }

    /// One column, stamps at 40–60, 80–100 and 160–170. Item 1 (15) moves below the first to 70, where it would
    /// touch the second (70 + 15 + 10 > 80): below that, 110, where it fits above the third (110 + 25 ≤ 160). Item 2
    /// (20) at 135 would overlap the third: 180.
    @Test func stackedStampsAreSkippedTogether() async throws {
        let stamps = [
            Stamp(column: 0, y: 40, height: 20), Stamp(column: 0, y: 160, height: 10),
            Stamp(column: 0, y: 80, height: 20),
        ]
        let layout = try await build(
            Self.section(width: 100, SectionProperties(columns: 1, stamps: stamps), items([30, 15, 20, 30])))
        #expect(
            layout.itemFrames(0) == [
                rect(0, 0, 100, 30), rect(0, 110, 100, 15), rect(0, 180, 100, 20), rect(0, 210, 100, 30),
            ])
        #expect(layout.frames(ofSection: 0).height == 240)
    }

    /// A stable section keeps its columns when stamps arrive: item 1 stays in column 1, moved below the stamp.
    @Test func stableSectionsKeepTheirColumnsAndMoveDown() async throws {
        var layout = try await build(
            Self.section(SectionProperties(columns: 3, reflow: .stable), items([30, 30, 30])))
        var patch = SectionPatch()
        patch.stamps = .set([Stamp(column: 1, y: 0, height: 50)])
        _ = try await layout.validateAndApply([.configureSection(0, patch)])
        #expect(layout.itemFrames(0) == [rect(0, 0, 100, 30), rect(110, 60, 100, 30), rect(220, 0, 100, 30)])
    }

    /// The last item's height decides whether it fits above a stamp (0 + h + 10 ≤ 40), so updating it places it again.
    @Test(arguments: [(30.0, 0.0), (35, 60)])
    func updatingTheLastItemRechecksTheStamp(height: Double, y: Double) async throws {
        var layout = try await build(
            Self.section(
                width: 100, SectionProperties(columns: 1, stamps: [Stamp(column: 0, y: 40, height: 10)]), items([20])))
        _ = try await layout.validateAndApply([
            .updateItems(section: 0, updates: [ItemUpdate(index: 0, item: Item(height: height))])
        ])
        #expect(layout.itemFrames(0) == [rect(0, y, 100, height)])
    }

    /// An insert at the top of a long section: the frames below must be placed again around the stamps, not shifted,
    /// and equal a fresh layout's.
    @Test func incrementalChangesEqualAFreshLayout() async throws {
        let heights = (0..<900).map { Double(($0 * 37) % 90 + 10) }
        let stamps = [
            Stamp(column: 0, span: 2, y: 300, height: 80), Stamp(column: 2, y: 5000, height: 400),
            Stamp(column: 1, y: 12000, height: 50),
        ]
        let properties = SectionProperties(columns: 3, stamps: stamps)
        var layout = try await build(Self.section(properties, items(heights)))
        _ = try await layout.validateAndApply([
            .insertItems(section: 0, at: 0, items: ItemList([Item(height: 25)])),
            .deleteItems(section: 0, indices: [500]),
        ])
        var expected = [25] + heights
        expected.remove(at: 500)
        let fresh = try await build(Self.section(properties, items(expected)))
        #expect(layout.itemFrames(0) == fresh.itemFrames(0))
        #expect(layout.frames(ofSection: 0).height == fresh.frames(ofSection: 0).height)
    }

    @Test(arguments: [
        (Stamp(column: 0, y: -1, height: 5), "sections[0].stamps[0].y", "-1"),
        (Stamp(column: 0, y: 0, height: 0), "sections[0].stamps[0].h", "0"),
        (Stamp(column: 0, y: 2e9, height: 1), "sections[0].stamps[0].y", "2000000000"),
        (Stamp(column: 0, span: 0, y: 0, height: 1), "sections[0].stamps[0].span", "0"),
        (Stamp(column: 1024, y: 0, height: 1), "sections[0].stamps[0].column", "1024"),
        (Stamp(column: 2, span: 2, y: 0, height: 1), "sections[0].stamps[0]", "columns 2..<4"),
    ])
    func badStampsAreNamed(stamp: Stamp, field: String, value: String) async {
        let error = await thrown {
            _ = try await build(Self.section(SectionProperties(columns: 3, stamps: [stamp]), []))
        }
        guard case .invalidValue(let f, let v, _)? = error else {
            return #expect(Bool(false), "\(String(describing: error))")
        }
        #expect(f == field && v == value)
    }

    @Test func moreThanSixtyFourStampsAreRefused() async {
        let stamps = Array(repeating: Stamp(column: 0, y: 0, height: 1), count: 65)
        let error = await thrown { _ = try await build(Self.section(SectionProperties(stamps: stamps), [])) }
        guard case .invalidValue(let field, let value, _)? = error else { return #expect(Bool(false)) }
        #expect(field == "sections[0].stamps" && value == "65 stamps")
    }

    /// An adaptive section has 3 columns at 320 and 1 at 200: a width that leaves its stamp outside is refused, and
    /// changes nothing.
    @Test func aWidthThatTakesAStampsColumnAwayIsRefused() async throws {
        var layout = try await build(
            Self.section(
                SectionProperties(minColumnWidth: 100, stamps: [Stamp(column: 2, y: 0, height: 10)]), items([10])))
        let before = layout.itemFrames(0)
        let error = await thrown { _ = try await layout.validateAndApply([.configureLayout(LayoutPatch(width: 200))]) }
        guard case .invalidValue(let field, let value, _)? = error else { return #expect(Bool(false)) }
        #expect(field == "width" && value == "200")
        #expect(layout.itemFrames(0) == before && layout.width == 320)
    }

    /// `layout.css` takes no stamps: their fixed edges do not scale with the columns.
    @Test func responsiveLayoutsRefuseStamps() {
        #expect(throws: LayoutError.self) {
            try ResponsiveLayout.compute(Self.example, minWidth: 300, maxWidth: 600)
        }
        var spec = Self.example
        spec.sections[0].properties.stamps = []
        #expect(throws: Never.self) { try ResponsiveLayout.compute(spec, minWidth: 300, maxWidth: 600) }
    }
}
