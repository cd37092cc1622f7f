import Testing
import WaterfallLayout

/// `spanPlacement` (the Geometry article, "Spans placed by whitespace"), worked out by hand. Columns are 100 wide
/// with spacing 10 (4 in a width of 430, 5 in 540), rowSpacing 10; `colY` lists each column's next y.
@Suite struct SpanPlacementTests {
    static func span(_ height: Double, _ span: Int) -> Item { Item(height: height, span: .columns(span)) }

    static func spec(width: Double, _ properties: SectionProperties, _ items: [Item]) -> LayoutSpec {
        LayoutSpec(width: width, sections: [SectionSpec(properties: properties, items: items)])
    }

    /// The article's example: colY [60, 60, 15, 50]; starts 0, 1, 2 give tops 60, 60, 50 and whitespace 0, 45, 35.
    static let example = items([50, 50, 5, 40]) + [span(30, 2)]

    @Test func lowestTakesTheLowestTop() async throws {
        for rule in [SpanPlacement?.none, .lowest] {
            let layout = try await build(
                Self.spec(width: 430, SectionProperties(columns: 4, spanPlacement: rule), Self.example))
            #expect(layout.itemFrames(0)[4] == rect(220, 50, 210, 30))
        }
    }

    @Test func leastWhitespaceTakesTheWindowThatWastesLeast() async throws {
        let layout = try await build(
            Self.spec(width: 430, SectionProperties(columns: 4, spanPlacement: .leastWhitespace), Self.example))
        #expect(layout.itemFrames(0)[4] == rect(0, 60, 210, 30))
        #expect(layout.frames(ofSection: 0).height == 90)
    }

    /// colY [60, 50, 30, 20] (items 50, 40, 20, 10), a span of 2: starts 0 and 2 both waste 10 (60 − 50, 30 − 20),
    /// start 1 wastes 20; of 0 and 2 the lower top, 30, wins: start 2. Then colY [60, 50, 50, 50] and a span of 3:
    /// start 0 (top 60) wastes 20, start 1 (top 50) none.
    @Test func equalWhitespaceGoesToTheLowestTop() async throws {
        let layout = try await build(
            Self.spec(
                width: 430, SectionProperties(columns: 4, spanPlacement: .leastWhitespace),
                items([50, 40, 20, 10]) + [Self.span(10, 2), Self.span(10, 3)]))
        #expect(Array(layout.itemFrames(0)[4...]) == [rect(220, 30, 210, 10), rect(110, 50, 320, 10)])
    }

    /// colY [40, 10, 10, 40] (items 30, 0, 0, 30), a span of 2: start 1 (top 10) wastes nothing; then colY
    /// [40, 30, 30, 40] and a span of 3: starts 0 and 1 both top 40 and whitespace 20, under either tie rule the
    /// leftmost (the cursor, after the span at 1, is at 3: no start at or after it).
    @Test(arguments: [TieBreak.leftmost, .cursor])
    func fullTiesFollowTheTieRule(_ tieBreak: TieBreak) async throws {
        let layout = try await build(
            Self.spec(
                width: 430, SectionProperties(columns: 4, tieBreak: tieBreak, spanPlacement: .leastWhitespace),
                items([30, 0, 0, 30]) + [Self.span(10, 2), Self.span(10, 3)]))
        #expect(Array(layout.itemFrames(0)[4...]) == [rect(110, 10, 210, 10), rect(0, 40, 320, 10)])
    }

    /// A stable section chooses its columns again when `spanPlacement` changes, and the frames are exact
    /// placement's under the new rule.
    @Test func changingTheRuleChoosesStableColumnsAgain() async throws {
        var layout = try await build(
            Self.spec(width: 430, SectionProperties(columns: 4, reflow: .stable), Self.example))
        #expect(layout.itemFrames(0)[4] == rect(220, 50, 210, 30))
        var patch = SectionPatch()
        patch.spanPlacement = .set(.leastWhitespace)
        _ = try await layout.validateAndApply([.configureSection(0, patch)])
        #expect(layout.itemFrames(0)[4] == rect(0, 60, 210, 30))
    }

    /// `layout.css`'s pieces hold the rule: at every width of a range the pieces give the engine's frames.
    @Test func responsivePiecesFollowTheRule() async throws {
        let spec = LayoutSpec(
            width: 430,
            sections: [
                SectionSpec(
                    properties: SectionProperties(columns: 4, spanPlacement: .leastWhitespace),
                    items: [
                        Item(height: 50, aspectWidth: 100), Item(height: 30), Item(height: 5),
                        Item(height: 40, aspectWidth: 60), Self.span(30, 2), Self.span(10, 3), Item(height: 7),
                        Self.span(20, 2),
                    ])
            ])
        let responsive = try ResponsiveLayout.compute(spec, minWidth: 200, maxWidth: 900)
        #expect(responsive.pieces.count > 1)
        for width in stride(from: 200.0, through: 900, by: 12.5) {
            let worst = try await ResponsiveLayoutTests.largestDifference(
                responsive, spec, width: width, firstItems: nil)
            #expect(worst <= 1e-6, "width \(width): off by \(worst)")
        }
    }
}
