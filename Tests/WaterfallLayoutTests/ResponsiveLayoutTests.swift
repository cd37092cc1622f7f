import Testing
import WaterfallLayout
import WaterfallTestSupport

/// `ResponsiveLayout` against the engine itself: at every width checked (random grid widths, and both sides of
/// every piece's start), each frame of the piece that holds the width equals a fresh `Layout.make` at that width.
@Suite struct ResponsiveLayoutTests {
    @Test(arguments: 0..<40)
    func piecesEqualFreshLayouts(seed: Int) async throws {
        var feeds = ResponsiveFeeds(seed: UInt64(9100 + seed))
        try await Self.checkPieces(&feeds, seed: seed)
    }

    /// Feeds whose sections mostly have columns of different widths (`columnWidths`): each column's x and width is
    /// its own line in the width, and an aspect item's height follows its own column.
    @Test(arguments: 0..<24)
    func weightedPiecesEqualFreshLayouts(seed: Int) async throws {
        var feeds = ResponsiveFeeds(seed: UInt64(9300 + seed), columnWidthsChance: 0.8)
        try await Self.checkPieces(&feeds, seed: seed)
    }

    /// Checks a feed of `feeds` at random grid widths and both sides of every piece's start (a first page for every
    /// fourth seed).
    static func checkPieces(_ feeds: inout ResponsiveFeeds, seed: Int) async throws {
        let (spec, minWidth, maxWidth) = feeds.feed()
        let firstItems: Int? = seed % 4 == 3 ? feeds.random.int(0...12) : nil
        let responsive = try ResponsiveLayout.compute(
            spec, minWidth: minWidth, maxWidth: maxWidth, firstItems: firstItems)
        var widths = (0..<40).map { _ in Double(feeds.random.int(Int(minWidth * 64)...Int(maxWidth * 64))) / 64 }
        for piece in responsive.pieces.dropFirst() { widths += [piece.start - responsive.step, piece.start] }
        widths += [minWidth, maxWidth]
        for width in widths {
            let worst = try await Self.largestDifference(responsive, spec, width: width, firstItems: firstItems)
            #expect(worst <= 1e-6, "seed \(seed), width \(width): off by \(worst); \(responsive.pieces.count) pieces")
        }
    }

    @Test func adaptiveColumnsSplitWhereTheCountChanges() throws {
        // Columns of at least 100 with 10 between: 2 columns from 210, 3 from 320 (and nothing else flips: one item).
        let spec = LayoutSpec(
            width: 0, sections: [SectionSpec(properties: SectionProperties(minColumnWidth: 100), items: items([50]))])
        let responsive = try ResponsiveLayout.compute(spec, minWidth: 150, maxWidth: 400)
        #expect(responsive.pieces.map(\.start) == [150, 210, 320])
        #expect(responsive.pieces.map { $0.sections[0].columnCount } == [1, 2, 3])
        // The item's width in the 2-column piece: (W - 10) / 2.
        #expect(responsive.pieces[1].sections[0].items[0].width == LinearLength(constant: -5, slope: 0.5))
    }

    @Test func crossingHeightsSplitWhereTheyCross() throws {
        // Two columns: a square (height = column width) and a 100-high item; the third item goes under whichever
        // is shorter, so it moves to column 0 once (W - 10) / 2 < 100, that is below W = 210; above 270 the square
        // (W - 10) / 2 is the lowest bottom, rather than 100 + 10 + 20 under the fixed item.
        let spec = LayoutSpec(
            width: 0,
            sections: [
                SectionSpec(
                    properties: SectionProperties(columns: 2),
                    items: [Item(height: 1, aspectWidth: 1), Item(height: 100), Item(height: 20)])
            ])
        let responsive = try ResponsiveLayout.compute(spec, minWidth: 150, maxWidth: 300)
        #expect(responsive.pieces.map(\.start) == [150, 210 + 1.0 / 64, 270])
        #expect(responsive.pieces[0].sections[0].items[2].x == LinearLength(constant: 0))
        #expect(responsive.pieces[1].sections[0].items[2].x == LinearLength(constant: 5, slope: 0.5))
    }

    @Test func pixelSnappingIsRefused() {
        let spec = LayoutSpec(width: 0, scale: 2, sections: [SectionSpec(items: items([50]))])
        #expect(throws: LayoutError.self) { try ResponsiveLayout.compute(spec, minWidth: 300, maxWidth: 400) }
    }

    @Test func tooManyPiecesIsALimit() throws {
        // A column count that changes every 11 px: 454 pieces of 3 elements.
        let many = LayoutSpec(
            width: 0, sections: [SectionSpec(properties: SectionProperties(minColumnWidth: 1), items: items([5]))])
        var refused = false
        do {
            _ = try ResponsiveLayout.compute(many, minWidth: 10, maxWidth: 5000, maxPieceElements: 1000)
        } catch {
            if case .limit = error { refused = true }
        }
        #expect(refused)
    }

    @Test func tooManyComparisonsIsALimitBeforeAnyWork() {
        // 512 columns and items spanning 256: 257 starts of 256 columns each, about 66,000 comparisons per item.
        let wide = LayoutSpec(
            width: 0,
            sections: [
                SectionSpec(
                    properties: SectionProperties(columns: 512, columnSpacing: 0),
                    items: Array(repeating: Item(height: 1, span: .columns(256)), count: 400))
            ])
        var refused = false
        do {
            _ = try ResponsiveLayout.compute(wide, minWidth: 1000, maxWidth: 1001)
        } catch {
            if case .limit = error { refused = true }
        }
        #expect(refused)
    }

    /// The largest difference between a coordinate of the piece that holds `width` and a fresh layout's.
    static func largestDifference(
        _ responsive: ResponsiveLayout, _ spec: LayoutSpec, width: Double, firstItems: Int?
    ) async throws -> Double {
        let layout = try await Layout.make(ResponsiveFeeds.spec(spec, width: width, firstItems: firstItems)).layout
        let piece = responsive.piece(at: width)
        var worst = (piece.contentHeight.at(width) - layout.contentSize.height).magnitude
        func compare(_ a: Rect?, _ b: Rect?) {
            guard let a, let b else {
                if (a == nil) != (b == nil) { worst = .infinity }
                return
            }
            worst = max(
                worst, (a.x - b.x).magnitude, (a.y - b.y).magnitude, (a.width - b.width).magnitude,
                (a.height - b.height).magnitude)
        }
        for (s, section) in piece.sections.enumerated() {
            let frames = layout.frames(ofSection: s)
            let origin = section.origin.at(width)
            worst = max(worst, (origin - frames.origin).magnitude)
            compare(section.header?.at(width, dy: origin), frames.header)
            compare(section.footer?.at(width, dy: origin), frames.footer)
            if section.items.count != frames.items.count { return .infinity }
            for (item, frame) in zip(section.items, frames.items) { compare(item.at(width, dy: origin), frame.frame) }
        }
        return worst
    }
}
