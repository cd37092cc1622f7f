import Testing
import WaterfallLayout
import WaterfallTestSupport

/// `elements(in:)` by the Geometry article's "Queries": hand-computed results, then a seeded comparison with a linear scan.
///
/// The layout, 210 wide:
/// - section 0: header 20, 2 columns, items 10, 20, 30, 40 → `(0,20,100,10) (110,20,100,20) (0,40,100,30)
///   (110,50,100,40)`, footer `(0,90,210,10)`; origin 0, height 100.
/// - section 1: 1 column, items 0, 10, 0 → `(0,100,210,0) (0,110,210,10) (0,130,210,0)`; height 30.
/// - section 2: 2 columns, a full span of 10 then 5 and 5 → `(0,130,210,10) (0,150,100,5) (110,150,100,5)`;
///   height 25.
/// - section 3: 2 columns, `next`, items 50, 10, 10, 10 → `(0,155,100,50) (110,155,100,10) (0,215,100,10)
///   (110,175,100,10)`: item 3 is above item 2. Height 70, content height 225.
@Suite struct QueryTests {
    static func layout(_ direction: Direction) -> LayoutSpec {
        LayoutSpec(
            width: 210, direction: direction,
            sections: [
                SectionSpec(
                    properties: SectionProperties(headerHeight: 20, footerHeight: 10), items: items([10, 20, 30, 40])),
                SectionSpec(properties: SectionProperties(columns: 1), items: items([0, 10, 0])),
                SectionSpec(items: [Item(height: 10, span: .full), Item(height: 5, id: "x"), Item(height: 5)]),
                SectionSpec(properties: SectionProperties(placement: .next), items: items([50, 10, 10, 10])),
            ])
    }

    /// An expected element: its kind, section and item index (nil for headers and footers).
    struct Key: Hashable, Sendable, CustomStringConvertible {
        var kind: Element.Kind
        var section: Int
        var index: Int?

        var description: String { "\(kind) \(section)" + (index.map { ".\($0)" } ?? "") }

        static func header(_ s: Int) -> Key { Key(kind: .header, section: s, index: nil) }
        static func footer(_ s: Int) -> Key { Key(kind: .footer, section: s, index: nil) }
        static func item(_ s: Int, _ i: Int) -> Key { Key(kind: .item, section: s, index: i) }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var direction: Direction = .ltr
        var rect: Rect
        var expected: [Key]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "everything, ordered by section, then header, items by index, footer", rect: rect(0, 0, 210, 300),
            expected: [
                .header(0), .item(0, 0), .item(0, 1), .item(0, 2), .item(0, 3), .footer(0), .item(1, 0), .item(1, 1),
                .item(1, 2), .item(2, 0), .item(2, 1), .item(2, 2), .item(3, 0), .item(3, 1), .item(3, 2), .item(3, 3),
            ]),
        Case(
            name: "items by index, not by y: item 2 (y 215) before item 3 (y 175)", rect: rect(0, 170, 210, 50),
            // Item 1 ends at 165.
            expected: [.item(3, 0), .item(3, 2), .item(3, 3)]),
        Case(
            name: "touching edges are not in: y (30, 40) holds only item 1", rect: rect(0, 30, 210, 10),
            expected: [.item(0, 1)]),
        Case(
            name: "the gap between columns: x (100, 110)", rect: rect(100, 0, 10, 200),
            // Items 0 to 3 end at 100 or start at 110; the zero-height items of section 1 have origin x 0.
            expected: [.header(0), .footer(0), .item(1, 1), .item(2, 0)]),
        Case(
            name: "the header alone: item 0 starts at the rect's maxY", rect: rect(0, 0, 210, 20),
            expected: [.header(0)]),
        Case(
            name: "a zero-height item by its origin: y 100 in [100, 105)", rect: rect(0, 100, 210, 5),
            // The footer ends at 100: touching, not in.
            expected: [.item(1, 0)]),
        Case(
            name: "a zero-height item at the rect's maxY is out: [95, 100)", rect: rect(0, 95, 210, 5),
            expected: [.footer(0)]),
        Case(
            name: "a zero-height item at the rect's minY is in: [130, 131)", rect: rect(0, 130, 210, 1),
            expected: [.item(1, 2), .item(2, 0)]),
        Case(
            name: "a zero-height item left of the rect's minX is out", rect: rect(1, 100, 209, 5), expected: []),
        Case(
            name: "a zero-height rect inside an item", rect: rect(0, 135, 210, 0), expected: [.item(2, 0)]),
        Case(
            name: "a full-span item crossing both columns is reported once", rect: rect(50, 131, 110, 5),
            expected: [.item(2, 0)]),
        Case(name: "left of everything", rect: rect(-50, 0, 50, 200), expected: []),
        Case(name: "right of everything", rect: rect(210, 0, 50, 200), expected: []),
        Case(name: "above everything", rect: rect(0, -10, 210, 10), expected: []),
        Case(name: "below everything: the last item ends at 225", rect: rect(0, 225, 210, 100), expected: []),
        Case(name: "one point inside item 3", rect: rect(150, 60, 1, 1), expected: [.item(0, 3)]),
        Case(
            name: "rtl: the left half holds column 1 and whatever spans", direction: .rtl, rect: rect(0, 0, 100, 200),
            // Mirrored: column 0 is at x 110, column 1 at x 0; full-width frames stay at 0, zero-height ones too.
            expected: [
                .header(0), .item(0, 1), .item(0, 3), .footer(0), .item(1, 0), .item(1, 1), .item(1, 2), .item(2, 0),
                .item(2, 2), .item(3, 1), .item(3, 3),
            ]),
        Case(
            name: "rtl: the right half holds column 0", direction: .rtl, rect: rect(110, 0, 100, 200),
            // Section 3's item 2 starts at 215, below the rect.
            expected: [
                .header(0), .item(0, 0), .item(0, 2), .footer(0), .item(1, 1), .item(2, 0), .item(2, 1), .item(3, 0),
            ]),
    ]

    @Test(arguments: cases)
    func elements(_ c: Case) async throws {
        let layout = try await build(Self.layout(c.direction))
        let found = layout.elements(in: c.rect)
        #expect(found.map { Key(kind: $0.kind, section: $0.section, index: $0.index) } == c.expected)
        // Each element carries its frame and id as the section's frames give them.
        for element in found {
            let section = layout.frames(ofSection: element.section)
            switch element.kind {
            case .header: #expect(element.frame == section.header)
            case .footer: #expect(element.frame == section.footer)
            case .item:
                let item = section.items[element.index ?? -1]
                #expect(element.frame == item.frame && element.id == item.id)
            case .stamp: Issue.record("these sections have no stamps: \(element)")
            }
        }
    }

    @Test func frameOfOneItem() async throws {
        let layout = try await build(Self.layout(.ltr))
        #expect(
            layout.frame(ofItem: ItemPath(section: 0, item: 3)) == ItemFrame(index: 3, frame: rect(110, 50, 100, 40)))
        #expect(
            layout.frame(ofItem: ItemPath(section: 2, item: 1))
                == ItemFrame(index: 1, frame: rect(0, 150, 100, 5), id: "x"))
    }

    /// Zero-width items (a column width of (20 - 2 * 10) / 3 = 0) are in a rect by their origin, like zero-height ones.
    @Test func zeroWidthItemsByTheirOrigin() async throws {
        let layout = try await build(spec(width: 20, SectionProperties(columns: 3), heights: [10, 10, 10]))
        #expect(layout.itemFrames(0) == [rect(0, 0, 0, 10), rect(10, 0, 0, 10), rect(20, 0, 0, 10)])
        func indices(_ r: Rect) -> [Int?] { layout.elements(in: r).map(\.index) }
        #expect(indices(rect(0, 0, 10, 100)) == [0])  // x 10 is the rect's maxX: out
        #expect(indices(rect(10, 0, 10, 1)) == [1])
        #expect(indices(rect(0, 0, 20.5, 1)) == [0, 1, 2])
        #expect(indices(rect(0, 1, 20, 10)) == [])  // the origins are at y 0, above the rect
    }

    /// Many sections: even ones hold one item of 10, odd ones only a header of 5, so section 2m starts at 15m and
    /// section 2m + 1 at 15m + 10.
    @Test func manySections() async throws {
        let sections = (0..<200).map { s in
            s.isMultiple(of: 2)
                ? SectionSpec(properties: SectionProperties(columns: 1), items: items([10]))
                : SectionSpec(properties: SectionProperties(headerHeight: 5))
        }
        let layout = try await build(LayoutSpec(width: 100, sections: sections))
        func keys(_ r: Rect) -> [Key] {
            layout.elements(in: r).map { Key(kind: $0.kind, section: $0.section, index: $0.index) }
        }
        // [150, 170): section 20's item (150-160), section 21's header (160-165), section 22's item (165-175).
        #expect(keys(rect(0, 150, 100, 20)) == [.item(20, 0), .header(21), .item(22, 0)])
        // [160, 165) is exactly section 21's header.
        #expect(keys(rect(0, 160, 100, 5)) == [.header(21)])
        // The last section, 199, is a header at 99 * 15 + 10 = 1495.
        #expect(keys(rect(0, 1490, 100, 100)) == [.item(198, 0), .header(199)])
        #expect(keys(rect(0, 0, 100, 15)) == [.item(0, 0), .header(1)])
        #expect(layout.elements(in: rect(0, 0, 100, 3000)).count == 200)
    }

    /// The Geometry article's rule, written out again here so the comparison does not trust `Rect.isVisible`.
    static func isIn(_ f: Rect, _ r: Rect) -> Bool {
        if f.width == 0 || f.height == 0 {
            return r.x <= f.x && f.x < r.x + r.width && r.y <= f.y && f.y < r.y + r.height
        }
        return f.y < r.y + r.height && f.y + f.height > r.y && f.x < r.x + r.width && f.x + f.width > r.x
    }

    /// Every element of every section, in query order, by a plain walk over all frames.
    static func scan(_ layout: Layout, _ r: Rect) -> [Element] {
        var result: [Element] = []
        for s in 0..<layout.sectionCount {
            let section = layout.frames(ofSection: s)
            if var header = section.header {
                // A pinned header at min(max(r.minY, header.y), pinMaxY), pinned when off its resting y.
                let resting = header.y
                if let pinMaxY = section.pinMaxY { header.y = min(max(r.y, resting), pinMaxY) }
                if isIn(header, r) {
                    result.append(
                        Element(
                            kind: .header, section: s, index: nil, frame: header, id: nil, pinned: header.y != resting))
                }
            }
            for item in section.items where isIn(item.frame, r) {
                result.append(Element(kind: .item, section: s, index: item.index, frame: item.frame, id: item.id))
            }
            if let footer = section.footer, isIn(footer, r) {
                result.append(Element(kind: .footer, section: s, index: nil, frame: footer, id: nil))
            }
        }
        return result
    }

    /// Seeded random layouts, some mutated, and a few hundred rects each, half of them snapped to frame edges so
    /// that touching edges and zero-size elements are hit often.
    @Test(arguments: 0..<8)
    func randomQueriesMatchALinearScan(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(seed) &+ 7_000, maxItems: 300)
        var layout = try await build(random.layout())
        for _ in 0..<random.int(0...10) {
            let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
            _ = try? await layout.validateAndApply([random.command(counts: counts)])
        }
        let all = Self.scan(layout, rect(-1e6, -1e6, 4e6, 4e12))
        let edges = all.flatMap { [$0.frame.x, $0.frame.maxX] }
        let tops = all.flatMap { [$0.frame.y, $0.frame.maxY] }
        let width = layout.width
        let height = layout.contentSize.height
        for query in 0..<300 {
            func pick(_ values: [Double], _ range: ClosedRange<Double>) -> Double {
                !values.isEmpty && random.chance(0.5)
                    ? values[random.int(0...values.count - 1)]
                    : Double(random.int(Int(range.lowerBound)...Int(range.upperBound)))
            }
            let x = pick(edges, -20...(width + 20))
            let y = pick(tops, -20...(height + 20))
            let w = random.chance(0.1) ? 0 : Double(random.int(1...Int(width)))
            let h = random.chance(0.1) ? 0 : Double(random.int(1...400))
            let r = rect(x, y, w, h)
            let got = layout.elements(in: r)
            let want = Self.scan(layout, r)
            #expect(got == want, "seed \(seed), query \(query): \(r)")
            if got != want { return }
        }
    }
}
