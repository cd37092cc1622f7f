import Testing
import WaterfallLayout

/// Mutations with hand-computed frames: items and sections inserted, deleted, moved, updated and configured.
///
/// The base layout is 210 wide. Section 0 has 2 columns of 100 and items 10, 20, 30, 40:
/// `(0,0,100,10) (110,0,100,20) (0,20,100,30) (110,30,100,40)`, colY `[60, 80]`, height 70.
/// Section 1 has 1 column and one item of 5: `(0, 70, 210, 5)`.
@Suite struct MutationTests {
    static let base = LayoutSpec(
        width: 210,
        sections: [
            SectionSpec(items: items([10, 20, 30, 40])),
            SectionSpec(properties: SectionProperties(columns: 1), items: items([5])),
        ])

    /// Section 1's one frame when it starts at `origin`.
    static func second(_ origin: Double) -> [Rect] { [rect(0, origin, 210, 5)] }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var commands: [LayoutCommand]
        /// Every section's item frames after the commands.
        var frames: [[Rect]]
        var origins: [Double]
        var contentHeight: Double
        var testDescription: String { name }
    }

    static func patch(_ edit: (inout SectionPatch) -> Void) -> SectionPatch {
        var patch = SectionPatch()
        edit(&patch)
        return patch
    }

    static let cases: [Case] = [
        Case(
            name: "insert one item in the middle", commands: [.insertItems(section: 0, at: 1, items: plainItems([5]))],
            // [10, 5, 20, 30, 40]: colY [20, 15] → 20 in column 1 at 15 → [20, 45] → 30 at 20 → 40 at 45.
            frames: [
                [
                    rect(0, 0, 100, 10), rect(110, 0, 100, 5), rect(110, 15, 100, 20), rect(0, 20, 100, 30),
                    rect(110, 45, 100, 40),
                ],
                second(85),
            ], origins: [0, 85], contentHeight: 90),
        Case(
            name: "append one item", commands: [.insertItems(section: 0, at: 4, items: plainItems([25]))],
            // colY [60, 80] → column 0 at 60, ends at 85.
            frames: [
                [
                    rect(0, 0, 100, 10), rect(110, 0, 100, 20), rect(0, 20, 100, 30), rect(110, 30, 100, 40),
                    rect(0, 60, 100, 25),
                ],
                second(85),
            ], origins: [0, 85], contentHeight: 90),
        Case(
            name: "insert two items at the start",
            commands: [.insertItems(section: 0, at: 0, items: plainItems([15, 15]))],
            // [15, 15, 10, 20, 30, 40]: [25, 25] → 10 ties to column 0 at 25 → 20 in 1 at 25 → 30 in 0 at 45
            // → 40 in 1 at 55.
            frames: [
                [
                    rect(0, 0, 100, 15), rect(110, 0, 100, 15), rect(0, 25, 100, 10), rect(110, 25, 100, 20),
                    rect(0, 45, 100, 30), rect(110, 55, 100, 40),
                ],
                second(95),
            ], origins: [0, 95], contentHeight: 100),
        Case(
            name: "delete items 0 and 2", commands: [.deleteItems(section: 0, indices: [0, 2])],
            frames: [[rect(0, 0, 100, 20), rect(110, 0, 100, 40)], second(40)], origins: [0, 40], contentHeight: 45),
        Case(
            name: "delete in any order", commands: [.deleteItems(section: 0, indices: [2, 0])],
            frames: [[rect(0, 0, 100, 20), rect(110, 0, 100, 40)], second(40)], origins: [0, 40], contentHeight: 45),
        Case(
            name: "delete the last item", commands: [.deleteItems(section: 0, indices: [3])],
            frames: [[rect(0, 0, 100, 10), rect(110, 0, 100, 20), rect(0, 20, 100, 30)], second(50)],
            origins: [0, 50], contentHeight: 55),
        Case(
            name: "delete every item", commands: [.deleteItems(section: 0, indices: [0, 1, 2, 3])],
            frames: [[], second(0)], origins: [0, 0], contentHeight: 5),
        Case(
            name: "move the last item first",
            commands: [.moveItem(from: ItemPath(section: 0, item: 3), to: ItemPath(section: 0, item: 0))],
            // [40, 10, 20, 30]: [50, 0] → [50, 20] → 20 in 1 at 20 → [50, 50]: 30 ties to column 0 at 50.
            frames: [
                [rect(0, 0, 100, 40), rect(110, 0, 100, 10), rect(110, 20, 100, 20), rect(0, 50, 100, 30)],
                second(80),
            ], origins: [0, 80], contentHeight: 85),
        Case(
            name: "move the first item last",
            commands: [.moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 3))],
            // [20, 30, 40, 10]: [30, 0] → [30, 40] → 40 in 0 at 30 → [80, 40] → 10 in 1 at 40.
            frames: [
                [rect(0, 0, 100, 20), rect(110, 0, 100, 30), rect(0, 30, 100, 40), rect(110, 40, 100, 10)],
                second(70),
            ], origins: [0, 70], contentHeight: 75),
        Case(
            name: "move an item to another section",
            commands: [.moveItem(from: ItemPath(section: 0, item: 3), to: ItemPath(section: 1, item: 0))],
            frames: [
                [rect(0, 0, 100, 10), rect(110, 0, 100, 20), rect(0, 20, 100, 30)],
                [rect(0, 50, 210, 40), rect(0, 100, 210, 5)],
            ], origins: [0, 50], contentHeight: 105),
        Case(
            name: "update one item's height",
            commands: [.updateItems(section: 0, updates: [ItemUpdate(index: 1, item: Item(height: 50))])],
            // [10, 50, 30, 40]: [20, 60] → 30 in 0 at 20 → [60, 60]: 40 ties to column 0 at 60.
            frames: [
                [rect(0, 0, 100, 10), rect(110, 0, 100, 50), rect(0, 20, 100, 30), rect(0, 60, 100, 40)],
                second(100),
            ], origins: [0, 100], contentHeight: 105),
        Case(
            name: "update an item to a full span",
            commands: [.updateItems(section: 0, updates: [ItemUpdate(index: 2, item: Item(height: 5, span: .full))])],
            // [20, 30] → full at 30 → [45, 45] → 40 in 0 at 45.
            frames: [
                [rect(0, 0, 100, 10), rect(110, 0, 100, 20), rect(0, 30, 210, 5), rect(0, 45, 100, 40)],
                second(85),
            ], origins: [0, 85], contentHeight: 90),
        Case(
            name: "update an item to an aspect size",
            commands: [
                .updateItems(section: 0, updates: [ItemUpdate(index: 0, item: Item(height: 1, aspectWidth: 1))])
            ],
            // 1 * 100 / 1 = 100: [110, 0] → the rest stack in column 1 at 0, 30, 70.
            frames: [
                [rect(0, 0, 100, 100), rect(110, 0, 100, 20), rect(110, 30, 100, 30), rect(110, 70, 100, 40)],
                second(110),
            ], origins: [0, 110], contentHeight: 115),
        Case(
            name: "a batch: insert first, then delete by the new indices",
            commands: [
                .insertItems(section: 0, at: 0, items: plainItems([5])), .deleteItems(section: 0, indices: [4]),
            ],
            // [5, 10, 20, 30]: [15, 0] → [15, 20] → 20 in 0 at 15 → [45, 20] → 30 in 1 at 20.
            frames: [
                [rect(0, 0, 100, 5), rect(110, 0, 100, 10), rect(0, 15, 100, 20), rect(110, 20, 100, 30)],
                second(50),
            ], origins: [0, 50], contentHeight: 55),
        Case(
            name: "insert a section first",
            commands: [
                .insertSections(
                    at: 0, sections: [SectionSpec(properties: SectionProperties(columns: 1), items: items([15]))])
            ],
            frames: [
                [rect(0, 0, 210, 15)],
                [rect(0, 15, 100, 10), rect(110, 15, 100, 20), rect(0, 35, 100, 30), rect(110, 45, 100, 40)],
                second(85),
            ], origins: [0, 15, 85], contentHeight: 90),
        Case(
            name: "delete section 0", commands: [.deleteSections([0])], frames: [second(0)], origins: [0],
            contentHeight: 5),
        Case(
            name: "delete both sections", commands: [.deleteSections([1, 0])], frames: [], origins: [],
            contentHeight: 0),
        Case(
            name: "move section 1 first", commands: [.moveSection(from: 1, to: 0)],
            frames: [
                [rect(0, 0, 210, 5)],
                [rect(0, 5, 100, 10), rect(110, 5, 100, 20), rect(0, 25, 100, 30), rect(110, 35, 100, 40)],
            ], origins: [0, 5], contentHeight: 75),
        Case(
            name: "configure section 0 to 1 column", commands: [.configureSection(0, patch { $0.columns = .set(1) })],
            // Stacked: 0, 10 + 10, 40 + 10, 80 + 10.
            frames: [
                [rect(0, 0, 210, 10), rect(0, 20, 210, 20), rect(0, 50, 210, 30), rect(0, 90, 210, 40)],
                second(130),
            ], origins: [0, 130], contentHeight: 135),
        Case(
            name: "configure a header and rowSpacing 0",
            commands: [
                .configureSection(
                    0,
                    patch {
                        $0.rowSpacing = .set(0)
                        $0.headerHeight = .set(10)
                    })
            ],
            // top 10: [20, 10] → [20, 30] → 30 in 0 at 20 → [50, 30] → 40 in 1 at 30; ends at 70.
            frames: [
                [rect(0, 10, 100, 10), rect(110, 10, 100, 20), rect(0, 20, 100, 30), rect(110, 30, 100, 40)],
                second(70),
            ], origins: [0, 70], contentHeight: 75),
        Case(
            name: "configure the layout's width", commands: [.configureLayout(LayoutPatch(width: 320))],
            // cw (320 - 10) / 2 = 155.
            frames: [
                [rect(0, 0, 155, 10), rect(165, 0, 155, 20), rect(0, 20, 155, 30), rect(165, 30, 155, 40)],
                [rect(0, 70, 320, 5)],
            ], origins: [0, 70], contentHeight: 75),
        Case(
            name: "configure the layout's direction", commands: [.configureLayout(LayoutPatch(direction: .rtl))],
            frames: [
                [rect(110, 0, 100, 10), rect(0, 0, 100, 20), rect(110, 20, 100, 30), rect(0, 30, 100, 40)],
                second(70),
            ], origins: [0, 70], contentHeight: 75),
        Case(
            name: "configure the layout's defaults: 1 column where a section has no rule",
            commands: [.configureLayout(LayoutPatch(defaults: SectionProperties(columns: 1, rowSpacing: 0)))],
            frames: [
                [rect(0, 0, 210, 10), rect(0, 10, 210, 20), rect(0, 30, 210, 30), rect(0, 60, 210, 40)],
                second(100),
            ], origins: [0, 100], contentHeight: 105),
        Case(
            name: "configure the layout's scale and minContentHeight",
            commands: [.configureLayout(LayoutPatch(scale: 2, minContentHeight: 500))],
            frames: [
                [rect(0, 0, 100, 10), rect(110, 0, 100, 20), rect(0, 20, 100, 30), rect(110, 30, 100, 40)],
                second(70),
            ], origins: [0, 70], contentHeight: 500),
    ]

    @Test(arguments: cases)
    func mutation(_ c: Case) async throws {
        var layout = try await build(Self.base)
        _ = try await layout.validateAndApply(c.commands)
        #expect(layout.sectionCount == c.frames.count)
        for s in 0..<min(layout.sectionCount, c.frames.count) {
            #expect(layout.itemFrames(s) == c.frames[s], "section \(s)")
            #expect(layout.frames(ofSection: s).origin == c.origins[s], "section \(s)")
        }
        #expect(layout.contentSize.height == c.contentHeight)
        // Incremental equals a layout of the final state from scratch.
        let fresh = try await build(layout.currentSpec)
        #expect(
            (0..<fresh.sectionCount).map { fresh.frames(ofSection: $0) }
                == (0..<layout.sectionCount).map { layout.frames(ofSection: $0) })
    }

    /// Changes that touch every section may place them in a task group: the frames are the same bits as serially.
    @Test func parallelEqualsSerial() async throws {
        let sections = (0..<64).map { s in
            SectionSpec(
                items: (0..<200).map {
                    Item(height: Double(($0 * 7 + s) % 13) + 0.5, span: $0 % 17 == 0 ? .full : .columns(1))
                })
        }
        let spec = LayoutSpec(width: 375, sections: sections)
        var parallel = try await build(spec)
        parallel.parallelGrain = 1
        var serial = try await Layout.make(spec, allowsParallelism: false).layout
        for patch in [
            LayoutPatch(width: 320), LayoutPatch(scale: 3), LayoutPatch(defaults: SectionProperties(columns: 3)),
        ] {
            let a = try await parallel.validateAndApply([.configureLayout(patch)])
            let b = try await serial.validateAndApply([.configureLayout(patch)])
            #expect(a == b)
            #expect(Observed(parallel) == Observed(serial))
        }
        // Spot check by hand: section 0 item 0 is a full span (3 * 100 + 2 * 10) of 0.5, snapped at scale 3:
        // 1.5 rounds away from zero to 2, so 2 / 3.
        #expect(parallel.frame(ofItem: ItemPath(section: 0, item: 0)).frame == rect(0, 0, 320, 2.0 / 3))
    }

    // MARK: SectionPatch semantics

    @Test func resetFallsBackToTheDefaults() async throws {
        var layout = try await build(
            LayoutSpec(
                width: 210, defaults: SectionProperties(columns: 1, rowSpacing: 0),
                sections: [
                    SectionSpec(properties: SectionProperties(columns: 2, rowSpacing: 5), items: items([10, 10, 10]))
                ]))
        // Own: 2 columns, rowSpacing 5 → (0,0) (110,0) (0,15).
        #expect(layout.itemFrames(0) == [rect(0, 0, 100, 10), rect(110, 0, 100, 10), rect(0, 15, 100, 10)])
        _ = try await layout.validateAndApply([.configureSection(0, Self.patch { $0.columns = .reset })])
        // The defaults' 1 column; the own rowSpacing 5 is kept (an absent field is not a reset).
        #expect(layout.properties(ofSection: 0) == SectionProperties(rowSpacing: 5))
        #expect(layout.itemFrames(0) == [rect(0, 0, 210, 10), rect(0, 15, 210, 10), rect(0, 30, 210, 10)])
        _ = try await layout.validateAndApply([.configureSection(0, Self.patch { $0.rowSpacing = .reset })])
        #expect(layout.properties(ofSection: 0) == SectionProperties())
        #expect(layout.itemFrames(0) == [rect(0, 0, 210, 10), rect(0, 10, 210, 10), rect(0, 20, 210, 10)])
    }

    @Test func resetWithoutDefaultsFallsBackToBuiltIns() async throws {
        let own = SectionProperties(
            columns: 1, columnSpacing: 0, rowSpacing: 0, headerHeight: 10, placement: .next, tolerance: 3)
        var layout = try await build(spec(width: 210, own, heights: [10, 10, 10]))
        _ = try await layout.validateAndApply([
            .configureSection(
                0,
                Self.patch {
                    $0.columns = .reset
                    $0.columnSpacing = .reset
                    $0.rowSpacing = .reset
                    $0.headerHeight = .reset
                    $0.placement = .reset
                    $0.tolerance = .reset
                })
        ])
        #expect(layout.properties(ofSection: 0) == SectionProperties())
        #expect(layout.frames(ofSection: 0).header == nil)
        #expect(layout.itemFrames(0) == [rect(0, 0, 100, 10), rect(110, 0, 100, 10), rect(0, 20, 100, 10)])
    }

    @Test func columnsReplaceMinColumnWidthAndBack() async throws {
        var layout = try await build(
            spec(width: 320, SectionProperties(minColumnWidth: 100, maxColumns: 3), heights: [10, 10, 10]))
        #expect(layout.itemFrames(0).map(\.x) == [0, 110, 220])
        _ = try await layout.validateAndApply([.configureSection(0, Self.patch { $0.columns = .set(2) })])
        // maxColumns is kept (it only caps an adaptive count); minColumnWidth is gone.
        #expect(layout.properties(ofSection: 0) == SectionProperties(columns: 2, maxColumns: 3))
        #expect(layout.itemFrames(0) == [rect(0, 0, 155, 10), rect(165, 0, 155, 10), rect(0, 20, 155, 10)])
        _ = try await layout.validateAndApply([.configureSection(0, Self.patch { $0.minColumnWidth = .set(50) })])
        // floor((320 + 10) / 60) = 5, capped at 3: cw (320 - 20) / 3 = 100.
        #expect(layout.properties(ofSection: 0) == SectionProperties(minColumnWidth: 50, maxColumns: 3))
        #expect(layout.itemFrames(0).map(\.x) == [0, 110, 220])
    }

    /// `LayoutPatch.defaults` replaces the defaults as a whole: what it leaves out goes back to the built-ins.
    @Test func defaultsAreReplacedAsAWhole() async throws {
        var layout = try await build(
            LayoutSpec(
                width: 210, defaults: SectionProperties(columns: 1, rowSpacing: 0),
                sections: [SectionSpec(items: items([10, 10]))]))
        #expect(layout.itemFrames(0) == [rect(0, 0, 210, 10), rect(0, 10, 210, 10)])
        _ = try await layout.validateAndApply([.configureLayout(LayoutPatch(defaults: SectionProperties(columns: 1)))])
        #expect(layout.itemFrames(0) == [rect(0, 0, 210, 10), rect(0, 20, 210, 10)])
        #expect(layout.defaults == SectionProperties(columns: 1))
    }
}
