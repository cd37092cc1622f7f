import Testing
import WaterfallLayout
import WaterfallStorageFormat
import WaterfallTestSupport

/// `JournalRecord.encodedSizeBound` is counted rather than encoded for item commands: it must still be at least
/// the framed record, with the longest seq, for any command.
@Suite struct JournalRecordBoundTests {
    @Test(arguments: 0..<20)
    func theBoundHoldsForRandomCommands(seed: Int) {
        var random = RandomCommands(seed: UInt64(seed), maxItems: 400)
        let counts = [0, 5, 120, 400]
        for _ in 0..<200 {
            let commands = (0..<random.int(1...3)).map { _ in random.command(counts: counts) }
            let size = JournalRecord.apply(seq: .max, commands: commands).encoded.count
            #expect(JournalRecord.encodedSizeBound(commands) >= size, "\(commands)")
        }
    }

    @Test func theBoundHoldsForTheLargestItems() {
        let id = String(repeating: "é", count: 128)
        let items = [
            Item(height: 9_007_199_254_740_991), Item(height: 0.1, aspectWidth: 1e-6, span: .columns(.max), id: id),
            Item(height: -0.0, span: .full, id: ""),
        ]
        let commands: [LayoutCommand] = [
            .insertItems(section: .max, at: .min, items: ItemList(items)),
            .insertItems(section: .max, at: .min, items: ItemList(heights: [9_007_199_254_740_991, 0.1, -0.0, 1e300])),
            .updateItems(section: .min, updates: items.map { ItemUpdate(index: .max, item: $0) }),
            .deleteItems(section: .max, indices: [.min, .max, 0]),
        ]
        for command in commands {
            let size = JournalRecord.apply(seq: .min, commands: [command]).encoded.count
            #expect(JournalRecord.encodedSizeBound([command]) >= size, "\(command)")
        }
    }
}
