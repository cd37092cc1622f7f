import Testing
import WaterfallLayout

/// Pinned headers (the Geometry article, "Pinned headers"), computed by hand: `pinMaxY`, queries that place a pinned
/// header within its range, and the diffs that list a header whose range changed.
///
/// The layout: width 210, defaults of 2 columns (100 wide, 10 apart), headers of 20 and `pinHeader` true.
///
/// - Section 0 (first), origin 0, `insets.bottom` 10, items 50, 30, 40: item 0 at (0, 20) to 70, item 1 at
///   (110, 20) to 50, item 2 at (110, 60) to 100. itemsBottom 100, height 110; pinMaxY = 100 + 10 − 20 = 90.
/// - Section 1 (middle), origin 110, `headerInsets` top 5 and left 10: header (10, 115, 200, 20), block 25; item 0
///   at (0, 135) to 195. Locally itemsBottom 85, pinMaxY = max(5, 85 − 20) = 65, so 175; height 85.
/// - Section 2, origin 195, no header (height 0) but `pinHeader` from the defaults: item 0 at (0, 195) to 205; no
///   pinMaxY.
/// - Section 3, origin 205, no items: header (0, 205, 210, 20), height 20; pinMaxY = max(0, 20 − 20) = 0, so 205,
///   its resting y: it never moves.
/// - Section 4 (last), origin 225, one item of 10, shorter than its header: item at (0, 245) to 255; locally
///   pinMaxY = max(0, 30 − 20) = 10, so 235; height 30. Content height 255.
@Suite struct PinnedHeaderTests {
    static let defaults = SectionProperties(columns: 2, headerHeight: 20, pinHeader: true)

    static func layout(direction: Direction = .ltr) -> LayoutSpec {
        LayoutSpec(
            width: 210, direction: direction, defaults: defaults,
            sections: [
                SectionSpec(
                    properties: SectionProperties(insets: Insets(top: 0, left: 0, bottom: 10, right: 0)),
                    items: items([50, 30, 40])),
                SectionSpec(
                    properties: SectionProperties(headerInsets: Insets(top: 5, left: 10, bottom: 0, right: 0)),
                    items: items([60])),
                SectionSpec(properties: SectionProperties(headerHeight: 0), items: items([10])),
                SectionSpec(),
                SectionSpec(items: items([10])),
            ])
    }

    static func patch(_ edit: (inout SectionPatch) -> Void) -> SectionPatch {
        var patch = SectionPatch()
        edit(&patch)
        return patch
    }

    /// A query element, written out: kind, section, index, frame, pinned.
    static func element(
        _ kind: Element.Kind, _ s: Int, _ index: Int? = nil, _ frame: Rect, pinned: Bool = false
    ) -> Element {
        Element(kind: kind, section: s, index: index, frame: frame, id: nil, pinned: pinned)
    }

    @Test func framesCarryPinMaxY() async throws {
        let layout = try await build(Self.layout())
        let frames = (0..<layout.sectionCount).map { layout.frames(ofSection: $0) }
        #expect(frames.map(\.origin) == [0, 110, 195, 205, 225])
        #expect(
            frames.map(\.header) == [
                rect(0, 0, 210, 20), rect(10, 115, 200, 20), nil, rect(0, 205, 210, 20), rect(0, 225, 210, 20),
            ])
        #expect(frames.map(\.pinMaxY) == [90, 175, nil, 205, 235])
        #expect(layout.contentSize.height == 255)
        // The listing pieces a large layout.get is written from say the same.
        #expect((0..<5).map { layout.frames(ofSection: $0, items: 0..<0).pinMaxY } == [90, 175, nil, 205, 235])
    }

    @Test func withoutPinHeaderThereIsNoPinMaxY() async throws {
        var spec = Self.layout()
        spec.defaults.pinHeader = nil
        spec.sections[4].properties.pinHeader = true
        let layout = try await build(spec)
        #expect((0..<5).map { layout.frames(ofSection: $0).pinMaxY } == [nil, nil, nil, nil, 235])
        // The frames are the same as with pinning: it moves nothing.
        let pinned = try await build(Self.layout())
        #expect(
            (0..<5).map { layout.frames(ofSection: $0).items } == (0..<5).map { pinned.frames(ofSection: $0).items })
    }

    struct QueryCase: Sendable, CustomTestStringConvertible {
        var name: String
        var rect: Rect
        var expected: [Element]
        var testDescription: String { name }
    }

    static let queries: [QueryCase] = [
        QueryCase(name: "above section 0: nothing", rect: rect(0, -50, 210, 40), expected: []),
        QueryCase(
            name: "at section 0's top: its header at rest, not pinned", rect: rect(0, 0, 210, 10),
            expected: [element(.header, 0, nil, rect(0, 0, 210, 20))]),
        QueryCase(
            name: "inside section 0: its header at the rect's top, pinned", rect: rect(0, 30, 210, 10),
            expected: [
                element(.header, 0, nil, rect(0, 30, 210, 20), pinned: true),
                element(.item, 0, 0, rect(0, 20, 100, 50)),
                element(.item, 0, 1, rect(110, 20, 100, 30)),
            ]),
        QueryCase(
            name: "at section 0's push-up point: its header at pinMaxY 90", rect: rect(0, 90, 210, 10),
            expected: [
                element(.header, 0, nil, rect(0, 90, 210, 20), pinned: true),
                element(.item, 0, 2, rect(110, 60, 100, 40)),
            ]),
        QueryCase(
            name: "past section 0's push-up point: its header stays at 90, section 1's at rest is below the rect",
            rect: rect(0, 100, 210, 10), expected: [element(.header, 0, nil, rect(0, 90, 210, 20), pinned: true)]),
        QueryCase(
            name: "at section 1's resting y: not pinned", rect: rect(0, 115, 210, 1),
            expected: [element(.header, 1, nil, rect(10, 115, 200, 20))]),
        QueryCase(
            name: "below section 0, inside section 1: section 1's header pinned", rect: rect(0, 130, 210, 10),
            expected: [
                element(.header, 1, nil, rect(10, 130, 200, 20), pinned: true),
                element(.item, 1, 0, rect(0, 135, 100, 60)),
            ]),
        QueryCase(
            name: "at section 1's push-up point", rect: rect(0, 175, 210, 10),
            expected: [
                element(.header, 1, nil, rect(10, 175, 200, 20), pinned: true),
                element(.item, 1, 0, rect(0, 135, 100, 60)),
            ]),
        QueryCase(
            name: "below section 1: section 2 has no header", rect: rect(0, 196, 210, 5),
            expected: [element(.item, 2, 0, rect(0, 195, 100, 10))]),
        QueryCase(
            name: "inside the empty section 3: its header cannot move", rect: rect(0, 210, 210, 5),
            expected: [element(.header, 3, nil, rect(0, 205, 210, 20))]),
        QueryCase(
            name: "inside the last section, above its push-up point", rect: rect(0, 230, 210, 1),
            expected: [element(.header, 4, nil, rect(0, 230, 210, 20), pinned: true)]),
        QueryCase(
            name: "past the last section's push-up point", rect: rect(0, 240, 210, 100),
            expected: [
                element(.header, 4, nil, rect(0, 235, 210, 20), pinned: true),
                element(.item, 4, 0, rect(0, 245, 100, 10)),
            ]),
        QueryCase(name: "below the last section: nothing", rect: rect(0, 260, 210, 10), expected: []),
        QueryCase(
            name: "a rect beside a pinned header's x misses it", rect: rect(0, 130, 5, 10),
            expected: [element(.item, 1, 0, rect(0, 135, 100, 60))]),
    ]

    @Test(arguments: queries)
    func query(_ c: QueryCase) async throws {
        let layout = try await build(Self.layout())
        #expect(layout.elements(in: c.rect) == c.expected)
        // The chunked query reply asks for each header alone: the same element.
        let headers = layout.sections(crossing: c.rect).compactMap { layout.headerElement(ofSection: $0, in: c.rect) }
        #expect(headers == c.expected.filter { $0.kind == .header })
    }

    /// rtl mirrors x only: section 1's header (10 from the left, 200 wide) goes to x 0; pinMaxY and y are unchanged.
    @Test func rtlMirrorsXOnly() async throws {
        let layout = try await build(Self.layout(direction: .rtl))
        #expect(layout.frames(ofSection: 1).header == rect(0, 115, 200, 20))
        #expect(layout.frames(ofSection: 1).pinMaxY == 175)
        #expect(
            layout.elements(in: rect(0, 180, 210, 5)) == [
                Self.element(.header, 1, nil, rect(0, 175, 200, 20), pinned: true),
                Self.element(.item, 1, 0, rect(110, 135, 100, 60)),
            ])
    }

    /// Section 1's item grows from 60 to 80: its pinMaxY moves to 195 with its bottom, so the header is listed with
    /// it; sections 2 to 4 only move down by 20, pinned headers and all, and stay a shift.
    @Test func anItemChangeThatMovesPinMaxYListsTheHeader() async throws {
        var layout = try await build(Self.layout())
        let diff = try await layout.validateAndApply([
            .updateItems(section: 1, updates: [ItemUpdate(index: 0, item: Item(height: 80))])
        ])
        #expect(
            diff
                == LayoutDiff(
                    sections: [
                        SectionDiff(
                            section: 1, origin: 110, height: 105, count: 1, header: .set(rect(10, 115, 200, 20)),
                            pinMaxY: 195, items: [ItemFrame(index: 0, frame: rect(0, 135, 100, 80))])
                    ],
                    shifts: [SectionShift(from: 2, to: 4, dy: 20)]))
        #expect((0..<5).map { layout.frames(ofSection: $0).pinMaxY } == [90, 195, nil, 225, 255])
    }

    /// Section 0's item 0 grows from 50 to 60: it ends at 80, above item 2's 100, so the items end where they did
    /// and the header is not listed.
    @Test func anItemChangeThatKeepsPinMaxYDoesNotListTheHeader() async throws {
        var layout = try await build(Self.layout())
        let diff = try await layout.validateAndApply([
            .updateItems(section: 0, updates: [ItemUpdate(index: 0, item: Item(height: 60))])
        ])
        #expect(
            diff
                == LayoutDiff(sections: [
                    SectionDiff(
                        section: 0, origin: 0, height: 110, count: 3,
                        items: [ItemFrame(index: 0, frame: rect(0, 20, 100, 60))])
                ]))
    }

    /// Appending to the last section moves only its pinMaxY (15 further down, with item 1 of 15 beside item 0).
    @Test func anAppendToTheLastSectionMovesItsPinMaxY() async throws {
        var layout = try await build(Self.layout())
        let diff = try await layout.validateAndApply([.insertItems(section: 4, at: 1, items: plainItems([15]))])
        // Item 1 goes to column 1 at 245 and ends at 260: itemsBottom 35 locally, pinMaxY 15, so 240.
        #expect(
            diff
                == LayoutDiff(sections: [
                    SectionDiff(
                        section: 4, origin: 225, height: 35, count: 2, header: .set(rect(0, 225, 210, 20)),
                        pinMaxY: 240, items: [ItemFrame(index: 1, frame: rect(110, 245, 100, 15))])
                ]))
    }

    /// Switching pinning off and on by `sections.configure` lists the header without and then with its pinMaxY,
    /// and places no item again.
    @Test func sectionsConfigureSwitchesPinning() async throws {
        var layout = try await build(Self.layout())
        let off = try await layout.validateAndApply([.configureSection(1, Self.patch { $0.pinHeader = .set(false) })])
        #expect(
            off
                == LayoutDiff(sections: [
                    SectionDiff(section: 1, origin: 110, height: 85, count: 1, header: .set(rect(10, 115, 200, 20)))
                ]))
        #expect(layout.lastPlacedCount == 0)
        #expect(layout.frames(ofSection: 1).pinMaxY == nil)
        #expect(
            layout.elements(in: rect(0, 130, 210, 1)).first == Self.element(.header, 1, nil, rect(10, 115, 200, 20)))
        // Reset: the defaults' true applies again.
        let on = try await layout.validateAndApply([.configureSection(1, Self.patch { $0.pinHeader = .reset })])
        #expect(
            on
                == LayoutDiff(sections: [
                    SectionDiff(
                        section: 1, origin: 110, height: 85, count: 1, header: .set(rect(10, 115, 200, 20)),
                        pinMaxY: 175)
                ]))
        #expect(layout.lastPlacedCount == 0)
        // Setting what is already in force changes nothing.
        let same = try await layout.validateAndApply([.configureSection(1, Self.patch { $0.pinHeader = .set(true) })])
        #expect(same == LayoutDiff())
    }

    /// New defaults without `pinHeader` unpin every header that pinned by the defaults (sections 0, 1, 3 and 4; 2
    /// has none); pinning by the defaults again lists them with their pinMaxY.
    @Test func layoutConfigureDefaultsSwitchPinning() async throws {
        var layout = try await build(Self.layout())
        var unpinned = Self.defaults
        unpinned.pinHeader = nil
        let off = try await layout.validateAndApply([.configureLayout(LayoutPatch(defaults: unpinned))])
        #expect(
            off
                == LayoutDiff(sections: [
                    SectionDiff(section: 0, origin: 0, height: 110, count: 3, header: .set(rect(0, 0, 210, 20))),
                    SectionDiff(section: 1, origin: 110, height: 85, count: 1, header: .set(rect(10, 115, 200, 20))),
                    SectionDiff(section: 3, origin: 205, height: 20, count: 0, header: .set(rect(0, 205, 210, 20))),
                    SectionDiff(section: 4, origin: 225, height: 30, count: 1, header: .set(rect(0, 225, 210, 20))),
                ]))
        #expect(layout.lastPlacedCount == 0)
        let on = try await layout.validateAndApply([.configureLayout(LayoutPatch(defaults: Self.defaults))])
        #expect(on.sections.map(\.pinMaxY) == [90, 175, 205, 235])
        #expect(on.sections.map(\.section) == [0, 1, 3, 4])
        #expect(on.shifts.isEmpty)
    }

    /// A new section below pinned ones, and one above them: the new one lists its header with pinMaxY; the sections
    /// it pushes down stay one shift.
    @Test func insertedSectionsCarryPinMaxY() async throws {
        var layout = try await build(Self.layout())
        let diff = try await layout.validateAndApply([
            .insertSections(at: 0, sections: [SectionSpec(items: items([30]))])
        ])
        // The new section 0: header 0 to 20, item 20 to 50; pinMaxY = 50 − 20 = 30; height 50.
        #expect(
            diff
                == LayoutDiff(
                    sections: [
                        SectionDiff(
                            section: 0, origin: 0, height: 50, count: 1, isNew: true, header: .set(rect(0, 0, 210, 20)),
                            pinMaxY: 30, items: [ItemFrame(index: 0, frame: rect(0, 20, 100, 30))])
                    ],
                    shifts: [SectionShift(from: 1, to: 5, dy: 50)]))
        #expect((0..<6).map { layout.frames(ofSection: $0).pinMaxY } == [30, 140, 225, nil, 255, 285])
    }
}
