import Testing

@testable import WaterfallLayout
@testable import WaterfallModel

/// The Geometry article's two tie rules for `shortest` placement, worked out by hand: `leftmost` picks the smallest tied start;
/// `cursor` (CSS grid-lanes) the smallest tied start at or after the cursor, else the smallest, then moves the cursor
/// to `j + s`.
///
/// Columns are 100 wide with spacing 10 (3 in a width of 320, 4 in 430), rowSpacing 0; `colY` lists each column's
/// next y after the items before, `c` the cursor.
@Suite struct TieBreakTests {
    /// One section's items under both rules.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var width: Double
        var properties: SectionProperties
        var items: [Item]
        var leftmost: [Rect]
        var cursor: [Rect]
        var testDescription: String { name }
    }

    static func span(_ height: Double, _ span: Int) -> Item { Item(height: height, span: .columns(span)) }

    static let cases: [Case] = [
        Case(
            name: "exact ties, single columns: the cursor goes on from the last pick", width: 320,
            properties: SectionProperties(columns: 3, rowSpacing: 0), items: items([10, 5, 10, 5, 7, 7]),
            // Both: 0 (c 1) [10, 0, 0]; 1 (c 2) [10, 5, 0]; 2 (c 3, past the last column) [10, 5, 10]; 1 (c 2)
            // [10, 10, 10]. Item 4 ties everywhere: leftmost 0, cursor 2 (c 3). Item 5: leftmost [17, 10, 10] → 1;
            // cursor [10, 10, 17], no tie at or after 3, so the smallest tied, 0.
            leftmost: [
                rect(0, 0, 100, 10), rect(110, 0, 100, 5), rect(220, 0, 100, 10), rect(110, 5, 100, 5),
                rect(0, 10, 100, 7), rect(110, 10, 100, 7),
            ],
            cursor: [
                rect(0, 0, 100, 10), rect(110, 0, 100, 5), rect(220, 0, 100, 10), rect(110, 5, 100, 5),
                rect(220, 10, 100, 7), rect(0, 10, 100, 7),
            ]),
        Case(
            name: "tolerance ties, single columns, then a span that cannot start at or after the cursor", width: 320,
            properties: SectionProperties(columns: 3, rowSpacing: 0, tolerance: 10),
            items: items([10, 10, 10]) + [span(10, 2), span(10, 2)],
            // Item 0 at column 0 (c 1), [10, 0, 0]; item 1: bound 0 + 10 ties all three. Leftmost: 0 at 10, then
            // [20, 0, 0] → item 2 ties 1 and 2 → 1. Cursor: 1 at 0 (c 2), then 2 at 0 (c 3) → [10, 10, 10].
            // Item 3 (span 2, starts 0 and 1): leftmost cand [20, 10] bound 20 → 0 at 20; cursor cand [10, 10],
            // no start at or after 3 → 0 at 10 (c 2). Item 4: leftmost cand [30, 30] → 0 at 30; cursor cand
            // [20, 20], no start at or after 2 (the last is 1) → 0 at 20.
            leftmost: [
                rect(0, 0, 100, 10), rect(0, 10, 100, 10), rect(110, 0, 100, 10), rect(0, 20, 210, 10),
                rect(0, 30, 210, 10),
            ],
            cursor: [
                rect(0, 0, 100, 10), rect(110, 0, 100, 10), rect(220, 0, 100, 10), rect(0, 10, 210, 10),
                rect(0, 20, 210, 10),
            ]),
        Case(
            name: "exact ties, a span: the window at the cursor wins", width: 430,
            properties: SectionProperties(columns: 4, rowSpacing: 0),
            items: items([10, 5, 10, 10, 5]) + [span(5, 2)]
                + items([5]),
            // Both: 0, 1, 2, 3 (c 0) → [10, 5, 10, 10]; item 4 to the shortest, 1 (c 2) → [10, 10, 10, 10]. Item 5
            // (span 2) ties at starts 0, 1, 2: leftmost 0 → [15, 15, 10, 10]; cursor 2 (c 4) → [10, 10, 15, 15].
            // Item 6: leftmost 2; cursor, with no tie at or after 4, the smallest tied, 0.
            leftmost: [
                rect(0, 0, 100, 10), rect(110, 0, 100, 5), rect(220, 0, 100, 10), rect(330, 0, 100, 10),
                rect(110, 5, 100, 5), rect(0, 10, 210, 5), rect(220, 10, 100, 5),
            ],
            cursor: [
                rect(0, 0, 100, 10), rect(110, 0, 100, 5), rect(220, 0, 100, 10), rect(330, 0, 100, 10),
                rect(110, 5, 100, 5), rect(220, 10, 210, 5), rect(0, 10, 100, 5),
            ]),
        Case(
            name: "tolerance ties, a span: the window at the cursor wins", width: 320,
            properties: SectionProperties(columns: 3, rowSpacing: 0, tolerance: 10),
            items: items([10]) + [span(10, 2)]
                + items([5]),
            // Item 0 at 0 (c 1), [10, 0, 0]. Item 1 (span 2): cand [10, 0], bound 10, both tied. Leftmost 0 at 10
            // → [20, 20, 0], then item 2: only 2 is within 0 + 10 → 2 at 0. Cursor 1 at 0 (c 3) → [10, 10, 10],
            // then item 2 ties everywhere, the cursor is past the last column → 0 at 10.
            leftmost: [rect(0, 0, 100, 10), rect(0, 10, 210, 10), rect(220, 0, 100, 5)],
            cursor: [rect(0, 0, 100, 10), rect(110, 0, 210, 10), rect(0, 10, 100, 5)]),
        Case(
            name: "the documentation's example: 100, 200, 100, 10, 50 with tolerance 20", width: 320,
            properties: SectionProperties(columns: 3, tolerance: 20), items: items([100, 200, 100, 10, 50]),
            // rowSpacing 10: [110, 210, 110] after three; item 3 ties 0 and 2, c 3 → 0 (c 1) → [130, 210, 110].
            // Item 4 ties 0 and 2 within 110 + 20: leftmost 0 at 130, cursor 2 at 110.
            leftmost: [
                rect(0, 0, 100, 100), rect(110, 0, 100, 200), rect(220, 0, 100, 100), rect(0, 110, 100, 10),
                rect(0, 130, 100, 50),
            ],
            cursor: [
                rect(0, 0, 100, 100), rect(110, 0, 100, 200), rect(220, 0, 100, 100), rect(0, 110, 100, 10),
                rect(220, 110, 100, 50),
            ]),
    ]

    @Test(arguments: cases)
    func leftmost(_ c: Case) async throws {
        var properties = c.properties
        properties.tieBreak = .leftmost
        let layout = try await build(Self.layout(c, properties))
        #expect(layout.itemFrames(0) == c.leftmost)
        // Unset is leftmost too.
        let unset = try await build(Self.layout(c, c.properties))
        #expect(unset.itemFrames(0) == c.leftmost)
    }

    @Test(arguments: cases)
    func cursor(_ c: Case) async throws {
        var properties = c.properties
        properties.tieBreak = .cursor
        let layout = try await build(Self.layout(c, properties))
        #expect(layout.itemFrames(0) == c.cursor)
        #expect(layout.frames(ofSection: 0).height == c.cursor.map(\.maxY).max())
    }

    /// `rtl` mirrors the cursor rule's frames afterwards: the cursor still counts columns from the left.
    @Test(arguments: cases)
    func rightToLeftMirrorsTheCursorRule(_ c: Case) async throws {
        var properties = c.properties
        properties.tieBreak = .cursor
        var spec = Self.layout(c, properties)
        spec.direction = .rtl
        let layout = try await build(spec)
        #expect(layout.itemFrames(0) == c.cursor.map { rect(c.width - $0.x - $0.width, $0.y, $0.width, $0.height) })
    }

    /// `next` placement ignores the tie rule.
    @Test func nextPlacementIgnoresTheTieRule() async throws {
        let properties = SectionProperties(columns: 3, rowSpacing: 0, placement: .next, tieBreak: .cursor)
        let layout = try await build(spec(width: 320, properties, heights: [10, 5, 10, 5, 7, 7]))
        let plain = try await build(
            spec(
                width: 320, SectionProperties(columns: 3, rowSpacing: 0, placement: .next),
                heights: [10, 5, 10, 5, 7, 7]))
        #expect(layout.itemFrames(0) == plain.itemFrames(0))
    }

    /// Placement resumed from any item (an append, an insert, an update in the middle) finds the cursor the full
    /// layout had there: the frames equal a fresh layout's, bit for bit.
    @Test(arguments: cases)
    func resumedPlacementKeepsTheCursor(_ c: Case) async throws {
        var properties = c.properties
        properties.tieBreak = .cursor
        let full = try await build(Self.layout(c, properties))
        for k in 0..<c.items.count {
            // Appended one by one from item k.
            var appended = try await build(Self.layout(c, properties, items: Array(c.items[..<k])))
            for index in k..<c.items.count {
                _ = try await appended.validateAndApply([.insertItems(section: 0, at: index, items: [c.items[index]])])
            }
            #expect(appended.itemFrames(0) == full.itemFrames(0), "appended from \(k)")
            // Item k inserted into the others.
            var others = c.items
            others.remove(at: k)
            var inserted = try await build(Self.layout(c, properties, items: others))
            _ = try await inserted.validateAndApply([.insertItems(section: 0, at: k, items: [c.items[k]])])
            #expect(inserted.itemFrames(0) == full.itemFrames(0), "inserted at \(k)")
            // Item k updated from another height back to its own.
            var changed = c.items
            changed[k].height += 3
            var updated = try await build(Self.layout(c, properties, items: changed))
            _ = try await updated.validateAndApply([
                .updateItems(section: 0, updates: [ItemUpdate(index: k, item: c.items[k])])
            ])
            #expect(updated.itemFrames(0) == full.itemFrames(0), "updated at \(k)")
        }
    }

    /// Re-placement may stop early only where the cursor matches too, not only the columns.
    ///
    /// Three columns, rowSpacing 0, items of 10: before old item 3m the columns stand level with the cursor at 0.
    /// An item of height 0 inserted first goes to column 0 and moves the cursor to 1: after three more items the
    /// columns are level again, as they were in the old placement (shift 0), but with the cursor at 1, so every
    /// row now starts at column 1. The engine checks for a match 514 items in, where only the cursor differs.
    @Test(arguments: [40, 1000])
    func reuseNeedsTheSameCursor(count: Int) async throws {
        let properties = SectionProperties(columns: 3, rowSpacing: 0, tieBreak: .cursor)
        let heights = Array(repeating: 10.0, count: count)
        var layout = try await build(spec(width: 320, properties, heights: heights))
        _ = try await layout.validateAndApply([.insertItems(section: 0, at: 0, items: plainItems([0]))])
        let fresh = try await build(spec(width: 320, properties, heights: [0] + heights))
        let frames = layout.itemFrames(0)
        let expected = fresh.itemFrames(0)
        #expect(frames.count == expected.count)
        // The first item that differs, rather than a thousand frames.
        #expect(zip(frames, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset == nil)
        // Item 1 (old item 0) ties with the cursor at 1: column 1; item 4 (old item 3), the next row, too.
        #expect(layout.itemFrames(0)[1] == rect(110, 0, 100, 10))
        #expect(layout.itemFrames(0)[4] == rect(110, 10, 100, 10))
    }

    /// Switching the rule with `sections.configure` places the section again under the new rule.
    @Test func configuringTheRulePlacesAgain() async throws {
        let c = Self.cases[0]
        var layout = try await build(Self.layout(c, c.properties))
        var patch = SectionPatch()
        patch.tieBreak = .set(.cursor)
        _ = try await layout.validateAndApply([.configureSection(0, patch)])
        #expect(layout.itemFrames(0) == c.cursor)
        patch.tieBreak = .reset
        _ = try await layout.validateAndApply([.configureSection(0, patch)])
        #expect(layout.itemFrames(0) == c.leftmost)
        _ = try await layout.validateAndApply([
            .configureLayout(LayoutPatch(defaults: SectionProperties(tieBreak: .cursor)))
        ])
        #expect(layout.itemFrames(0) == c.cursor)
    }

    /// The cursor rule in every column count's kernel (2, 3 and 5 have leftmost loops of their own, 16 and more a
    /// heap): equal items sweep across the row, and a short first item sends the next tie right of it.
    @Test(arguments: [1, 2, 3, 4, 5, 8, 16, 17])
    func everyColumnCount(columns: Int) async throws {
        // Equal items fill row 0; item `columns` (height 1) goes to column 0 (c 1); the rest tie at 5 in columns
        // 1... and sweep right, then wrap to column 0 at 6 (leftmost would put the same items in the same columns
        // here, so the second row tells the rules apart: see below).
        let properties = SectionProperties(columns: columns, columnSpacing: 0, rowSpacing: 0, tieBreak: .cursor)
        let heights = Array(repeating: 5.0, count: columns) + [1] + Array(repeating: 5.0, count: columns)
        let layout = try await build(spec(width: Double(10 * columns), properties, heights: heights))
        var expected = (0..<columns).map { k in rect(Double(k) * 10, 0, 10, 5) }
        expected.append(rect(0, 5, 10, 1))
        for k in 1..<columns { expected.append(rect(Double(k) * 10, 5, 10, 5)) }
        // Column 0 is at 6, the others at 10: the last item goes to column 0.
        expected.append(rect(0, 6, 10, 5))
        #expect(layout.itemFrames(0) == expected)
        // After one 1-high item in column 0, a cursor at 1 sends a tie between 0 and the rest right; leftmost
        // sends it to 0.
        guard columns > 1 else { return }
        let tie = Array(repeating: 5.0, count: columns) + [0, 5]
        let cursorLayout = try await build(spec(width: Double(10 * columns), properties, heights: tie))
        #expect(cursorLayout.itemFrames(0).last == rect(10, 5, 10, 5))
        var leftmost = properties
        leftmost.tieBreak = .leftmost
        let leftmostLayout = try await build(spec(width: Double(10 * columns), leftmost, heights: tie))
        #expect(leftmostLayout.itemFrames(0).last == rect(0, 5, 10, 5))
    }

    private static func layout(_ c: Case, _ properties: SectionProperties, items: [Item]? = nil) -> LayoutSpec {
        LayoutSpec(width: c.width, sections: [SectionSpec(properties: properties, items: items ?? c.items)])
    }
}
