import Testing
import WaterfallLayout

/// `neighbors(of:)` and reading order at touching edges (Geometry, "Neighbours" and "Reading order"): edges that
/// meet in the placement's own arithmetic meet, whatever the last bit of the sums that put them on screen.
@Suite struct NeighborsTests {
    /// The paths of `n`'s above, below, left and right.
    static func paths(_ n: ItemNeighbors) -> [ItemPath?] {
        [n.above, n.below, n.left, n.right].map { $0.map { ItemPath(section: $0.section, item: $0.index ?? -1) } }
    }

    /// Section 0 is one item of 0.1, so section 1 starts at 0.1; its one column stacks 0.2, 0.3 and 0.4 with no row
    /// spacing. Item 2's top is 0.1 + (0.2 + 0.3) = 0.6 and item 1's bottom (0.1 + 0.2) + 0.3 = 0.6000000000000001:
    /// the two sums round apart, yet item 2 sits on item 1.
    static func stacked(_ axis: Axis, _ direction: Direction) -> LayoutSpec {
        var spec = LayoutSpec(
            width: 100, direction: direction,
            sections: [
                SectionSpec(properties: SectionProperties(columns: 1, rowSpacing: 0), items: items([0.1])),
                SectionSpec(properties: SectionProperties(columns: 1, rowSpacing: 0), items: items([0.2, 0.3, 0.4])),
            ])
        spec.axis = axis
        return spec
    }

    @Test(arguments: [Axis.vertical, .horizontal], [Direction.ltr, .rtl])
    func anItemSeesTheItemItIsStackedOn(axis: Axis, direction: Direction) async throws {
        let layout = try await build(Self.stacked(axis, direction))
        let (before, after) = (ItemPath(section: 1, item: 1), ItemPath(section: 1, item: 2))
        // The side the feed runs toward on screen: down, right (ltr) or left (rtl).
        let forward = axis == .vertical ? 1 : direction == .ltr ? 3 : 2
        let backward = axis == .vertical ? 0 : direction == .ltr ? 2 : 3
        #expect(Self.paths(layout.neighbors(of: after))[backward] == before)
        #expect(Self.paths(layout.neighbors(of: before))[forward] == after)
    }

    /// Seven columns of 304 / 7 with no spacing: column 5's right edge, 5 × w + w = 260.5714285714286, is a bit
    /// right of column 6's left edge, 6 × w = 260.57142857142856, yet the columns only touch. Items 0–4 fill
    /// columns 0–4; item 5 (10 high) is column 5's, item 6 (5 high) column 6's, and item 7 lands on item 6 at 15.
    static let touchingColumns = LayoutSpec(
        width: 304,
        sections: [
            SectionSpec(
                properties: SectionProperties(columns: 7, columnSpacing: 0),
                items: items([100, 100, 100, 100, 100, 10, 5, 1]))
        ])

    @Test func itemsInTouchingColumnsDoNotOverlap() async throws {
        let layout = try await build(Self.touchingColumns)
        let n = Self.paths(layout.neighbors(of: ItemPath(section: 0, item: 7)))
        // Above item 7 is item 6 in its own column, not item 5 in the next (nearer, but beside it).
        #expect(n[0] == ItemPath(section: 0, item: 6))
        // Right of item 5 is item 6, level with it in the column that touches its own.
        #expect(Self.paths(layout.neighbors(of: ItemPath(section: 0, item: 5)))[3] == ItemPath(section: 0, item: 6))
        #expect(Self.paths(layout.neighbors(of: ItemPath(section: 0, item: 6)))[2] == ItemPath(section: 0, item: 5))
    }

    /// Section 0 is one item of 0.1; section 1 has two columns and no row spacing: items 0.1 and 0.5 side by side,
    /// then A (1 high) on the first at 0.1, C on the second at 0.5, and B on A at 0.1 + 1 = 1.1. B's top is exactly
    /// a point below A's, so the two read as one row, though on screen 0.1 + 1.1 = 1.2000000000000002 is a bit more
    /// than (0.1 + 0.1) + 1 = 1.2.
    @Test func aRowIsJudgedInThePlacementsArithmetic() async throws {
        let layout = try await build(
            LayoutSpec(
                width: 210,
                sections: [
                    SectionSpec(properties: SectionProperties(columns: 1, rowSpacing: 0), items: items([0.1])),
                    SectionSpec(properties: SectionProperties(rowSpacing: 0), items: items([0.1, 0.5, 1, 10, 1])),
                ]))
        let rect = Rect(x: 0, y: 0.65, width: 210, height: 5)
        let order = layout.elements(in: rect, order: .reading).map(\.index)
        #expect(order == [2, 4, 3])
    }
}
