import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallTestSupport

/// A layout at several widths (`LayoutWidths`): after any sequence of changes, each width's frames equal those of a
/// fresh layout made at that one width from the layout's inputs, each width's diff replays, and a refused change
/// changes no width.
@Suite struct LayoutWidthsTests {
    static let steps = Environment.integer("WATERFALL_DIFFERENTIAL_STEPS") ?? 80

    @Test(arguments: 0..<16)
    func randomChanges(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 40)
    }

    /// Sections of hundreds of items, so that placement restarts mid-section at every width.
    @Test(arguments: 100..<104)
    func largeSections(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 800, steps: 30)
    }

    /// No aspect items and widths a few points apart (mostly the same column counts): the widths share the first's
    /// placement (`LayoutWidths+SharedPlacement`) through item changes, and are placed again through the rest.
    @Test(arguments: 200..<216)
    func sharedPlacement(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 60, aspectChance: 0, spread: 24)
    }

    /// Feeds of aspect items only, at widths a few points apart: their heights differ at every width, so each width
    /// is placed (in parallel), and must equal its own placement from scratch.
    @Test(arguments: 300..<308)
    func aspectFeeds(seed: Int) async throws {
        try await run(seed: UInt64(seed), maxItems: 400, steps: 20, aspectChance: 1, spread: 60)
    }

    @Test func theFirstWidthIsTheDefaultAndEveryWidthIsLaidOut() async throws {
        let properties = SectionProperties(minColumnWidth: 100, columnSpacing: 0, rowSpacing: 0)
        var spec = spec(width: 0, properties, heights: [10, 20, 30])
        spec.widths = [300, 200, 100]
        let layout = try await buildWidths(spec)
        #expect(layout.widths == [300, 200, 100])
        #expect(layout.first.width == 300)
        // 3, 2 and 1 columns of 100.
        #expect(
            layout.at(width: 300)?.frames(ofSection: 0).items.map(\.frame) == [
                rect(0, 0, 100, 10), rect(100, 0, 100, 20), rect(200, 0, 100, 30),
            ])
        #expect(
            layout.at(width: 200)?.frames(ofSection: 0).items.map(\.frame) == [
                rect(0, 0, 100, 10), rect(100, 0, 100, 20), rect(0, 10, 100, 30),
            ])
        #expect(layout.at(width: 100)?.contentSize == Size(width: 100, height: 60))
        #expect(layout.at(width: 150) == nil)
        #expect(layout.weight == 3 * 3 + 3 + (3 + 2 + 1))
    }

    @Test(arguments: [
        ([], "widths: 0 widths must list 1 to 16 widths"),
        (Array(1...17).map { Double($0) * 10 }, "widths: 17 widths must list 1 to 16 widths"),
        ([320, 375, 320], "widths[2]: 320 is listed twice (as widths[0])"),
        ([320, .infinity], "widths[1]: inf must be a number ≥ 0"),
        ([320, 0], "widths[1]: 0 must be > 0"),
    ])
    func badWidthsAreRefusedNamingFieldAndValue(widths: [Double], message: String) async throws {
        var bad = spec(width: 1, heights: [10])
        bad.widths = widths
        let error = await thrown { _ = try await buildWidths(bad) }
        #expect(error?.description == message)
        var layout = try await buildWidths(spec(width: 320, heights: [10]))
        let before = layout.widths
        let refused = await thrown {
            _ = try await layout.validateAndApply([.configureLayout(LayoutPatch(widths: widths))])
        }
        #expect(refused?.description == message)
        #expect(layout.widths == before && layout.seq == 1)
    }

    /// A width too narrow for a section's insets at one width only refuses the change at every width.
    @Test func aChangeThatFailsAtOneWidthChangesNone() async throws {
        var spec = spec(width: 0, SectionProperties(columns: 2), heights: [10])
        spec.widths = [400, 100]
        var layout = try await buildWidths(spec)
        var patch = SectionPatch()
        patch.insets = .set(Insets(top: 0, left: 60, bottom: 0, right: 60))
        let error = await thrown { _ = try await layout.validateAndApply([.configureSection(0, patch)]) }
        #expect(error != nil)
        #expect(layout.seq == 1)
        #expect(layout.at(width: 400)?.frames(ofSection: 0).items.map(\.frame) == [rect(0, 0, 195, 10)])
    }

    /// The item limit counts a frame per width.
    @Test func theItemLimitCountsEveryWidth() async throws {
        var spec = spec(width: 0, heights: [10, 10])
        spec.widths = [100, 200]
        let limits = LayoutLimits(maxItems: 5, maxSections: 10, maxColumns: 8)
        var layout = try await buildWidths(spec, limits: limits)
        let error = await thrown {
            _ = try await layout.validateAndApply([.insertItems(section: 0, at: 0, items: plainItems([1]))])
        }
        #expect(error?.description.contains("3 items at 2 widths (6 frames), over the limit of 5") == true)
        let more = await thrown {
            _ = try await layout.validateAndApply([.configureLayout(LayoutPatch(widths: [1, 2, 3]))])
        }
        #expect(more?.description.contains("2 items at 3 widths") == true)
    }

    /// The usual change, applied at once (`applyAtOnce`, without a suspension), makes what `apply` makes: the same
    /// outcomes and frames. Any other change it leaves to `apply`, with the layout unchanged.
    @Test(arguments: 300..<308)
    func changesAppliedAtOnce(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(seed), maxItems: 60)
        var atOnce = try await LayoutWidths.make(random.layout()).layouts
        var general = atOnce
        var madeAtOnce = 0
        for step in 0..<60 {
            let context = "seed \(seed), step \(step)"
            let counts = (0..<general.first.sectionCount).map { general.first.itemCount(inSection: $0) }
            let commands = (0..<(random.chance(0.2) ? 2 : 1)).map { _ in random.command(counts: counts) }
            guard let validated = try? general.validate(commands) else { continue }
            let before = FrameModel(atOnce.first)
            let outcomes = try await general.apply(validated) { _ in true }
            if let made = try atOnce.applyAtOnce(validated, listingItems: true) {
                madeAtOnce += 1
                #expect(made.map(\.diff) == outcomes.map(\.diff), "\(context): \(commands)")
                #expect(made.map(\.width) == outcomes.map(\.width), "\(context)")
            } else {
                #expect(FrameModel(atOnce.first) == before, "left to apply, yet changed: \(context): \(commands)")
                _ = try await atOnce.apply(validated) { _ in true }
            }
            #expect(atOnce.seq == general.seq, "\(context)")
            #expect(FrameModel(atOnce.first) == FrameModel(general.first), "\(context): \(commands)")
        }
        #expect(madeAtOnce > 0)
    }

    // MARK: Private

    private func run(
        seed: UInt64, maxItems: Int, steps: Int = Self.steps, aspectChance: Double = 0.15, spread: Int? = nil
    ) async throws {
        var random = RandomCommands(seed: seed, maxItems: maxItems)
        random.aspectChance = aspectChance
        var spec = random.layout()
        spec.widths = randomWidths(&random, including: spec.width, spread: spread)
        var layout = try await LayoutWidths.make(spec).layouts
        layout.parallelGrain = 1
        try await expectFresh(layout, "seed \(seed), after create")
        for step in 0..<steps {
            let context = "seed \(seed), step \(step)"
            let counts = (0..<layout.first.sectionCount).map { layout.first.itemCount(inSection: $0) }
            var commands = (0..<(random.chance(0.2) ? random.int(2...3) : 1)).map { _ in
                random.command(counts: counts)
            }
            if random.chance(spread == nil ? 0.08 : 0.3) {
                // With a spread, a few points apart again (a configure of `width` among the commands leaves one).
                let first = spread.map { _ in Double(random.int(150...900)) }
                commands.append(
                    .configureLayout(LayoutPatch(widths: randomWidths(&random, including: first, spread: spread))))
            }
            let before = layout.widths.map { FrameModel(layout.at(width: $0)!) }
            let widthsBefore = layout.widths
            do {
                let validated = try layout.validate(commands)
                let outcomes = try await layout.apply(validated) { _ in true }
                #expect(outcomes.map(\.width) == layout.widths, "\(context)")
                for outcome in outcomes {
                    guard let k = widthsBefore.firstIndex(of: outcome.from) else { continue }
                    var client = before[k]
                    try client.apply(outcome.diff, replaying: commands)
                    let after = FrameModel(layout.at(width: outcome.width)!)
                    #expect(
                        client.sections == after.sections,
                        "diff at \(outcome.width) does not replay: \(context): \(commands)")
                }
                try await expectFresh(layout, "\(context): \(commands)")
            } catch let error as LayoutError {
                #expect(layout.widths == widthsBefore, "refused: \(context): \(error)")
                let after = layout.widths.map { FrameModel(layout.at(width: $0)!) }
                #expect(after == before, "a refused change changed the layout: \(context)")
            }
        }
    }

    /// 1–4 distinct widths, `first` first when given; within `spread` points above it when given.
    private func randomWidths(_ random: inout RandomCommands, including first: Double?, spread: Int? = nil) -> [Double]
    {
        var widths = first.map { [$0] } ?? []
        for _ in 0..<random.int(first == nil ? 1...4 : 0...3) {
            let width =
                if let spread, let first { first + Double(random.int(0...spread)) } else {
                    Double(random.int(150...900))
                }
            if !widths.contains(width) { widths.append(width) }
        }
        return widths
    }

    private func buildWidths(_ spec: LayoutSpec, limits: LayoutLimits = .default) async throws -> LayoutWidths {
        try await LayoutWidths.make(spec, limits: limits).layouts
    }

    /// Each width's frames against a fresh layout made at that one width from the layout's inputs.
    /// `context` names the commands, whose description costs more than the check: it is written on failure only.
    private func expectFresh(_ layout: LayoutWidths, _ context: @autoclosure () -> String) async throws {
        #expect(Set(layout.widths).count == layout.widths.count)
        for width in layout.widths {
            var spec = layout.spec
            spec.widths = [width]
            let fresh = try await Layout.make(spec).layout
            let here = try #require(layout.at(width: width))
            #expect(here.seq == layout.seq, "seq at \(width): \(context())")
            #expect(FrameModel(here).sections == FrameModel(fresh).sections, "frames at \(width): \(context())")
            #expect(here.contentSize == fresh.contentSize, "content size at \(width): \(context())")
        }
    }
}
