import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallTestSupport

@Suite(.tags(.server)) struct FrameModelTests {
    /// Three sections of one item each, 100 points apart.
    static func threeSections() -> FrameModel {
        FrameModel(
            seq: 1, contentSize: Size(width: 100, height: 300),
            sections: (0..<3).map { s in
                let y = Double(s) * 100
                return FrameModel.Section(
                    origin: y, height: 100, header: Rect(x: 0, y: y, width: 100, height: 10),
                    items: [FrameModel.Item(frame: Rect(x: 0, y: y + 10, width: 100, height: 90))])
            })
    }

    @Test func aShiftMovesEverySectionOfItsRun() throws {
        var model = Self.threeSections()
        // Section 0 grows by 20: it is listed, sections 1 and 2 only move (one shift).
        let diff = LayoutDiff(
            sections: [
                SectionDiff(
                    section: 0, origin: 0, height: 120, count: 1,
                    items: [ItemFrame(index: 0, frame: Rect(x: 0, y: 10, width: 100, height: 110))])
            ], shifts: [SectionShift(from: 1, to: 2, dy: 20)])
        try model.apply(
            MutationResult(seq: 2, contentSize: Size(width: 100, height: 320), diff: diff),
            replaying: [.updateItems(section: 0, updates: [ItemUpdate(index: 0, item: Item(height: 110))])])
        #expect(model.seq == 2 && model.contentSize.height == 320)
        #expect(model.sections.map(\.origin) == [0, 120, 220])
        #expect(model.sections.map { $0.items[0]?.frame.y } == [10, 130, 230])
        #expect(model.sections.map { $0.header?.y } == [0, 120, 220])
    }

    @Test func aShiftIsInTheIndexSpaceAfterTheRequest() throws {
        var model = Self.threeSections()
        // Section 0 deleted: the old sections 1 and 2 are now 0 and 1, and move up by 100.
        let diff = LayoutDiff(sections: [], shifts: [SectionShift(from: 0, to: 1, dy: -100)])
        try model.apply(
            MutationResult(seq: 2, contentSize: Size(width: 100, height: 200), diff: diff),
            replaying: [.deleteSections([0])])
        #expect(model.sections.map(\.origin) == [0, 100])
        #expect(model.sections.map { $0.items[0]?.frame.y } == [10, 110])
    }

    @Test func aChangeAlreadyHeldIsSkippedAndAGapThrows() throws {
        var model = Self.threeSections()
        let diff = LayoutDiff(sections: [], shifts: [])
        try model.apply(MutationResult(seq: 1, contentSize: .init(width: 0, height: 0), diff: diff), replaying: [])
        #expect(model == Self.threeSections())
        #expect(throws: FrameModelError.outOfSequence(held: 1, received: 3)) {
            try model.apply(MutationResult(seq: 3, contentSize: .init(width: 0, height: 0), diff: diff), replaying: [])
        }
    }

    @Test func aDiffThatDoesNotFitThrows() {
        var model = Self.threeSections()
        let diff = LayoutDiff(sections: [], shifts: [SectionShift(from: 2, to: 5, dy: 1)])
        #expect(throws: FrameModelError.self) { try model.apply(diff) }
        #expect(throws: FrameModelError.self) { try model.replay([.deleteItems(section: 0, indices: [4])]) }
    }

    /// Random changes through the daemon: one model follows this client's results, another a subscription's
    /// events, and both equal a fresh `layout.get` after every step.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func modelsFollowResultsAndEventsOfRandomChanges(seed: UInt64) async throws {
        try await followRandomChanges(seed: seed, horizontal: false)
    }

    /// The same of horizontal layouts, rtl among them, whose configures switch direction: frames, `dx` and pins
    /// along x on screen, and a direction switch, which moves every frame on screen and none in flow, lists every
    /// section anew.
    @Test(arguments: Array(11...22) as [UInt64])
    func modelsFollowRandomChangesOfHorizontalLayouts(seed: UInt64) async throws {
        try await followRandomChanges(seed: seed, horizontal: true)
    }

    private func followRandomChanges(seed: UInt64, horizontal: Bool) async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            let watcher = try await WaterfallClient.connect(to: daemon.path)
            var random = RandomCommands(seed: seed, maxItems: 30)
            if horizontal { random.axisChance = 1 }
            _ = try await client.createLayout("r", random.layout())
            var own = FrameModel(try await client.frames(of: "r"))
            var followed = own
            var events = try await watcher.subscribe("r").makeAsyncIterator()
            for step in 0..<60 {
                let counts = own.sections.map(\.items.count)
                let commands = (0..<(random.chance(0.2) ? 3 : 1)).map { _ in random.command(counts: counts) }
                let result: MutationResult
                do {
                    result =
                        commands.count == 1
                        ? try await client.apply(commands[0], to: "r") : try await client.batch(commands, in: "r")
                } catch let error as WaterfallClientError where error.source == .daemon {
                    continue
                }
                try own.apply(result, replaying: commands)
                guard case .changed(let change)? = try await events.next() else {
                    Issue.record("seed \(seed) step \(step): no event")
                    return
                }
                try followed.apply(change)
                let fresh = FrameModel(try await client.frames(of: "r"))
                #expect(own == fresh, "seed \(seed) step \(step): results, \(commands)")
                #expect(followed.sections == fresh.sections, "seed \(seed) step \(step): events, \(commands)")
                #expect(followed.seq == fresh.seq && own.isComplete)
            }
        }
    }
}
