import Testing
import WaterfallLayout

/// The Geometry article's "Shortest column first", step by step, with every frame worked out by hand.
///
/// Unless a case says otherwise: 2 columns of 100 in a width of 210 (spacing 10), or 3 columns of 100 in 320, and
/// `colY` lists each column's next y after the items before.
@Suite struct PlacementTests {
    /// One single-section case: the layout, then the item frames and section height expected.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var layout: LayoutSpec
        var frames: [Rect]
        var height: Double
        var testDescription: String { name }

        init(
            _ name: String, width: Double, scale: Double = 0, _ properties: SectionProperties, _ items: [Item],
            frames: [Rect], height: Double
        ) {
            self.name = name
            layout = LayoutSpec(
                width: width, scale: scale, sections: [SectionSpec(properties: properties, items: items)])
            self.frames = frames
            self.height = height
        }
    }

    static let two = SectionProperties()
    static let three = SectionProperties(columns: 3)
    static func span(_ height: Double, _ span: Span) -> Item { Item(height: height, span: span) }

    static let cases: [Case] = [
        // Step 3, shortest.
        Case(
            "shortest: each item to the shortest column", width: 210, two, items([50, 30, 20, 40]),
            // colY [60, 0] → [60, 40] → item 2 in column 1 at 40 → [60, 70] → item 3 in column 0 at 60.
            frames: [rect(0, 0, 100, 50), rect(110, 0, 100, 30), rect(110, 40, 100, 20), rect(0, 60, 100, 40)],
            height: 100),
        Case(
            "shortest: ties go to the leftmost", width: 320, three, items([20, 20, 20, 20, 20]),
            // All columns equal → 0, 1, 2; then colY [30, 30, 30] → 0, then 1.
            frames: [
                rect(0, 0, 100, 20), rect(110, 0, 100, 20), rect(220, 0, 100, 20), rect(0, 30, 100, 20),
                rect(110, 30, 100, 20),
            ], height: 50),
        Case(
            "tolerance: a column left of the shortest within tolerance wins", width: 210,
            SectionProperties(tolerance: 5), items([50, 47, 10]),
            // colY [60, 57]: 60 <= 57 + 5 → column 0.
            frames: [rect(0, 0, 100, 50), rect(110, 0, 100, 47), rect(0, 60, 100, 10)], height: 70),
        Case(
            "tolerance 0: the same items go to the strictly shortest", width: 210, two, items([50, 47, 10]),
            frames: [rect(0, 0, 100, 50), rect(110, 0, 100, 47), rect(110, 57, 100, 10)], height: 67),
        Case(
            "tolerance: the bound is inclusive", width: 210, SectionProperties(tolerance: 5), items([50, 45, 10]),
            // colY [60, 55]: 60 <= 55 + 5.
            frames: [rect(0, 0, 100, 50), rect(110, 0, 100, 45), rect(0, 60, 100, 10)], height: 70),
        Case(
            "tolerance: just outside the bound", width: 210, SectionProperties(tolerance: 4.5), items([50, 45, 10]),
            // colY [60, 55]: 60 > 59.5.
            frames: [rect(0, 0, 100, 50), rect(110, 0, 100, 45), rect(110, 55, 100, 10)], height: 65),
        Case(
            "tolerance: the leftmost within, not the nearest", width: 320,
            SectionProperties(columns: 3, rowSpacing: 0, tolerance: 4), items([8, 5, 6, 1]),
            // Items 1 and 2: bound 0 + 4, the columns to their left are above it. colY [8, 5, 6]: m = 5, bound 9
            // → column 0 (column 2 at 6 is nearer the shortest, but right of column 0).
            frames: [rect(0, 0, 100, 8), rect(110, 0, 100, 5), rect(220, 0, 100, 6), rect(0, 8, 100, 1)], height: 9),
        Case(
            "tolerance 2: the same columns, column 0 now outside", width: 320,
            SectionProperties(columns: 3, rowSpacing: 0, tolerance: 2), items([8, 5, 6, 1]),
            // colY [8, 5, 6]: bound 7 → column 1.
            frames: [rect(0, 0, 100, 8), rect(110, 0, 100, 5), rect(220, 0, 100, 6), rect(110, 5, 100, 1)], height: 8),
        // Step 3, next.
        Case(
            "next: round robin, whatever the heights", width: 320, SectionProperties(columns: 3, placement: .next),
            items([50, 10, 10, 10, 10]),
            // Columns 0, 1, 2, 0, 1; colY [60, 20, 20] before item 3.
            frames: [
                rect(0, 0, 100, 50), rect(110, 0, 100, 10), rect(220, 0, 100, 10), rect(0, 60, 100, 10),
                rect(110, 20, 100, 10),
            ], height: 70),
        Case(
            "next: the tolerance is ignored", width: 210, SectionProperties(placement: .next, tolerance: 100),
            items([10, 50, 10]),
            frames: [rect(0, 0, 100, 10), rect(110, 0, 100, 50), rect(0, 20, 100, 10)], height: 50),
        Case(
            "next: a span that does not fit wraps to column 0", width: 320,
            SectionProperties(columns: 3, placement: .next),
            [
                span(10, .columns(1)), span(10, .columns(2)), span(10, .columns(2)), span(10, .columns(2)),
                span(10, .columns(1)),
            ],
            // cursor 0 → j 0, cursor 1; 1 + 2 <= 3 → j 1, cursor 0; j 0, cursor 2; 2 + 2 > 3 → j 0, cursor 2;
            // 2 + 1 <= 3 → j 2. colY [20, 20, 20] → [40, 40, 20] → [60, 60, 20].
            frames: [
                rect(0, 0, 100, 10), rect(110, 0, 210, 10), rect(0, 20, 210, 10), rect(0, 40, 210, 10),
                rect(220, 20, 100, 10),
            ], height: 50),
        Case(
            "next: a full span wraps, then the cursor is back at 0", width: 320,
            SectionProperties(columns: 3, placement: .next),
            [span(10, .columns(1)), span(10, .full), span(10, .columns(1))],
            // 1 + 3 > 3 → j 0 at max(20, 0, 0); cursor (0 + 3) % 3 = 0.
            frames: [rect(0, 0, 100, 10), rect(0, 20, 320, 10), rect(0, 40, 100, 10)], height: 50),
        // Step 3, the span window.
        Case(
            "span window: the start whose window maximum is least", width: 320,
            SectionProperties(columns: 3, rowSpacing: 0), items([30, 15, 20]) + [span(5, .columns(2))],
            // colY [30, 15, 20]: cand(0) = 30, cand(1) = 20 → j 1 at 20.
            frames: [rect(0, 0, 100, 30), rect(110, 0, 100, 15), rect(220, 0, 100, 20), rect(110, 20, 210, 5)],
            height: 30),
        Case(
            "span window with tolerance: the leftmost window within it", width: 320,
            SectionProperties(columns: 3, rowSpacing: 0, tolerance: 10), items([30, 15, 20]) + [span(5, .columns(2))],
            // Items 1 and 2: bound 0 + 10, the columns to their left are above it. cand [30, 20]: 30 <= 30 → j 0.
            frames: [rect(0, 0, 100, 30), rect(110, 0, 100, 15), rect(220, 0, 100, 20), rect(0, 30, 210, 5)],
            height: 35),
        Case(
            "span window: a tall column in the middle blocks both windows over it", width: 430,
            SectionProperties(columns: 4, rowSpacing: 0), items([5, 20]) + [span(10, .columns(2))],
            // 4 columns of (430 - 30) / 4 = 100; colY [5, 20, 0, 0]: cand [20, 20, 0] → j 2.
            frames: [rect(0, 0, 100, 5), rect(110, 0, 100, 20), rect(220, 0, 210, 10)], height: 20),
        Case(
            "span window: equal window maxima tie to the leftmost", width: 430,
            SectionProperties(columns: 4, rowSpacing: 0), items([5, 20]) + [span(10, .columns(3))],
            // colY [5, 20, 0, 0]: cand [20, 20] → j 0 at 20.
            frames: [rect(0, 0, 100, 5), rect(110, 0, 100, 20), rect(0, 20, 320, 10)], height: 30),
        Case(
            "span clamped to the column count", width: 320, three, [span(10, .columns(5)), span(10, .columns(1))],
            // s = min(5, 3) = 3: the whole width; colY [20, 20, 20].
            frames: [rect(0, 0, 320, 10), rect(0, 20, 100, 10)], height: 30),
        Case(
            "full span waits for the tallest column", width: 210, two,
            [span(10, .columns(1)), span(30, .columns(1)), span(10, .full)],
            // colY [20, 40] → y 40.
            frames: [rect(0, 0, 100, 10), rect(110, 0, 100, 30), rect(0, 40, 210, 10)], height: 50),
        Case(
            "span 1 in a single column, full in a single column", width: 100, SectionProperties(columns: 1),
            [span(10, .full), span(10, .columns(2))],
            frames: [rect(0, 0, 100, 10), rect(0, 20, 100, 10)], height: 30),
        // Step 3, heights.
        Case(
            "aspect: h * itemWidth / w", width: 210, two,
            [Item(height: 3, aspectWidth: 4), Item(height: 100, aspectWidth: 420, span: .full)],
            // 3 * 100 / 4 = 75; the full span is 210 wide: 100 * 210 / 420 = 50, at max(85, 0).
            frames: [rect(0, 0, 100, 75), rect(0, 85, 210, 50)], height: 135),
        Case(
            "aspect: evaluated as (h * itemWidth) / w", width: 230, two, [Item(height: 0.3, aspectWidth: 3)],
            // cw (230 - 10) / 2 = 110; 0.3 * 110 rounds to 33 exactly, / 3 = 11 (0.3 * (110 / 3) gives 10.999...).
            frames: [rect(0, 0, 110, 11)], height: 11),
        Case(
            "aspect: another order would round differently", width: 375, two, [Item(height: 0.7, aspectWidth: 7)],
            // 0.7 * 182.5 = 127.74999999999999, / 7 = 18.249999999999996 (0.7 / 7 * 182.5 gives 18.25).
            frames: [rect(0, 0, 182.5, 18.249999999999996)], height: 18.249999999999996),
        Case(
            "aspect: the width of a clamped span", width: 320, three,
            [Item(height: 1, aspectWidth: 4, span: .columns(5))],
            // s = 3: the item is 320 wide, 1 * 320 / 4 = 80.
            frames: [rect(0, 0, 320, 80)], height: 80),
        Case(
            "aspect: a full span in one column is the column", width: 100, SectionProperties(columns: 1),
            [Item(height: 2, aspectWidth: 5, span: .full)], frames: [rect(0, 0, 100, 40)], height: 40),
        Case(
            "aspect: zero height", width: 210, two, [Item(height: 0, aspectWidth: 5), Item(height: 10)],
            // colY [10, 0]: the second item goes to column 1.
            frames: [rect(0, 0, 100, 0), rect(110, 0, 100, 10)], height: 10),
        // Pixel snapping of heights: (h * scale).rounded() / scale, half away from zero.
        Case(
            "scale 2: 10.25 → 10.5, 10.2 → 10, 10.75 → 11, 0.25 → 0.5, 0.2 → 0", width: 100, scale: 2,
            SectionProperties(columns: 1, rowSpacing: 0), items([10.25, 10.2, 10.75, 0.25, 0.2]),
            frames: [
                rect(0, 0, 100, 10.5), rect(0, 10.5, 100, 10), rect(0, 20.5, 100, 11), rect(0, 31.5, 100, 0.5),
                rect(0, 32, 100, 0),
            ], height: 32),
        Case(
            "scale 3: 10.5 → 32 / 3, 10.1 → 10", width: 100, scale: 3, SectionProperties(columns: 1, rowSpacing: 0),
            items([10.5, 10.1]), frames: [rect(0, 0, 100, 32.0 / 3), rect(0, 32.0 / 3, 100, 10)],
            height: 32.0 / 3 + 10),
        Case(
            "scale 1: 0.5 → 1, 2.5 → 3, 1.49 → 1", width: 100, scale: 1, SectionProperties(columns: 1, rowSpacing: 0),
            items([0.5, 2.5, 1.49]), frames: [rect(0, 0, 100, 1), rect(0, 1, 100, 3), rect(0, 4, 100, 1)], height: 5),
        Case(
            "scale 2 snaps the aspect height from the snapped width", width: 100, scale: 2,
            SectionProperties(columns: 3), [Item(height: 1, aspectWidth: 2)],
            // cw 26.67 → 26.5; 1 * 26.5 / 2 = 13.25 → 26.5 * 2 rounds to 27 → 13.5.
            frames: [rect(0, 0, 26.5, 13.5)], height: 13.5),
        Case(
            "scale 2 snaps nothing else: insets and spacing stay as given", width: 100, scale: 2,
            SectionProperties(
                columns: 1, rowSpacing: 0.25, insets: Insets(top: 0.125, left: 0.25, bottom: 0.375, right: 0.25)),
            items([10, 10]),
            // cw 99.5; y 0.125 and 0.125 + 10 + 0.25; height 20.375 + 0.375.
            frames: [rect(0.25, 0.125, 99.5, 10), rect(0.25, 10.375, 99.5, 10)], height: 20.75),
        // Step 3, rowSpacing; steps 4 and 6.
        Case(
            "rowSpacing 7 between stacked items, none after the last", width: 100,
            SectionProperties(columns: 1, rowSpacing: 7), items([10, 20, 30]),
            frames: [rect(0, 0, 100, 10), rect(0, 17, 100, 20), rect(0, 44, 100, 30)], height: 74),
        Case(
            "insets move items; the bottom inset adds to the height", width: 210,
            SectionProperties(insets: Insets(top: 5, left: 10, bottom: 7, right: 20)), items([10, 20]),
            // cw (210 - 30 - 10) / 2 = 85; x 10 and 105.
            frames: [rect(10, 5, 85, 10), rect(105, 5, 85, 20)], height: 32),
        Case(
            "zero-height items still take rowSpacing", width: 100, SectionProperties(columns: 1), items([0, 0, 10]),
            frames: [rect(0, 0, 100, 0), rect(0, 10, 100, 0), rect(0, 20, 100, 10)], height: 30),
        Case(
            "only zero-height items: itemsBottom = max(top, y + h)", width: 100,
            SectionProperties(columns: 1, insets: Insets(top: 3, left: 0, bottom: 4, right: 0)), items([0, 0]),
            // y 3 and 13; itemsBottom 13; + 4.
            frames: [rect(0, 3, 100, 0), rect(0, 13, 100, 0)], height: 17),
    ]

    @Test(arguments: cases)
    func placement(_ c: Case) async throws {
        let layout = try await build(c.layout)
        #expect(layout.itemFrames(0) == c.frames)
        #expect(layout.frames(ofSection: 0).height == c.height)
        #expect(layout.contentSize == Size(width: c.layout.width, height: c.height))
    }

    /// Many columns (17, where the engine switches to a heap of columns): ties still go to the leftmost, whether the
    /// items come at creation or are appended one by one.
    @Test(arguments: [false, true])
    func manyColumnsTieToTheLeftmost(appended: Bool) async throws {
        // 17 columns of 10 (width 170, spacing 0), rowSpacing 0. Items 17, 16, ..., 1 fill columns 0 to 16, so that
        // colY[j] = 17 - j.
        let first = (0..<17).map { Double(17 - $0) }
        let rest: [Double] = [20, 1, 1, 1, 1]
        let properties = SectionProperties(columns: 17, columnSpacing: 0, rowSpacing: 0)
        var layout = try await build(spec(width: 170, properties, heights: appended ? first : first + rest))
        if appended {
            for (k, height) in rest.enumerated() {
                _ = try await layout.validateAndApply([
                    .insertItems(section: 0, at: 17 + k, items: plainItems([height]))
                ])
            }
        }
        let expected =
            (0..<17).map { rect(Double($0) * 10, 0, 10, Double(17 - $0)) } + [
                rect(160, 1, 10, 20),  // column 16 at 1 → 21
                rect(150, 2, 10, 1),  // column 15 at 2 → 3
                rect(140, 3, 10, 1),  // columns 14 and 15 tie at 3: 14 → 4
                rect(150, 3, 10, 1),  // column 15 at 3 → 4
                rect(130, 4, 10, 1),  // columns 13, 14 and 15 tie at 4: 13
            ]
        #expect(layout.itemFrames(0) == expected)
        #expect(layout.frames(ofSection: 0).height == 21)
    }

    /// Two, three and five columns are placed in registers by a branchless pick: ties still go to the leftmost
    /// shortest column, wherever the tie is.
    @Test(arguments: [2, 3, 5])
    func columnsInRegistersTieToTheLeftmost(columns: Int) async throws {
        // Columns of 10 (spacing 0). Equal items fill the columns left to right, row by row; then a short item
        // goes to the first column, and the tie it leaves between the others goes to the leftmost again.
        let heights = Array(repeating: 5.0, count: 2 * columns) + [1, 5, 5]
        let properties = SectionProperties(columns: columns, columnSpacing: 0, rowSpacing: 0)
        let layout = try await build(spec(width: Double(10 * columns), properties, heights: heights))
        var expected = (0..<(2 * columns)).map { k in rect(Double(k % columns) * 10, Double(k / columns) * 5, 10, 5) }
        expected.append(rect(0, 10, 10, 1))  // all tie at 10: column 0 → 11
        // Columns 1... tie at 10 (column 0 is at 11): the next goes to column 1, then column 2 (or 0 for two).
        expected.append(rect(10, 10, 10, 5))
        expected.append(columns == 2 ? rect(0, 11, 10, 5) : rect(20, 10, 10, 5))
        #expect(layout.itemFrames(0) == expected)
    }

    /// Steps 1, 2, 5 and 6: header and footer blocks with their insets; the next section starts at the bottom.
    @Test func headerAndFooterBlocks() async throws {
        let first = SectionProperties(
            insets: Insets(top: 3, left: 10, bottom: 4, right: 20), headerHeight: 40, footerHeight: 30,
            headerInsets: Insets(top: 5, left: 8, bottom: 7, right: 12),
            footerInsets: Insets(top: 2, left: 6, bottom: 9, right: 4))
        let layout = try await build(
            LayoutSpec(
                width: 300,
                sections: [
                    SectionSpec(properties: first, items: items([20, 50])),
                    SectionSpec(items: items([10])),
                ]))
        let section = layout.frames(ofSection: 0)
        // Header: (8, 0 + 5, 300 - 8 - 12, 40); block 5 + 40 + 7 = 52; top 52 + 3 = 55.
        #expect(section.header == rect(8, 5, 280, 40))
        // cw (300 - 30 - 10) / 2 = 130.
        #expect(section.items.map(\.frame) == [rect(10, 55, 130, 20), rect(150, 55, 130, 50)])
        // itemsBottom 105; footer y 105 + 4 + 2 = 111, width 300 - 6 - 4; block 2 + 30 + 9 = 41.
        #expect(section.footer == rect(6, 111, 290, 30))
        #expect(section.origin == 0)
        #expect(section.height == 105 + 4 + 41)
        // The next section starts at 150; cw (300 - 10) / 2 = 145.
        let next = layout.frames(ofSection: 1)
        #expect(next.origin == 150)
        #expect(next.header == nil && next.footer == nil)
        #expect(next.items.map(\.frame) == [rect(0, 150, 145, 10)])
        #expect(layout.contentSize == Size(width: 300, height: 160))
    }

    /// A header or footer exists only when its height is > 0: their insets alone add nothing.
    @Test func zeroHeightHeaderAndFooterTakeNoSpace() async throws {
        let insets = Insets(top: 5, left: 5, bottom: 5, right: 5)
        let properties = SectionProperties(
            columns: 1, headerHeight: 0, footerHeight: 0, headerInsets: insets, footerInsets: insets)
        let layout = try await build(spec(width: 100, properties, heights: [10]))
        let section = layout.frames(ofSection: 0)
        #expect(section.header == nil && section.footer == nil)
        #expect(section.items.map(\.frame) == [rect(0, 0, 100, 10)])
        #expect(section.height == 10)
    }

    /// An empty section: header block + insets.top + insets.bottom + footer block, and no row spacing anywhere.
    @Test func emptySectionAddsNoStraySpacing() async throws {
        let properties = SectionProperties(
            rowSpacing: 10, insets: Insets(top: 5, left: 0, bottom: 6, right: 0), headerHeight: 20, footerHeight: 30)
        let layout = try await build(
            LayoutSpec(
                width: 200,
                sections: [SectionSpec(properties: properties), SectionSpec(items: items([10]))]))
        let section = layout.frames(ofSection: 0)
        #expect(section.header == rect(0, 0, 200, 20))
        // itemsBottom = top = 20 + 5; footer at 25 + 6.
        #expect(section.footer == rect(0, 31, 200, 30))
        #expect(section.height == 20 + 5 + 6 + 30)
        #expect(layout.frames(ofSection: 1).origin == 61)
        #expect(layout.contentSize.height == 71)
    }

    /// A section with no items, header, footer or insets is 0 tall, and the next one starts where it does.
    @Test func emptySectionWithNothingIsZeroTall() async throws {
        let layout = try await build(
            LayoutSpec(
                width: 200,
                sections: [SectionSpec(), SectionSpec(items: items([10])), SectionSpec(), SectionSpec()]))
        #expect((0..<4).map { layout.frames(ofSection: $0).origin } == [0, 0, 10, 10])
        #expect((0..<4).map { layout.frames(ofSection: $0).height } == [0, 10, 0, 0])
        #expect(layout.contentSize == Size(width: 200, height: 10))
    }

    struct ContentCase: Sendable, CustomTestStringConvertible {
        var name: String
        var heights: [[Double]]
        var minContentHeight: Double
        var height: Double
        var testDescription: String { name }
    }

    static let contentCases: [ContentCase] = [
        ContentCase(name: "no sections: 0", heights: [], minContentHeight: 0, height: 0),
        ContentCase(name: "no sections: minContentHeight", heights: [], minContentHeight: 500, height: 500),
        ContentCase(name: "only empty sections: minContentHeight", heights: [[], []], minContentHeight: 7, height: 7),
        ContentCase(
            name: "sections shorter than the minimum", heights: [[10], [20]], minContentHeight: 100, height: 100),
        ContentCase(
            name: "sections taller than the minimum", heights: [[100], [20, 30]], minContentHeight: 50, height: 160),
        ContentCase(name: "exactly the minimum", heights: [[40]], minContentHeight: 40, height: 40),
    ]

    /// Content size: `(width, max(lastSectionBottom, minContentHeight))`, with 1-column sections.
    @Test(arguments: contentCases)
    func contentSize(_ c: ContentCase) async throws {
        let sections = c.heights.map { SectionSpec(properties: SectionProperties(columns: 1), items: items($0)) }
        let layout = try await build(
            LayoutSpec(width: 100, minContentHeight: c.minContentHeight, sections: sections))
        #expect(layout.contentSize == Size(width: 100, height: c.height))
    }

    /// `rtl` mirrors every frame: `x' = width - x - w`, headers and footers too.
    @Test func rtlMirrorsItemsHeadersAndFooters() async throws {
        // width 330, insets.left 30, spacing 0: 3 columns of 100 at ltr x 30, 130, 230.
        let properties = SectionProperties(
            columns: 3, columnSpacing: 0, insets: Insets(top: 0, left: 30, bottom: 0, right: 0), headerHeight: 10,
            footerHeight: 10, headerInsets: Insets(top: 0, left: 8, bottom: 0, right: 2),
            footerInsets: Insets(top: 0, left: 0, bottom: 0, right: 10))
        let section = SectionSpec(
            properties: properties, items: items([10, 20, 30]) + [Item(height: 5, span: .columns(2))])
        let layout = try await build(LayoutSpec(width: 330, direction: .rtl, sections: [section]))
        let frames = layout.frames(ofSection: 0)
        // Header ltr (8, 0, 320, 10) → x 330 - 8 - 320 = 2.
        #expect(frames.header == rect(2, 0, 320, 10))
        // Ties to the leftmost in ltr terms: item 0 is in ltr column 0, which is drawn rightmost (330 - 30 - 100).
        // Item 3 (span 2): colY [30, 40, 50] → window 0 at 40, ltr x 30, width 200 → 330 - 30 - 200 = 100.
        #expect(
            frames.items.map(\.frame) == [
                rect(200, 10, 100, 10), rect(100, 10, 100, 20), rect(0, 10, 100, 30), rect(100, 40, 200, 5),
            ])
        // itemsBottom 45 (item 2 ends at 40, item 3 at 45); footer ltr (0, 45, 320, 10) → x 330 - 0 - 320 = 10.
        #expect(frames.footer == rect(10, 45, 320, 10))
    }

    /// With `next`, rtl is the render direction: the cursor's column 0 is drawn on the right.
    @Test func rtlWithNextPlacement() async throws {
        let layout = try await build(
            spec(
                width: 210, direction: .rtl, SectionProperties(placement: .next), heights: [50, 10, 10]))
        // ltr columns 0, 1, 0 at x 0, 110, 0 → rtl 110, 0, 110.
        #expect(layout.itemFrames(0) == [rect(110, 0, 100, 50), rect(0, 0, 100, 10), rect(110, 60, 100, 10)])
    }

    /// Two sections and an rtl layout: origins add up, mirroring does not touch y.
    @Test func rtlAcrossSections() async throws {
        let layout = try await build(
            LayoutSpec(
                width: 210, direction: .rtl,
                sections: [
                    SectionSpec(items: items([30, 10])),
                    SectionSpec(properties: SectionProperties(columns: 1), items: items([5])),
                ]))
        #expect(layout.itemFrames(0) == [rect(110, 0, 100, 30), rect(0, 0, 100, 10)])
        #expect(layout.itemFrames(1) == [rect(0, 30, 210, 5)])
    }
}
