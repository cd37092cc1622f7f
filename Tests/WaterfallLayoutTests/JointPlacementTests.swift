import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallTestSupport

/// Updates of aspect feeds at several widths, which re-place the rest of a long section at every width, two widths
/// in one pass where the section's rules allow (`LayoutWidths+JointPlacement`) and over the old placement: each
/// width's frames equal those of a fresh layout made at that one width, and each width's diff replays.
@Suite struct JointPlacementTests {
    /// Plain feeds: 1 to 6 columns, the shortest column with ties to the leftmost, sometimes pixel snapping.
    @Test(arguments: 0..<12)
    func plainAspectFeeds(seed: Int) async throws {
        try await run(seed: UInt64(seed), spans: false)
    }

    /// Items spanning two columns here and there: each width places from such an item on alone, then both again.
    @Test(arguments: 100..<106)
    func feedsWithSpans(seed: Int) async throws {
        try await run(seed: UInt64(seed), spans: true)
    }

    /// Other rules (tolerance, the cursor tie-break): each width is placed on its own, over its old placement.
    @Test(arguments: 200..<204)
    func otherRules(seed: Int) async throws {
        try await run(seed: UInt64(seed), spans: false, tolerance: 8)
    }

    // MARK: Private

    private func run(seed: UInt64, spans: Bool, tolerance: Double? = nil) async throws {
        var random = SplitMix64(seed: seed)
        let count = Int.random(in: 300...1_500, using: &random)
        var properties = SectionProperties(
            columns: Int.random(in: 1...6, using: &random),
            columnSpacing: Double(Int.random(in: 0...12, using: &random)),
            rowSpacing: Double(Int.random(in: 0...12, using: &random)))
        if let tolerance {
            properties.tolerance = tolerance
            properties.tieBreak = .cursor
        }
        func item() -> Item {
            let span: Span = spans && Int.random(in: 0..<40, using: &random) == 0 ? .columns(2) : .columns(1)
            // Mostly aspect items, with a plain height now and then.
            let aspect =
                Int.random(in: 0..<10, using: &random) > 0 ? Double(Int.random(in: 100...400, using: &random)) : nil
            return Item(height: Double(Int.random(in: 20...400, using: &random)), aspectWidth: aspect, span: span)
        }
        let first = Double(Int.random(in: 300...500, using: &random))
        var spec = LayoutSpec(
            width: first, scale: Bool.random(using: &random) ? 2 : 0,
            sections: [SectionSpec(properties: properties, items: (0..<count).map { _ in item() })])
        spec.widths = [first]
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let width = first + Double(Int.random(in: 1...60, using: &random))
            if !spec.widths.contains(width) { spec.widths.append(width) }
        }
        var layout = try await LayoutWidths.make(spec).layouts
        for step in 0..<12 {
            let updates = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                ItemUpdate(index: Int.random(in: 0..<(count - 1), using: &random), item: item())
            }
            // One index once: an update list naming an index twice is refused.
            var seen = Set<Int>()
            let commands: [LayoutCommand] = [
                .updateItems(section: 0, updates: updates.filter { seen.insert($0.index).inserted })
            ]
            let context = "seed \(seed), step \(step): \(commands)"
            let before = layout.widths.map { FrameModel(layout.at(width: $0)!) }
            let outcomes = try await layout.apply(layout.validate(commands)) { _ in true }
            for (k, outcome) in outcomes.enumerated() {
                var client = before[k]
                try client.apply(outcome.diff, replaying: commands)
                #expect(
                    client.sections == FrameModel(layout.at(width: outcome.width)!).sections,
                    "diff at \(outcome.width) does not replay: \(context)")
            }
            for width in layout.widths {
                var alone = layout.spec
                alone.widths = [width]
                let fresh = try await Layout.make(alone).layout
                let here = try #require(layout.at(width: width))
                #expect(FrameModel(here).sections == FrameModel(fresh).sections, "frames at \(width): \(context)")
                #expect(here.contentSize == fresh.contentSize, "content size at \(width): \(context)")
            }
        }
    }
}
