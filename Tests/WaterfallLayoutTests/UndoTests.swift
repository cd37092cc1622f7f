import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallTestSupport

/// `Layout.undoing`: on seeded random commands, the undo of each that applies puts back the inputs, the frames
/// and the seq, alone and for a run of changes undone last first (what a visit whose commit failed does).
@Suite struct UndoTests {
    @Test(arguments: 0..<30)
    func eachChangeIsUndone(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(seed), maxItems: 60)
        var layout = try await Layout.make(random.layout()).layout
        var undone = 0
        for step in 0..<120 {
            let context = "seed \(seed), step \(step)"
            let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
            let commands = [random.command(counts: counts)]
            let before = layout
            guard let change = try? layout.validate(commands) else { continue }
            let undo = layout.undoing(change)
            _ = try await layout.apply(change)
            guard let undo else {
                if case .configureSection = commands[0] { continue }
                if case .configureLayout = commands[0] { continue }
                Issue.record("no undo for \(commands): \(context)")
                continue
            }
            var widths = LayoutWidths(layout)
            try await widths.replay(undo, seq: before.seq)
            let restored = widths.first
            #expect(restored.spec == before.spec, "inputs after undoing \(commands): \(context)")
            #expect(FrameModel(restored) == FrameModel(before), "frames after undoing \(commands): \(context)")
            #expect(restored.seq == before.seq)
            undone += 1
        }
        #expect(undone > 40, "seed \(seed): only \(undone) changes were undone")
    }

    /// Several changes, each asked for its undo just before it applies, undone together last first.
    @Test(arguments: 100..<110)
    func aRunOfChangesIsUndoneLastFirst(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(seed), maxItems: 40)
        var layout = try await Layout.make(random.layout()).layout
        for round in 0..<10 {
            let before = layout
            var undo: [[LayoutCommand]] = []
            for _ in 0..<8 {
                let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
                let commands = [random.command(counts: counts)]
                guard let change = try? layout.validate(commands), let inverse = layout.undoing(change) else {
                    continue
                }
                _ = try await layout.apply(change)
                undo.append(inverse)
            }
            var widths = LayoutWidths(layout)
            try await widths.replay(undo.reversed().flatMap { $0 }, seq: before.seq)
            let restored = widths.first
            #expect(restored.spec == before.spec, "seed \(seed), round \(round): inputs")
            #expect(
                FrameModel(restored).sections == FrameModel(before).sections, "seed \(seed), round \(round): frames")
        }
    }

    @Test func aDeleteOfScatteredItemsIsUndoneByInsertingItsRuns() async throws {
        let items = (0..<10).map { Item(height: Double($0 * 10)) }
        let layout = try await Layout.make(LayoutSpec(width: 300, sections: [SectionSpec(items: items)])).layout
        let undo = try #require(layout.undoing(layout.validate([.deleteItems(section: 0, indices: [7, 2, 3, 9])])))
        #expect(
            undo == [
                .insertItems(section: 0, at: 2, items: [items[2], items[3]]),
                .insertItems(section: 0, at: 7, items: [items[7]]),
                .insertItems(section: 0, at: 9, items: [items[9]]),
            ])
        #expect(try layout.undoing(layout.validate([.configureSection(0, SectionPatch())])) == nil)
        #expect(
            try layout.undoing(layout.validate([.moveSection(from: 0, to: 0), .moveSection(from: 0, to: 0)])) == nil)
    }

    /// A change validated against another state gets no undo (its caller keeps a copy), rather than an undo read
    /// from commands that were never checked against this layout.
    @Test func aChangeValidatedElsewhereHasNoUndo() async throws {
        let spec = LayoutSpec(width: 300, sections: [SectionSpec(items: [Item(height: 10)])])
        var layout = try await Layout.make(spec).layout
        let change = try layout.validate([.insertItems(section: 0, at: 1, items: [Item(height: 5)])])
        _ = try await layout.validateAndApply([.deleteItems(section: 0, indices: [0])])
        #expect(layout.undoing(change) == nil)
        await #expect(throws: LayoutError.self) { _ = try await layout.apply(change) }
        #expect(layout.itemCount == 0)
    }
}
