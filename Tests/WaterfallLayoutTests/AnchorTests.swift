import Testing
import WaterfallLayout

/// Scroll anchors with hand-computed positions: where the anchor item goes through each kind of command, and how
/// far its y moves.
///
/// The base layout is 210 wide. Section 0 has 2 columns of 100 and items 10, 20, 30, 40: y 0, 0, 20, 30
/// (columns 0, 1, 0, 1), height 70. Section 1 has 1 column and one item of 5 at y 70 (height 5). Section 2 has
/// 1 column and two items of 5, at y 75 and 90 (height 20).
@Suite struct AnchorTests {
    static let base = LayoutSpec(
        width: 210,
        sections: [
            SectionSpec(items: items([10, 20, 30, 40])),
            SectionSpec(properties: SectionProperties(columns: 1), items: items([5])),
            SectionSpec(properties: SectionProperties(columns: 1), items: items([5, 5])),
        ])

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var anchor: ItemPath
        var commands: [LayoutCommand]
        var expected: AnchorOutcome
        var testDescription: String { name }
    }

    static func at(_ section: Int, _ item: Int) -> ItemPath { ItemPath(section: section, item: item) }

    static func moved(_ section: Int, _ item: Int, _ dy: Double) -> AnchorOutcome {
        .moved(at(section, item), dy: dy)
    }

    static func oneColumn() -> SectionPatch {
        var patch = SectionPatch()
        patch.columns = .set(1)
        return patch
    }

    static let cases: [Case] = [
        Case(
            name: "items inserted above, in the section before",
            anchor: at(1, 0), commands: [.insertItems(section: 0, at: 0, items: plainItems([15, 15]))],
            // [15, 15, 10, 20, 30, 40]: 15 and 15 side by side → [25, 25] → 10 at 25 in column 0 → 20 at 25 in 1
            // → 30 at 45 in 0 → 40 at 55 in 1, ending at 95: section 1 moves from 70 to 95.
            expected: moved(1, 0, 25)),
        Case(
            name: "items inserted above, in the same section",
            anchor: at(0, 3), commands: [.insertItems(section: 0, at: 0, items: plainItems([15, 15]))],
            // The 40 is item 5 now, at 55 instead of 30.
            expected: moved(0, 5, 25)),
        Case(
            name: "items appended below", anchor: at(0, 0),
            commands: [.insertItems(section: 0, at: 4, items: plainItems([25]))], expected: moved(0, 0, 0)),
        Case(
            name: "the anchor deleted", anchor: at(0, 1), commands: [.deleteItems(section: 0, indices: [1])],
            expected: .removed),
        Case(
            name: "an item above deleted, in the section before", anchor: at(1, 0),
            commands: [.deleteItems(section: 0, indices: [3])],
            // [10, 20, 30] ends at 50: section 1 moves from 70 to 50.
            expected: moved(1, 0, -20)),
        Case(
            name: "an item above deleted, in the same section", anchor: at(0, 3),
            commands: [.deleteItems(section: 0, indices: [0])],
            // [20, 30, 40]: 20 and 30 side by side, 40 at 30 in column 0; its index goes from 3 to 2.
            expected: moved(0, 2, 0)),
        Case(
            name: "the anchor moved within its section", anchor: at(0, 0),
            commands: [.moveItem(from: at(0, 0), to: at(0, 3))],
            // [20, 30, 40, 10]: 20 and 30 side by side → [30, 40] → 40 at 30 in 0 → 10 at 40 in 1.
            expected: moved(0, 3, 40)),
        Case(
            name: "another item moved past the anchor", anchor: at(0, 2),
            commands: [.moveItem(from: at(0, 0), to: at(0, 3))],
            // The 30 is item 1 now, at 0 in column 1 instead of 20.
            expected: moved(0, 1, -20)),
        Case(
            name: "the anchor moved to another section", anchor: at(0, 3),
            commands: [.moveItem(from: at(0, 3), to: at(2, 0))],
            // Section 0 is [10, 20, 30], height 50; section 1 at 50, section 2 at 55 with the 40 first.
            expected: moved(2, 0, 25)),
        Case(
            name: "an item moved in above the anchor from another section", anchor: at(2, 1),
            commands: [.moveItem(from: at(0, 3), to: at(2, 0))],
            // Section 2 is [40, 5, 5] at 55: the second 5 is item 2, at 55 + 40 + 10 + 5 + 10 = 120 instead of 90.
            expected: moved(2, 2, 30)),
        Case(
            name: "a section inserted above", anchor: at(1, 0),
            commands: [
                .insertSections(
                    at: 0, sections: [SectionSpec(properties: SectionProperties(columns: 1), items: items([20]))])
            ],
            expected: moved(2, 0, 20)),
        Case(
            name: "a section deleted above", anchor: at(2, 1), commands: [.deleteSections([0])],
            // Sections 1 and 2 become 0 and 1, at 0 and 5: the anchor is at 5 + 15 = 20 instead of 90.
            expected: moved(1, 1, -70)),
        Case(
            name: "the anchor's section deleted", anchor: at(1, 0), commands: [.deleteSections([2, 1])],
            expected: .removed),
        Case(
            name: "a section moved above", anchor: at(1, 0), commands: [.moveSection(from: 2, to: 0)],
            // [2, 0, 1]: 20 + 70 above section 1 instead of 70.
            expected: moved(2, 0, 20)),
        Case(
            name: "the anchor's section moved", anchor: at(0, 0), commands: [.moveSection(from: 0, to: 2)],
            // [1, 2, 0]: section 0 starts at 5 + 20.
            expected: moved(2, 0, 25)),
        Case(
            name: "an item above updated", anchor: at(1, 0),
            commands: [.updateItems(section: 0, updates: [ItemUpdate(index: 0, item: Item(height: 30))])],
            // [30, 20, 30, 40]: 30 in 0, 20 in 1 → [40, 30] → 30 at 30 in 1 → 40 at 40 in 0, ending at 80.
            expected: moved(1, 0, 10)),
        Case(
            name: "the column count changed", anchor: at(0, 2), commands: [.configureSection(0, oneColumn())],
            // One column: 10 at 0, 20 at 20, 30 at 50.
            expected: moved(0, 2, 30)),
        Case(
            name: "the defaults changed", anchor: at(2, 1),
            commands: [.configureLayout(LayoutPatch(defaults: SectionProperties(columns: 1)))],
            // Section 0 in one column is 130 tall: section 2 starts at 135, its second item at 150 instead of 90.
            expected: moved(2, 1, 60)),
        Case(
            name: "a batch of several ops", anchor: at(1, 0),
            commands: [
                .insertItems(section: 1, at: 0, items: plainItems([5])),  // the anchor is (1, 1)
                .deleteSections([0]),  // (0, 1), section 0 at 0
                .moveItem(from: at(0, 1), to: at(1, 0)),  // (1, 0): section 1 at 5, the anchor first
            ],
            expected: moved(1, 0, -65)),
    ]

    @Test(arguments: cases)
    func anchor(_ c: Case) async throws {
        var layout = try await build(Self.base)
        let (diff, anchor) = try await layout.apply(layout.validate(c.commands, anchor: c.anchor))
        #expect((anchor ?? .removed) == c.expected)
        // The same commands without an anchor make the same diff.
        var plain = try await build(Self.base)
        #expect(try await plain.validateAndApply(c.commands) == diff)
        #expect(Observed(plain) == Observed(layout))
    }

    /// The anchor goes with the fast paths too (an append, one update), and with the diff left out.
    @Test func withoutItemListing() async throws {
        var layout = try await build(Self.base)
        let appended = try await layout.apply(
            layout.validate([.insertItems(section: 1, at: 1, items: plainItems([10]))], anchor: Self.at(2, 0)),
            listingItems: false)
        // Section 1 grows by 10 + 10 (row spacing).
        #expect(appended.anchor == Self.moved(2, 0, 20))
        let updated = try await layout.apply(
            layout.validate(
                [.updateItems(section: 1, updates: [ItemUpdate(index: 0, item: Item(height: 1))])],
                anchor: Self.at(1, 1)))
        #expect(updated.anchor == Self.moved(1, 1, -4))
    }

    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var anchor: ItemPath
        var commands: [LayoutCommand]
        var field: String
        var value: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "no such section", anchor: at(3, 0), commands: [.deleteItems(section: 0, indices: [0])],
            field: "anchor.section", value: "3"),
        Refusal(
            name: "a negative section", anchor: at(-1, 0), commands: [], field: "anchor.section", value: "-1"),
        Refusal(
            name: "no such item", anchor: at(1, 1), commands: [.deleteItems(section: 0, indices: [0])],
            field: "anchor.i", value: "1"),
        Refusal(
            name: "a failing command", anchor: at(0, 0), commands: [.deleteItems(section: 9, indices: [0])],
            field: "section", value: "9"),
        Refusal(
            name: "a failing op of a batch", anchor: at(0, 0),
            commands: [.deleteSections([0]), .deleteItems(section: 2, indices: [0])], field: "ops[1].params.section",
            value: "2"),
    ]

    /// An anchor that names no item, or a command that fails, changes nothing and answers no anchor.
    @Test(arguments: refusals)
    func refused(_ r: Refusal) async throws {
        var layout = try await build(Self.base)
        let before = Observed(layout)
        let error = await thrown { _ = try await layout.apply(layout.validate(r.commands, anchor: r.anchor)) }
        guard case .notFound(let field, let value, _)? = error else {
            Issue.record("expected not found, got \(String(describing: error))")
            return
        }
        #expect(field == r.field)
        #expect(value == r.value)
        #expect(Observed(layout) == before)
    }
}
