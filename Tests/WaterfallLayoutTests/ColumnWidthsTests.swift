import Testing
import WaterfallLayout

/// `columnWidths` (the Geometry article, "Columns of different widths"), worked out by hand. In 430 points, three
/// columns of `[2, 1, 1]` share 430 − 2 × 10 = 410: 205, 102.5 and 102.5 wide, at x = 0, 215 and 327.5.
@Suite struct ColumnWidthsTests {
    static let weighted = SectionProperties(columns: 3, columnWidths: [2, 1, 1])

    /// The article's items: 120, 60, 40, a 2:1 picture, a span of two, another 2:1 picture.
    static let example =
        items([120, 60, 40]) + [
            Item(height: 1, aspectWidth: 2), Item(height: 20, span: .columns(2)), Item(height: 1, aspectWidth: 2),
        ]

    static func spec(
        width: Double = 430, scale: Double = 0, direction: Direction = .ltr, _ properties: SectionProperties,
        _ items: [Item]
    ) -> LayoutSpec {
        LayoutSpec(
            width: width, scale: scale, direction: direction,
            sections: [SectionSpec(properties: properties, items: items)])
    }

    static let expected = [
        rect(0, 0, 205, 120), rect(215, 0, 102.5, 60), rect(327.5, 0, 102.5, 40), rect(327.5, 50, 102.5, 51.25),
        rect(215, 111.25, 215, 20), rect(0, 130, 205, 102.5),
    ]

    @Test func eachColumnTakesItsShareAndAspectItemsFollowTheirColumn() async throws {
        let layout = try await build(Self.spec(Self.weighted, Self.example))
        #expect(layout.itemFrames(0) == Self.expected)
        #expect(layout.frames(ofSection: 0).height == 232.5)
        #expect(layout.columnLanes(ofSection: 0).map(\.width) == [205, 102.5, 102.5])
        #expect(layout.columnLanes(ofSection: 0).map(\.x) == [0, 215, 327.5])
    }

    /// Right to left mirrors every frame: x' = 430 − x − w, the wide column on the right.
    @Test func rightToLeftMirrorsTheColumns() async throws {
        let layout = try await build(Self.spec(direction: .rtl, Self.weighted, Self.example))
        let mirrored = Self.expected.map { rect(430 - $0.x - $0.width, $0.y, $0.width, $0.height) }
        #expect(layout.itemFrames(0) == mirrored)
        #expect(layout.columnLanes(ofSection: 0).map(\.x) == [225, 112.5, 0])
    }

    /// Under `scale` 1 each share is snapped down: 431 leaves 411, so 205.5 → 205 and 102.75 → 102; x = 0, 215, 327.
    @Test func sharesAreSnappedToThePixelGrid() async throws {
        let layout = try await build(Self.spec(width: 431, scale: 1, Self.weighted, items([10, 10, 10])))
        #expect(layout.itemFrames(0) == [rect(0, 0, 205, 10), rect(215, 0, 102, 10), rect(327, 0, 102, 10)])
    }

    /// Round robin takes its turns whatever the widths; a span covers the widths of its columns plus the gaps.
    @Test func nextPlacementAndFullSpans() async throws {
        let layout = try await build(
            Self.spec(
                SectionProperties(columns: 3, placement: .next, columnWidths: [1, 2, 1]),
                items([10, 10]) + [Item(height: 5, span: .full), Item(height: 30, aspectWidth: 102.5)]))
        #expect(
            layout.itemFrames(0) == [
                rect(0, 0, 102.5, 10), rect(112.5, 0, 205, 10), rect(0, 20, 430, 5), rect(0, 35, 102.5, 30),
            ])
    }

    /// Unset or reset, the columns are equal again, byte for byte as a section that never set weights.
    @Test func resettingGivesEqualColumns() async throws {
        var layout = try await build(Self.spec(Self.weighted, Self.example))
        var patch = SectionPatch()
        patch.columnWidths = .reset
        _ = try await layout.validateAndApply([.configureSection(0, patch)])
        let plain = try await build(Self.spec(SectionProperties(columns: 3), Self.example))
        #expect(layout.itemFrames(0) == plain.itemFrames(0))
        #expect(layout.properties(ofSection: 0) == SectionProperties(columns: 3))
    }

    /// A stable section keeps its columns when the weights change (the count and the rule do not); the items are
    /// stacked again at the new widths.
    @Test func stableSectionsKeepTheirColumns() async throws {
        let stable = SectionProperties(columns: 3, reflow: .stable)
        let feed = [Item(height: 100), Item(height: 1, aspectWidth: 2), Item(height: 80), Item(height: 60)]
        var layout = try await build(Self.spec(width: 320, stable, feed))
        // Equal columns of 100: item 1 is 50 tall, and item 3 goes under it, to column 1 at 60.
        #expect(layout.itemFrames(0)[3] == rect(110, 60, 100, 60))
        var patch = SectionPatch()
        patch.columnWidths = .set([1, 3, 1])
        _ = try await layout.validateAndApply([.configureSection(0, patch)])
        // 300 shared 1:3:1 is 60, 180, 60 at x = 0, 70, 260. Item 1 is now 90 tall, so column 1 goes on at 100,
        // below column 2 (90): exact placement would move item 3 there; the stable section keeps it in column 1.
        #expect(
            layout.itemFrames(0) == [
                rect(0, 0, 60, 100), rect(70, 0, 180, 90), rect(260, 0, 60, 80), rect(70, 100, 180, 60),
            ])
    }

    @Test(arguments: [
        (
            SectionProperties(columns: 2, columnWidths: [2, 1, 1]),
            "sections[0].columnWidths: [2, 1, 1] lists 3 weights for 2 columns: give one per column (section 0)"
        ),
        (
            SectionProperties(minColumnWidth: 100, columnWidths: [1, 1, 1, 1]),
            "sections[0].columnWidths: [1, 1, 1, 1] needs a fixed column count (columns): with minColumnWidth the "
                + "count follows the width, and one list of weights cannot fit every count (section 0)"
        ),
        (
            SectionProperties(columns: 2, columnWidths: [1, 0]),
            "sections[0].columnWidths[1]: 0 must be a number from 1e-6 to 1e6"
        ),
        (
            SectionProperties(columns: 2, stamps: [Stamp(column: 0, y: 0, height: 10)], columnWidths: [2, 1]),
            "sections[0].stamps: 1 stamps cannot go with columnWidths (section 0): stamps need columns of equal width"
        ),
        (
            SectionProperties(columns: 1, columnWidths: []),
            "sections[0].columnWidths: 0 weights must list 1 to 1024 weights, one per column"
        ),
    ])
    func badWeightsAreRefused(_ properties: SectionProperties, _ message: String) async {
        let error = await thrown { _ = try await build(Self.spec(properties, [])) }
        #expect(error?.description == message)
    }

    /// A patch to the count that leaves the weights behind is refused, and changes nothing.
    @Test func aCountThatNoLongerFitsIsRefused() async throws {
        var layout = try await build(Self.spec(Self.weighted, Self.example))
        let before = Observed(layout)
        var patch = SectionPatch()
        patch.columns = .set(2)
        let error = await thrown { _ = try await layout.validateAndApply([.configureSection(0, patch)]) }
        #expect(
            error?.description
                == "columnWidths: [2, 1, 1] lists 3 weights for 2 columns: give one per column (section 0)")
        #expect(Observed(layout) == before)
    }

    /// Over 300–600 each column is a share of `W − 20` (column 0 half of it, at 0; column 2 a quarter, at
    /// 20 + 0.75 × (W − 20)), the first 2:1 picture a quarter's half tall, and placement flips twice: item 5 leaves
    /// column 1 (at 90 + (W − 20) / 8 under the span) for column 0 (at 130) from 340, and the span leaves start 1
    /// (at 60 + (W − 20) / 8) for start 0 (at 130) from 580. Every frame is a fresh layout's at every width.
    @Test func responsiveLayoutsGiveEachColumnItsLine() async throws {
        let spec = Self.spec(Self.weighted, Self.example)
        let responsive = try ResponsiveLayout.compute(spec, minWidth: 300, maxWidth: 600)
        #expect(responsive.pieces.map(\.start) == [300, 340, 580])
        let first = responsive.pieces[0].sections[0]
        #expect(first.columns.shares == [0.5, 0.25, 0.25])
        #expect(first.items[0].width == LinearLength(constant: -10, slope: 0.5))
        #expect(first.items[2].x == LinearLength(constant: 5, slope: 0.75))
        #expect(first.items[3].height == LinearLength(constant: -2.5, slope: 0.125))
        #expect(first.items[4].width == LinearLength(constant: 0, slope: 0.5))
        #expect(responsive.pieces[1].sections[0].placements[5] == ResponsivePlacement(column: 0, span: 1))
        #expect(responsive.pieces[2].sections[0].placements[4] == ResponsivePlacement(column: 0, span: 2))
        for width in stride(from: 300.0, through: 600, by: 2.5) + [340 - 1.0 / 64, 580 - 1.0 / 64] {
            let worst = try await ResponsiveLayoutTests.largestDifference(
                responsive, spec, width: width, firstItems: nil)
            #expect(worst <= 1e-9, "width \(width): off by \(worst)")
        }
        // Right to left, the shares are counted from the left as placed: the wide column is the last.
        let rtl = try ResponsiveLayout.compute(
            Self.spec(direction: .rtl, Self.weighted, Self.example), minWidth: 300, maxWidth: 600)
        #expect(rtl.pieces[0].sections[0].columns.shares == [0.25, 0.25, 0.5])
    }
}
