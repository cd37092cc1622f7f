import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallTestSupport

/// The engine against `ReferenceLayout` on seeded random command sequences: incremental equals full, diffs replay
/// exactly, parallel equals serial, scroll anchors land where the reference's identity says, and a rejected command
/// changes nothing.
@Suite struct DifferentialTests {
    /// Steps per seed; `WATERFALL_DIFFERENTIAL_STEPS` raises it for long runs.
    static let steps = Environment.integer("WATERFALL_DIFFERENTIAL_STEPS") ?? 200

    @Test(arguments: 0..<50)
    func smallSections(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 40, steps: Self.steps)
    }

    /// Sections of hundreds to thousands of items, so placement restarts mid-section and converges.
    @Test(arguments: 1000..<1006)
    func largeSections(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 1500, steps: max(20, Self.steps / 8))
    }

    /// Wide sections: the heap from 16 columns on, and past 64 columns an index built after placement.
    @Test(arguments: 2000..<2006)
    func wideSections(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 600, columns: 12...80, steps: max(20, Self.steps / 8))
    }

    /// Items of a few standard heights, so that ties (and with them the tie rules) decide most placements.
    @Test(arguments: 3000..<3012)
    func tieHeavySections(seed: Int) async throws {
        try await run(
            seed: UInt64(seed), maxItems: 300, heights: [50, 100, 100, 150, 200], steps: max(20, Self.steps / 4))
    }

    /// Mostly `reflow: stable` sections (Geometry, "Stable reflow"): kept columns through inserts in the middle,
    /// updates, deletes, moves, resets and batches, against the reference's one command at a time.
    @Test(arguments: 4000..<4016)
    func stableSections(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 60, reflowChance: 0.9, steps: Self.steps)
    }

    /// Stable sections whose changes update an item twice (a span, then another, in one batch): each update keeps
    /// the column the one before it gave, as one at a time.
    @Test(arguments: 4100..<4112)
    func stableSectionsUpdatedTwice(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 30, reflowChance: 0.9, updateAgainChance: 0.7, steps: Self.steps)
    }

    /// Mostly horizontal layouts (Geometry, "Horizontal feeds"), ltr and rtl, some switching axis on the way: every
    /// frame, query, anchor and neighbour on screen, against the reference's own horizontal placement.
    @Test(arguments: 5000..<5030)
    func horizontalFeeds(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 40, axisChance: 0.8, steps: max(20, Self.steps / 2))
    }

    /// Sections and defaults setting `spanPlacement` (mostly `leastWhitespace`, Geometry, "Spans placed by
    /// whitespace"), some stable, some horizontal: spans placed by whitespace through every kind of change.
    @Test(arguments: 6000..<6016)
    func spanPlacementSections(seed: Int) async throws {
        try await run(
            seed: UInt64(seed), maxItems: 60, axisChance: 0.3, spanPlacementChance: 0.7, steps: max(20, Self.steps / 2))
    }

    /// Sections and defaults with stamps (Geometry, "Stamps"), some stable, some horizontal, some placing spans by
    /// whitespace: items moved below stamps through every kind of change, at several widths.
    @Test(arguments: 7000..<7024)
    func stampedSections(seed: Int) async throws {
        try await run(
            seed: UInt64(seed), maxItems: 50, axisChance: 0.3, spanPlacementChance: 0.3, stampsChance: 0.7,
            steps: max(20, Self.steps / 2))
    }

    /// Sections with `columnWidths` (Geometry, "Columns of different widths"), some stable, some horizontal, some
    /// right to left, under every kind of change; patches that set weights for another count are refused alike.
    @Test(arguments: 7000..<7016)
    func columnWidthsSections(seed: Int) async throws {
        try await run(
            seed: UInt64(seed), maxItems: 60, axisChance: 0.3, columnWidthsChance: 0.8, steps: max(20, Self.steps / 2))
    }

    /// Sections and defaults setting `lookahead` (Geometry, "Gaps filled by lookahead"), some with spans placed by
    /// whitespace, some combined with rules it cannot go with (refused by both), some horizontal: windows placed in
    /// their best order through every kind of change.
    @Test(arguments: 7000..<7016)
    func lookaheadSections(seed: Int) async throws {
        try await run(
            seed: UInt64(seed), maxItems: 40, axisChance: 0.3, spanPlacementChance: 0.4, lookaheadChance: 0.7,
            steps: max(20, Self.steps / 2))
    }

    private func run(
        seed: UInt64, maxItems: Int, columns: ClosedRange<Int> = 1...5, heights: [Double]? = nil,
        reflowChance: Double = 0.3, axisChance: Double = 0, spanPlacementChance: Double = 0, stampsChance: Double = 0,
        columnWidthsChance: Double = 0, updateAgainChance: Double = 0, lookaheadChance: Double = 0, steps: Int
    ) async throws {
        var random = RandomCommands(seed: seed, maxItems: maxItems, columns: columns, heights: heights)
        random.reflowChance = reflowChance
        random.axisChance = axisChance
        random.spanPlacementChance = spanPlacementChance
        random.stampsChance = stampsChance
        random.columnWidthsChance = columnWidthsChance
        random.updateAgainChance = updateAgainChance
        random.lookaheadChance = lookaheadChance
        var spec = random.layout()
        // The layout starts valid: stamps its sections cannot hold are left out (commands still try such ones).
        if spec.sections.contains(where: { !ReferenceLayout(spec).stampsFit($0.properties) }) {
            spec.defaults.stamps = nil
        }
        for k in spec.sections.indices where !ReferenceLayout(spec).stampsFit(spec.sections[k].properties) {
            spec.sections[k].properties.stamps = nil
        }
        var layout = try await Layout.make(spec).layout
        layout.parallelGrain = 1
        var serial = try await Layout.make(spec, allowsParallelism: false).layout
        var reference = ReferenceLayout(spec)
        try expectEqual(layout, reference.layout(), "seed \(seed), after create")
        // The frames before each step: the previous step's result, or the layout as created.
        var current = FrameModel(layout)
        for step in 0..<steps {
            let context = "seed \(seed), step \(step)"
            let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
            let commands = random.updatingAgain(
                (0..<(random.chance(0.2) ? random.int(2...3) : 1)).map { _ in random.command(counts: counts) })
            let before = current
            var client = before
            // A scroll anchor on a third of the requests, followed by the reference through the items' identity.
            let anchor = random.chance(0.3) ? random.anchor(counts: counts) : nil
            var expectedAnchor: AnchorOutcome?
            let accepted: Bool
            if let anchor {
                expectedAnchor = reference.apply(commands, anchor: anchor)
                accepted = expectedAnchor != nil
            } else {
                accepted = reference.apply(commands)
            }
            do {
                let diff: LayoutDiff
                if let anchor {
                    let applied = try await layout.apply(layout.validate(commands, anchor: anchor))
                    diff = applied.diff
                    #expect(
                        layout.screen.anchor(applied.anchor ?? .removed) == expectedAnchor,
                        "anchor \(anchor): \(context): \(commands)")
                } else {
                    diff = try await layout.validateAndApply(commands)
                }
                _ = try await serial.validateAndApply(commands)
                #expect(accepted, "engine accepted what the reference refused: \(context): \(commands)")
                try client.apply(diff, replaying: commands, screen: layout.screen)
                let after = FrameModel(layout)
                #expect(client.sections == after.sections, "diff does not replay: \(context): \(commands)")
                #expect(FrameModel(serial) == after, "parallel differs from serial: \(context)")
                current = after
                // Laid out from scratch once, for the frames, the query and the neighbours.
                let expected = reference.layout()
                try expectEqual(layout, expected, "\(context): \(commands)")
                expectSameQuery(layout, reference, expected.sections, &random, context)
            } catch let error as LayoutError {
                #expect(!accepted, "engine refused what the reference accepted: \(context): \(error)")
                #expect(FrameModel(layout) == before, "a rejected command changed the layout: \(context)")
            }
        }
    }

    private func expectEqual(
        _ layout: Layout, _ expected: (sections: [ReferenceLayout.Section], contentHeight: Double),
        _ context: @autoclosure () -> String
    ) throws {
        // The context names the commands, whose description costs more than the comparison: written on failure only.
        try #require(layout.sectionCount == expected.sections.count, "section count: \(context())")
        let along = layout.axis == .horizontal ? layout.contentSize.width : layout.contentSize.height
        #expect(along == expected.contentHeight, "content extent: \(context())")
        for (s, want) in expected.sections.enumerated() {
            let got = layout.screen.frames(layout.frames(ofSection: s))
            let same =
                got.origin == want.origin && got.height == want.height && got.header == want.header
                && got.pinMaxY == want.pinMaxY && got.footer == want.footer && got.items.map(\.frame) == want.items
                && got.items.map(\.id) == want.ids
            if !same {
                let bad = zip(got.items, want.items).first { $0.frame != $1 }
                Issue.record(
                    """
                    section \(s) differs from the reference (\(context()), \(layout.axis) \(layout.direction)): origin \
                    \(got.origin) vs \(want.origin), height \(got.height) vs \(want.height), pinMaxY \
                    \(String(describing: got.pinMaxY)) vs \(String(describing: want.pinMaxY)), header \
                    \(String(describing: got.header)) vs \(String(describing: want.header)), first item \
                    \(String(describing: bad))
                    """)
                return
            }
        }
    }

    /// A random screen rect's elements, in both orders, and a random item's neighbours, against scans of the
    /// reference's screen frames.
    private func expectSameQuery(
        _ layout: Layout, _ reference: ReferenceLayout, _ sections: [ReferenceLayout.Section],
        _ random: inout RandomCommands, _ context: String
    ) {
        let horizontal = layout.axis == .horizontal
        let rtl = layout.direction == .rtl
        let extent = Int(max(1, horizontal ? layout.contentSize.width : layout.contentSize.height))
        let along = Double(random.int(0...extent))
        let across = Double(random.int(0...300))
        let (alongSize, acrossSize) = (Double(random.int(0...800)), Double(random.int(0...500)))
        let rect =
            horizontal
            ? Rect(x: rtl ? -along - alongSize : along, y: across, width: alongSize, height: acrossSize)
            : Rect(x: across, y: along, width: acrossSize, height: alongSize)
        var expected: [Rect] = []
        var pinned: [Bool] = []
        // Each element's section and top relative to its section's start, as reading order judges rows.
        var tops: [(section: Int, top: Double)] = []
        for (s, section) in sections.enumerated() {
            if var header = section.header {
                let resting = header
                if let bound = section.pinMaxY {
                    // The Geometry article's rule along the feed: at the rect's leading edge, between rest and the bound.
                    switch (horizontal, rtl) {
                    case (false, _): header.y = min(max(rect.y, resting.y), bound)
                    case (true, false): header.x = min(max(rect.x, resting.x), bound)
                    case (true, true): header.x = max(min(rect.maxX - header.width, resting.x), bound)
                    }
                }
                if header.isVisible(in: rect) {
                    expected.append(header)
                    pinned.append(header != resting)
                    tops.append((s, header != resting ? header.y - section.origin : section.headerTop ?? 0))
                }
            }
            let items = section.items.indices.filter { section.items[$0].isVisible(in: rect) }
            expected += items.map { section.items[$0] }
            pinned += repeatElement(false, count: items.count)
            tops += items.map { (s, section.tops[$0]) }
            let stamps = section.stamps.indices.filter { section.stamps[$0].isVisible(in: rect) }
            expected += stamps.map { section.stamps[$0] }
            pinned += repeatElement(false, count: stamps.count)
            tops += stamps.map { (s, section.stampTops[$0]) }
            if let footer = section.footer, footer.isVisible(in: rect) {
                expected.append(footer)
                pinned.append(false)
                tops.append((s, section.footerTop ?? 0))
            }
        }
        if horizontal { tops = expected.map { (0, $0.y) } }
        let screen = layout.screen
        let elements = layout.elements(in: screen.flowRect(rect)).map(screen.element)
        #expect(elements.map(\.frame) == expected, "query \(rect): \(context)")
        #expect(elements.map(\.pinned) == pinned, "query \(rect), pinned: \(context)")
        let reading = ReferenceLayout.readingOrder(expected, tops: tops, rtl: rtl).map { expected[$0] }
        let ordered = layout.elements(in: screen.flowRect(rect), order: .reading).map { screen.element($0).frame }
        #expect(ordered == reading, "reading order: \(context)")
        let filled = (0..<layout.sectionCount).filter { layout.itemCount(inSection: $0) > 0 }
        guard !filled.isEmpty else { return }
        let s = filled[random.int(0...filled.count - 1)]
        let path = ItemPath(section: s, item: random.int(0...layout.itemCount(inSection: s) - 1))
        let n = layout.neighbors(of: path)
        let got = [n.above, n.below, n.left, n.right].map { element in
            element.map { ItemPath(section: $0.section, item: $0.index ?? -1) }
        }
        #expect(got == reference.neighbors(of: path, in: sections), "neighbors of \(path): \(context)")
    }
}
