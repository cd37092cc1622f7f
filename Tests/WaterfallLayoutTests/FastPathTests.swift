import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallTestSupport

/// Appending after a section's last item (`Layout.appendItems`) and any other single item command
/// (`Layout.changeItems`) take paths of their own; they must give what the general path gives, frames and diff
/// alike.
struct FastPathTests {
    @Test(arguments: 0..<8)
    func appendMatchesTheGeneralPath(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(seed), maxItems: 40)
        var layout = try await Layout.make(random.layout()).layout
        // Every diff is filled in a task group, as large ones are.
        layout.parallelGrain = 1
        var appends = 0
        for step in 0..<150 {
            let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
            if counts.isEmpty || random.chance(0.3) {
                _ = try? await layout.validateAndApply([random.command(counts: counts)])
                continue
            }
            let s = random.int(0...(counts.count - 1))
            let items = random.insertedItems(random.int(1...3))
            var general = layout
            let fast = try await layout.validateAndApply([.insertItems(section: s, at: counts[s], items: items)])
            // A second, empty, command sends the same append down the general path.
            let slow = try await general.validateAndApply([
                .insertItems(section: s, at: counts[s], items: items),
                .insertItems(section: s, at: counts[s] + items.count, items: []),
            ])
            #expect(fast == slow, "seed \(seed), step \(step)")
            #expect(FrameModel(layout) == FrameModel(general), "seed \(seed), step \(step)")
            #expect(layout.seq == general.seq && layout.lastPlacedCount == general.lastPlacedCount)
            appends += 1
        }
        #expect(appends > 50)
    }

    @Test(arguments: 0..<8)
    func singleItemCommandsMatchTheGeneralPath(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(100 + seed), maxItems: 40)
        var layout = try await Layout.make(random.layout()).layout
        layout.parallelGrain = 1
        var fastChanges = 0
        for step in 0..<200 {
            let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
            guard let s = counts.indices.filter({ counts[$0] > 0 }).randomElement(using: &random.rng) else {
                _ = try? await layout.validateAndApply([random.command(counts: counts)])
                continue
            }
            let index = random.int(0...(counts[s] - 1))
            let command: LayoutCommand
            switch random.int(0...2) {
            case 0: command = .updateItems(section: s, updates: [ItemUpdate(index: index, item: random.item())])
            case 1: command = .insertItems(section: s, at: index, items: random.insertedItems(random.int(1...3)))
            default: command = .deleteItems(section: s, indices: [index])
            }
            var general = layout
            let fast = try await layout.validateAndApply([command])
            // A second, empty, command sends the same change down the general path.
            let slow = try await general.validateAndApply([command, .insertItems(section: s, at: 0, items: [])])
            #expect(fast == slow, "seed \(seed), step \(step): \(command)")
            #expect(FrameModel(layout) == FrameModel(general), "seed \(seed), step \(step)")
            #expect(layout.seq == general.seq && layout.lastPlacedCount == general.lastPlacedCount)
            #expect(layout.itemCount == general.itemCount && layout.contentSize == general.contentSize)
            fastChanges += 1
            if random.chance(0.2) { _ = try? await layout.validateAndApply([random.command(counts: counts)]) }
        }
        #expect(fastChanges > 100)
    }

    /// An update of a section's last item alone sets its height in place (`SectionState.place(after:)`): frames,
    /// content size and the diff's replay must be what a full relayout gives, whatever the rule, span or sizing.
    @Test(arguments: 0..<12)
    func lastItemUpdateMatchesTheReference(seed: Int) async throws {
        var random = RandomCommands(seed: UInt64(300 + seed), maxItems: 40, heights: seed % 3 == 0 ? [50, 100] : nil)
        let spec = random.layout()
        var layout = try await Layout.make(spec).layout
        var reference = ReferenceLayout(spec)
        var inPlace = 0
        var placedOne = 0
        for step in 0..<150 {
            let context = "seed \(seed), step \(step)"
            let counts = (0..<layout.sectionCount).map { layout.itemCount(inSection: $0) }
            let filled = counts.indices.filter { counts[$0] > 0 }
            let commands: [LayoutCommand]
            if filled.isEmpty || random.chance(0.15) {
                commands = [random.command(counts: counts)]
            } else {
                let s = filled[random.int(0...(filled.count - 1))]
                var item = random.item()
                // Mostly the same span as before, which is what keeps the item where it is.
                if random.chance(0.7) { item.span = layout.items(inSection: s)[counts[s] - 1].span }
                commands = [.updateItems(section: s, updates: [ItemUpdate(index: counts[s] - 1, item: item)])]
                inPlace += 1
            }
            var client = FrameModel(layout)
            guard reference.apply(commands) else {
                await #expect(throws: LayoutError.self, "\(context): \(commands)") {
                    try await layout.validateAndApply(commands)
                }
                continue
            }
            let diff = try await layout.validateAndApply(commands)
            if case .updateItems = commands[0], layout.lastPlacedCount == 1 { placedOne += 1 }
            try client.apply(diff, replaying: commands)
            #expect(client.sections == FrameModel(layout).sections, "diff does not replay: \(context): \(commands)")
            let expected = reference.layout()
            #expect(layout.contentSize.height == expected.contentHeight, "content height: \(context)")
            for (s, want) in expected.sections.enumerated() {
                #expect(layout.frames(ofSection: s).items.map(\.frame) == want.items, "section \(s): \(context)")
            }
        }
        #expect(inPlace > 100)
        // Most of them took the in-place path, which places one item.
        #expect(placedOne > inPlace / 2, "\(placedOne) of \(inPlace) placed one item")
    }

    @Test func invalidAppendIsRefusedAsBefore() async throws {
        var layout = try await Layout.make(
            LayoutSpec(width: 300, sections: [SectionSpec(items: [Item(height: 10)])])
        ).layout
        let before = FrameModel(layout)
        await #expect(throws: LayoutError.self) {
            try await layout.validateAndApply([.insertItems(section: 0, at: 1, items: [Item(height: -1)])])
        }
        #expect(FrameModel(layout) == before && layout.seq == 1)
    }
}
