import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallTestSupport

/// The diff shapes of the Diffs article, written out in full, and the incremental work behind
/// them (`lastPlacedCount`).
///
/// The base layout is `MutationTests.base`: section 0 with items 10, 20, 30, 40 in 2 columns of 100 (height 70,
/// colY `[60, 80]`), section 1 with one item of 5 in 1 column at origin 70.
@Suite struct DiffTests {
    static func patch(_ edit: (inout SectionPatch) -> Void) -> SectionPatch {
        var patch = SectionPatch()
        edit(&patch)
        return patch
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var commands: [LayoutCommand]
        var diff: LayoutDiff
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "append one item that grows the section: that item, and section 1 shifted",
            commands: [.insertItems(section: 0, at: 4, items: plainItems([25]))],
            diff: LayoutDiff(
                sections: [
                    SectionDiff(
                        section: 0, origin: 0, height: 85, count: 5,
                        items: [ItemFrame(index: 4, frame: rect(0, 60, 100, 25))])
                ],
                shifts: [SectionShift(from: 1, to: 1, dy: 15)])),
        Case(
            name: "append one item within the height: only that item",
            commands: [.insertItems(section: 0, at: 4, items: plainItems([5]))],
            diff: LayoutDiff(sections: [
                SectionDiff(
                    section: 0, origin: 0, height: 70, count: 5,
                    items: [ItemFrame(index: 4, frame: rect(0, 60, 100, 5))])
            ])),
        Case(
            name: "append an item with an id: the id is echoed",
            commands: [.insertItems(section: 1, at: 1, items: [Item(height: 5, id: "a")])],
            diff: LayoutDiff(sections: [
                SectionDiff(
                    section: 1, origin: 70, height: 20, count: 2,
                    items: [ItemFrame(index: 1, frame: rect(0, 85, 210, 5), id: "a")])
            ])),
        Case(
            name: "update the last item taller",
            commands: [.updateItems(section: 0, updates: [ItemUpdate(index: 3, item: Item(height: 50))])],
            diff: LayoutDiff(
                sections: [
                    SectionDiff(
                        section: 0, origin: 0, height: 80, count: 4,
                        items: [ItemFrame(index: 3, frame: rect(110, 30, 100, 50))])
                ],
                shifts: [SectionShift(from: 1, to: 1, dy: 10)])),
        Case(
            name: "update an item to what it was: nothing",
            commands: [.updateItems(section: 0, updates: [ItemUpdate(index: 1, item: Item(height: 20))])],
            diff: LayoutDiff()),
        Case(
            name: "insert at the front: items after it move within the section",
            commands: [.insertItems(section: 1, at: 0, items: plainItems([5]))],
            // Section 1 is 1 column: the old item moves from 70 to 85.
            diff: LayoutDiff(sections: [
                SectionDiff(
                    section: 1, origin: 70, height: 20, count: 2,
                    items: [
                        ItemFrame(index: 0, frame: rect(0, 70, 210, 5)),
                        ItemFrame(index: 1, frame: rect(0, 85, 210, 5)),
                    ])
            ])),
        Case(
            name: "delete: the indices are the new ones",
            commands: [.deleteItems(section: 0, indices: [0])],
            // [20, 30, 40]: (0,0,100,20) (110,0,100,30) (0,30,100,40): height 70, every item moved.
            diff: LayoutDiff(sections: [
                SectionDiff(
                    section: 0, origin: 0, height: 70, count: 3,
                    items: [
                        ItemFrame(index: 0, frame: rect(0, 0, 100, 20)),
                        ItemFrame(index: 1, frame: rect(110, 0, 100, 30)),
                        ItemFrame(index: 2, frame: rect(0, 30, 100, 40)),
                    ])
            ])),
        Case(
            name: "a new section: isNew, its header, all its items; the next section shifted",
            commands: [
                .insertSections(
                    at: 1,
                    sections: [SectionSpec(properties: SectionProperties(headerHeight: 10), items: items([5, 5]))])
            ],
            diff: LayoutDiff(
                sections: [
                    SectionDiff(
                        section: 1, origin: 70, height: 15, count: 2, isNew: true,
                        header: .set(rect(0, 70, 210, 10)),
                        items: [
                            ItemFrame(index: 0, frame: rect(0, 80, 100, 5)),
                            ItemFrame(index: 1, frame: rect(110, 80, 100, 5)),
                        ])
                ],
                shifts: [SectionShift(from: 2, to: 2, dy: 15)])),
        Case(
            name: "a new empty section of height 0: listed, nothing moves",
            commands: [.insertSections(at: 0, sections: [SectionSpec()])],
            diff: LayoutDiff(sections: [SectionDiff(section: 0, origin: 0, height: 0, count: 0, isNew: true)])),
        Case(
            name: "delete section 0: section 1 is now 0 and shifted up",
            commands: [.deleteSections([0])],
            diff: LayoutDiff(shifts: [SectionShift(from: 0, to: 0, dy: -70)])),
        Case(
            name: "move section 1 first: two shifts of different dy, nothing listed",
            commands: [.moveSection(from: 1, to: 0)],
            diff: LayoutDiff(shifts: [SectionShift(from: 0, to: 0, dy: -70), SectionShift(from: 1, to: 1, dy: 5)])),
        Case(
            name: "header set: the items below it move within the section",
            commands: [.configureSection(1, patch { $0.headerHeight = .set(8) })],
            diff: LayoutDiff(sections: [
                SectionDiff(
                    section: 1, origin: 70, height: 13, count: 1, header: .set(rect(0, 70, 210, 8)),
                    items: [ItemFrame(index: 0, frame: rect(0, 78, 210, 5))])
            ])),
        Case(
            name: "footer set: the next section shifts",
            commands: [.configureSection(0, patch { $0.footerHeight = .set(15) })],
            diff: LayoutDiff(
                sections: [
                    SectionDiff(section: 0, origin: 0, height: 85, count: 4, footer: .set(rect(0, 70, 210, 15)))
                ],
                shifts: [SectionShift(from: 1, to: 1, dy: 15)])),
        Case(
            name: "footer insets changed: the footer is set again",
            commands: [
                .configureSection(
                    1,
                    patch {
                        $0.footerHeight = .set(10)
                        $0.footerInsets = .set(Insets(top: 1, left: 2, bottom: 3, right: 4))
                    })
            ],
            diff: LayoutDiff(sections: [
                SectionDiff(section: 1, origin: 70, height: 19, count: 1, footer: .set(rect(2, 76, 204, 10)))
            ])),
        Case(
            name: "the width: every frame changes",
            commands: [.configureLayout(LayoutPatch(width: 320))],
            diff: LayoutDiff(sections: [
                SectionDiff(
                    section: 0, origin: 0, height: 70, count: 4,
                    items: [
                        ItemFrame(index: 0, frame: rect(0, 0, 155, 10)),
                        ItemFrame(index: 1, frame: rect(165, 0, 155, 20)),
                        ItemFrame(index: 2, frame: rect(0, 20, 155, 30)),
                        ItemFrame(index: 3, frame: rect(165, 30, 155, 40)),
                    ]),
                SectionDiff(
                    section: 1, origin: 70, height: 5, count: 1,
                    items: [ItemFrame(index: 0, frame: rect(0, 70, 320, 5))]),
            ])),
        Case(
            name: "rtl: the items that are not centered move",
            commands: [.configureLayout(LayoutPatch(direction: .rtl))],
            // Section 1's item spans the whole width: mirrored, it stays where it was.
            diff: LayoutDiff(sections: [
                SectionDiff(
                    section: 0, origin: 0, height: 70, count: 4,
                    items: [
                        ItemFrame(index: 0, frame: rect(110, 0, 100, 10)),
                        ItemFrame(index: 1, frame: rect(0, 0, 100, 20)),
                        ItemFrame(index: 2, frame: rect(110, 20, 100, 30)),
                        ItemFrame(index: 3, frame: rect(0, 30, 100, 40)),
                    ])
            ])),
        Case(
            name: "minContentHeight alone changes no frame",
            commands: [.configureLayout(LayoutPatch(minContentHeight: 1000))],
            diff: LayoutDiff()),
    ]

    @Test(arguments: cases)
    func diff(_ c: Case) async throws {
        var layout = try await build(MutationTests.base)
        var client = FrameModel(layout)
        let diff = try await layout.validateAndApply(c.commands)
        #expect(diff == c.diff)
        try client.apply(diff, replaying: c.commands)
        #expect(client.sections == FrameModel(layout).sections)
    }

    @Test func headerRemoved() async throws {
        var layout = try await build(
            LayoutSpec(
                width: 100,
                sections: [
                    SectionSpec(properties: SectionProperties(columns: 1, headerHeight: 10), items: items([5])),
                    SectionSpec(properties: SectionProperties(columns: 1, headerHeight: 10, footerHeight: 4)),
                ]))
        // Section 0: header (0,0,100,10), item (0,10,100,5), height 15. Section 1: header at 15, footer at 25.
        let diff = try await layout.validateAndApply([.configureSection(0, Self.patch { $0.headerHeight = .reset })])
        #expect(
            diff
                == LayoutDiff(
                    sections: [
                        SectionDiff(
                            section: 0, origin: 0, height: 5, count: 1, header: .removed,
                            items: [ItemFrame(index: 0, frame: rect(0, 0, 100, 5))])
                    ],
                    // The header and footer moved with the section: a shift says it all.
                    shifts: [SectionShift(from: 1, to: 1, dy: -10)]))
        let footer = try await layout.validateAndApply([.configureSection(1, Self.patch { $0.footerHeight = .set(0) })])
        #expect(
            footer == LayoutDiff(sections: [SectionDiff(section: 1, origin: 5, height: 10, count: 0, footer: .removed)])
        )
    }

    // MARK: Incremental work

    /// Appending places only the new items and lists only them.
    @Test func appendingToALargeSectionPlacesOneItem() async throws {
        let heights = (0..<10_000).map { Double($0 % 7 * 10 + 20) }
        var layout = try await build(spec(width: 320, SectionProperties(columns: 3), heights: heights))
        let diff = try await layout.validateAndApply([.insertItems(section: 0, at: 10_000, items: plainItems([33]))])
        #expect(layout.lastPlacedCount == 1)
        #expect(diff.sections.count == 1)
        #expect(diff.sections.first?.items.map(\.index) == [10_000])
        #expect(layout.frames(ofSection: 0) == (try await build(layout.currentSpec)).frames(ofSection: 0))
    }

    /// Growing section 0 of a thousand sections lists section 0 and one shift of all the others.
    @Test func growingTheFirstOfManySectionsOnlyMovesTheOthers() async throws {
        let sections = (0..<1000).map { _ in SectionSpec(items: items([10, 20, 30, 40])) }
        var layout = try await build(LayoutSpec(width: 210, sections: sections))
        let diff = try await layout.validateAndApply([
            .updateItems(section: 0, updates: [ItemUpdate(index: 3, item: Item(height: 45))])
        ])
        #expect(layout.lastPlacedCount == 1)
        #expect(diff.sections.count == 1)
        #expect(diff.sections.first?.items == [ItemFrame(index: 3, frame: rect(110, 30, 100, 45))])
        #expect(diff.shifts == [SectionShift(from: 1, to: 999, dy: 5)])
        // 999 sections of 70 before the last, plus 5.
        #expect(layout.frames(ofSection: 999).origin == 69_935.0)
    }

    struct Convergence: Sendable, CustomTestStringConvertible {
        var name: String
        var layout: LayoutSpec
        var update: ItemUpdate
        /// How far every item after the update moves.
        var shift: Double
        var testDescription: String { name }
    }

    static let convergence: [Convergence] = [
        Convergence(
            name: "1 column of 5,000 equal items, item 2,500 grows by 10",
            layout: spec(width: 100, SectionProperties(columns: 1), heights: Array(repeating: 10, count: 5000)),
            update: ItemUpdate(index: 2500, item: Item(height: 20)), shift: 10),
        Convergence(
            name: "1 column, item 2,500 shrinks to 0",
            layout: spec(width: 100, SectionProperties(columns: 1), heights: Array(repeating: 10, count: 5000)),
            update: ItemUpdate(index: 2500, item: Item(height: 0)), shift: -10),
        Convergence(
            name: "2 columns, a full-span item 2,500 grows by 20",
            layout: LayoutSpec(
                width: 210,
                sections: [
                    SectionSpec(
                        items: (0..<5000).map { Item(height: 10, span: $0 == 2500 ? .full : .columns(1)) })
                ]),
            update: ItemUpdate(index: 2500, item: Item(height: 30, span: .full)), shift: 20),
    ]

    /// After a change in the middle, placement stops once every column stands where it stood plus one constant.
    @Test(arguments: convergence)
    func changeInTheMiddleConverges(_ c: Convergence) async throws {
        var layout = try await build(c.layout)
        let before = layout.itemFrames(0)
        var client = FrameModel(layout)
        let command = LayoutCommand.updateItems(section: 0, updates: [c.update])
        let diff = try await layout.validateAndApply([command])
        #expect(layout.lastPlacedCount < 600)
        let after = layout.itemFrames(0)
        // Items before the update keep their frames; those after it move by exactly `shift`.
        #expect(after[..<c.update.index] == before[..<c.update.index])
        let tail = (c.update.index + 1)..<before.count
        #expect(
            tail.allSatisfy {
                after[$0] == rect(before[$0].x, before[$0].y + c.shift, before[$0].width, before[$0].height)
            })
        // The frames equal a layout from scratch, and the diff lists the changed item and the moved tail.
        #expect(layout.frames(ofSection: 0) == (try await build(layout.currentSpec)).frames(ofSection: 0))
        #expect(diff.sections.first?.items.map(\.index) == [c.update.index] + Array(tail))
        try client.apply(diff, replaying: [command])
        #expect(client.sections == FrameModel(layout).sections)
    }

    /// With `next`, a taller item moves only the later items of its own column: the columns never stand at one
    /// constant shift again, so placement goes on to the end, and the diff lists just the items that moved.
    @Test func nextPlacementChangeMovesOneColumn() async throws {
        var layout = try await build(
            spec(
                width: 320, SectionProperties(columns: 3, placement: .next), heights: Array(repeating: 10, count: 3000))
        )
        let before = layout.itemFrames(0)
        var client = FrameModel(layout)
        // Item 1,500 is in column 0 (1500 % 3 == 0), at row 500: y 500 * 20.
        let command = LayoutCommand.updateItems(section: 0, updates: [ItemUpdate(index: 1500, item: Item(height: 15))])
        let diff = try await layout.validateAndApply([command])
        #expect(layout.itemFrames(0)[1500] == rect(0, 10_000, 100, 15))
        let moved = Array(stride(from: 1503, to: 3000, by: 3))
        for k in moved { #expect(layout.itemFrames(0)[k] == rect(0, before[k].y + 5, 100, 10)) }
        #expect(diff.sections.first?.items.map(\.index) == [1500] + moved)
        // 999 rows of 10 + 10, the last row 10, and 5 more in column 0.
        #expect(diff.sections.first?.height == 19_995.0)
        #expect(layout.frames(ofSection: 0) == (try await build(layout.currentSpec)).frames(ofSection: 0))
        try client.apply(diff, replaying: [command])
        #expect(client.sections == FrameModel(layout).sections)
    }

    /// A section moved by a dy that is not a dyadic fraction: adding dy to an old frame may differ from placing it
    /// again in the last bit, and the diff must list every item where it does.
    @Test func nonDyadicShiftStillReplaysExactly() async throws {
        var layout = try await build(
            LayoutSpec(
                width: 100,
                sections: [
                    SectionSpec(
                        properties: SectionProperties(columns: 1, rowSpacing: 0.1), items: items([0.1, 0.1, 0.1])),
                    SectionSpec(
                        properties: SectionProperties(columns: 2, rowSpacing: 0.3),
                        items: (0..<500).map { Item(height: Double($0 % 9) / 10 + 0.1) }),
                ]))
        var client = FrameModel(layout)
        let commands: [LayoutCommand] = [.insertItems(section: 0, at: 3, items: plainItems([0.7]))]
        let diff = try await layout.validateAndApply(commands)
        let dy = try #require(diff.sections.last?.dy)
        #expect(diff.sections.last?.section == 1)
        #expect(dy != 0 && dy.rounded() != dy)
        try client.apply(diff, replaying: commands)
        #expect(client.sections == FrameModel(layout).sections)
        let fresh = try await build(layout.currentSpec)
        #expect((0..<2).map { fresh.frames(ofSection: $0) } == (0..<2).map { layout.frames(ofSection: $0) })
    }
}
