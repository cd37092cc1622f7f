import Testing
import WaterfallLayout
import WaterfallTestSupport

/// `reflow: stable` worked out by hand (Geometry, "Stable reflow"): an item keeps the column it was given when it was
/// inserted, and later changes only re-stack each column.
///
/// Width 320, three columns of 100 with spacing 10 (x 0, 110, 220), rowSpacing 10. Items 100, 50, 80, 60, 40 are
/// placed alike by both reflows: columns 0, 1, 2, 1, 2 at y 0, 0, 0, 60, 90.
@Suite struct StableReflowTests {
    static func feed(_ reflow: Reflow) -> LayoutSpec {
        spec(width: 320, SectionProperties(columns: 3, reflow: reflow), heights: [100, 50, 80, 60, 40])
    }

    static let placed = [
        rect(0, 0, 100, 100), rect(110, 0, 100, 50), rect(220, 0, 100, 80), rect(110, 60, 100, 60),
        rect(220, 90, 100, 40),
    ]

    @Test func bothReflowsPlaceANewSectionAlike() async throws {
        for reflow in Reflow.allCases {
            let layout = try await build(Self.feed(reflow))
            #expect(layout.frames(ofSection: 0).items.map(\.frame) == Self.placed, "\(reflow)")
        }
    }

    /// Item 1 grows to 150. Exact: item 3 goes to column 2 (its top 90 is now the lowest) and item 4 to column 0.
    /// Stable: item 3 stays in column 1, under item 1 (y 160); item 4 stays in column 2 at y 90.
    @Test func aHeightChangeOnlyRestacksEachColumn() async throws {
        let update = LayoutCommand.updateItems(section: 0, updates: [ItemUpdate(index: 1, item: Item(height: 150))])
        var exact = try await build(Self.feed(.exact))
        _ = try await exact.validateAndApply([update])
        #expect(
            exact.frames(ofSection: 0).items.map(\.frame).suffix(2) == [
                rect(220, 90, 100, 60), rect(0, 110, 100, 40),
            ])
        var stable = try await build(Self.feed(.stable))
        let diff = try await stable.validateAndApply([update])
        #expect(
            stable.frames(ofSection: 0).items.map(\.frame) == [
                rect(0, 0, 100, 100), rect(110, 0, 100, 150), rect(220, 0, 100, 80), rect(110, 160, 100, 60),
                rect(220, 90, 100, 40),
            ])
        // The diff lists item 1 and item 3 only.
        #expect(diff.sections.first?.items.map(\.index) == [1, 3])
        // The kept columns read back with the items (what export and snapshots write).
        #expect(stable.items(inSection: 0).map(\.column) == [0, 1, 2, 1, 2])
        #expect(exact.items(inSection: 0).map(\.column) == [nil, nil, nil, nil, nil])
    }

    /// An item inserted at index 1 is given the shortest column given item 0 alone: column 1 (columns 1 and 2 tie at
    /// 0, the leftmost wins); the items after it keep theirs and re-stack: item 2 (was 1) under it at 40.
    @Test func anInsertInTheMiddleChoosesGivenTheItemsBeforeIt() async throws {
        var stable = try await build(Self.feed(.stable))
        _ = try await stable.validateAndApply([.insertItems(section: 0, at: 1, items: plainItems([30]))])
        #expect(
            stable.frames(ofSection: 0).items.map(\.frame) == [
                rect(0, 0, 100, 100), rect(110, 0, 100, 30), rect(110, 40, 100, 50), rect(220, 0, 100, 80),
                rect(110, 100, 100, 60), rect(220, 90, 100, 40),
            ])
    }

    /// Deleting item 0 leaves column 0 empty: exact moves items into it, stable does not.
    @Test func aDeleteLeavesTheOthersInTheirColumns() async throws {
        var stable = try await build(Self.feed(.stable))
        _ = try await stable.validateAndApply([.deleteItems(section: 0, indices: [0])])
        #expect(
            stable.frames(ofSection: 0).items.map(\.frame) == [
                rect(110, 0, 100, 50), rect(220, 0, 100, 80), rect(110, 60, 100, 60), rect(220, 90, 100, 40),
            ])
    }

    /// A given column is kept (moved left so that a span fits); naming one in an update moves the item.
    @Test func givenColumnsAreKept() async throws {
        var stable = try await build(
            LayoutSpec(
                width: 320,
                sections: [
                    SectionSpec(
                        properties: SectionProperties(columns: 3, reflow: .stable),
                        items: [Item(height: 10, column: 2), Item(height: 10, span: .columns(2), column: 2)])
                ]))
        #expect(stable.frames(ofSection: 0).items.map(\.frame) == [rect(220, 0, 100, 10), rect(110, 20, 210, 10)])
        _ = try await stable.validateAndApply([
            .updateItems(section: 0, updates: [ItemUpdate(index: 0, item: Item(height: 10, column: 0))])
        ])
        #expect(stable.frames(ofSection: 0).items.map(\.frame) == [rect(0, 0, 100, 10), rect(110, 0, 210, 10)])
        #expect(stable.items(inSection: 0).map(\.column) == [0, 1])
    }

    /// Several commands in one change give the columns they give one at a time: here the insert is given its column
    /// while item 0 is still 100 tall (column 1), though the batch then shrinks item 0 to 10.
    @Test func aBatchChoosesAsItsCommandsOneAtATime() async throws {
        let commands: [LayoutCommand] = [
            .insertItems(section: 0, at: 5, items: plainItems([20])),
            .updateItems(section: 0, updates: [ItemUpdate(index: 0, item: Item(height: 10))]),
            .insertItems(section: 0, at: 0, items: plainItems([5])),
        ]
        var batched = try await build(Self.feed(.stable))
        _ = try await batched.validateAndApply(commands)
        var single = try await build(Self.feed(.stable))
        for command in commands { _ = try await single.validateAndApply([command]) }
        #expect(batched.frames(ofSection: 0) == single.frames(ofSection: 0))
        #expect(batched.items(inSection: 0).map(\.column) == [0, 0, 1, 2, 1, 2, 0])
    }

    /// Two updates of one item in one batch give the column the two give one at a time: item 2 (column 2) spans two
    /// columns after the first, so it starts at min(2, 3 − 2) = 1 and keeps 1; back to one column, it stays in
    /// column 1, under item 1 (at 60), where the reference layout puts it too.
    @Test func twoUpdatesOfOneItemKeepTheColumnTheFirstGave() async throws {
        let commands: [LayoutCommand] = [
            .updateItems(section: 0, updates: [ItemUpdate(index: 2, item: Item(height: 80, span: .columns(2)))]),
            .updateItems(section: 0, updates: [ItemUpdate(index: 2, item: Item(height: 80))]),
        ]
        var batched = try await build(Self.feed(.stable))
        _ = try await batched.validateAndApply(commands)
        var single = try await build(Self.feed(.stable))
        for command in commands { _ = try await single.validateAndApply([command]) }
        var reference = ReferenceLayout(Self.feed(.stable))
        let accepted = reference.apply(commands)
        #expect(accepted)
        #expect(reference.layout().sections[0].items[2] == rect(110, 60, 100, 80))
        #expect(batched.itemFrames(0) == reference.layout().sections[0].items)
        #expect(batched.frames(ofSection: 0) == single.frames(ofSection: 0))
        #expect(batched.items(inSection: 0).map(\.column) == [0, 1, 1, 1, 2])
    }

    /// Switching to exact places the section again; back to stable keeps what exact placed; a new column count
    /// chooses every column again.
    @Test func reflowSwitchesAndColumnCountChanges() async throws {
        var layout = try await build(Self.feed(.stable))
        _ = try await layout.validateAndApply([
            .updateItems(section: 0, updates: [ItemUpdate(index: 1, item: Item(height: 150))])
        ])
        var patch = SectionPatch()
        patch.reflow = .set(.exact)
        _ = try await layout.validateAndApply([.configureSection(0, patch)])
        #expect(
            layout.frames(ofSection: 0).items.map(\.frame).suffix(2) == [
                rect(220, 90, 100, 60), rect(0, 110, 100, 40),
            ])
        patch.reflow = .set(.stable)
        _ = try await layout.validateAndApply([.configureSection(0, patch)])
        #expect(layout.items(inSection: 0).map(\.column) == [0, 1, 2, 2, 0])
        var columns = SectionPatch()
        columns.columns = .set(2)
        _ = try await layout.validateAndApply([.configureSection(0, columns)])
        // Two columns of 155, chosen again in order: 100 → 0, 150 → 1, 80 → 0 (at 110), 60 → 1 (at 160, column 0
        // ends at 200), 40 → 0 (at 200).
        #expect(layout.items(inSection: 0).map(\.column) == [0, 1, 0, 1, 0])
    }

    /// Undoing a move to another section puts the item back in its kept column.
    @Test func undoingAMoveOutRestoresTheColumn() async throws {
        var spec = Self.feed(.stable)
        spec.sections.append(SectionSpec(properties: SectionProperties(columns: 3, reflow: .stable)))
        var layout = try await build(spec)
        _ = try await layout.validateAndApply([
            .updateItems(section: 0, updates: [ItemUpdate(index: 1, item: Item(height: 150))])
        ])
        let before = layout.spec
        let move = LayoutCommand.moveItem(from: ItemPath(section: 0, item: 3), to: ItemPath(section: 1, item: 0))
        let change = try layout.validate([move])
        let undo = try #require(layout.undoing(change))
        _ = try await layout.apply(change)
        var restored = LayoutWidths(layout)
        try await restored.replay(undo, seq: layout.seq)
        #expect(restored.first.spec == before)
    }
}
