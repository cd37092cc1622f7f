import Testing
import WaterfallJSON
import WaterfallLayout

@testable import WaterfallProtocol

/// Bulk inserts decoded into reused arrays: a command never sees another's items, held or not.
@Suite(.serialized) struct ItemBuffersTests {
    /// The command of an `items.insert` of `count` items of heights `base + k`, with an id on every third one.
    private func insert(count: Int, base: Int) throws -> LayoutCommand {
        let items = (0..<count).map { k in
            k % 3 == 0 ? #"{"h":\#(base + k),"id":"i\#(base + k)"}"# : #"{"h":\#(base + k)}"#
        }
        let text = #"{"section":0,"at":0,"items":[\#(items.joined(separator: ","))]}"#
        let document = try JSONDocument(parsing: text)
        var p = try Params(document.root, path: "params")
        let command = try CommandDecoding.command(.itemsInsert, &p)
        try p.finish()
        return command
    }

    private func expected(count: Int, base: Int) -> LayoutCommand {
        .insertItems(
            section: 0, at: 0,
            items: (0..<count).map { k in
                Item(height: Double(base + k), id: k % 3 == 0 ? "i\(base + k)" : nil)
            })
    }

    @Test func heldCommandsKeepTheirItems() throws {
        // Sizes that the pool keeps, and one above, in an order that makes every spare both free and in use.
        let sizes = [4_000, 3_000, 5_000, 2_500, 30_000, 4_000, 2_048]
        var held: [(LayoutCommand, Int, Int)] = []
        for (k, count) in sizes.enumerated() {
            let base = 1_000 * k
            held.append((try insert(count: count, base: base), count, base))
            // Every other command is dropped at once, so that its array goes back to being a free spare.
            if k % 2 == 1 { held.removeFirst() }
            for (command, count, base) in held { #expect(command == expected(count: count, base: base)) }
        }
    }

    @Test func aFailedDecodeLeavesNoTrace() throws {
        let good = try insert(count: 3_000, base: 7)
        let text =
            #"{"section":0,"at":0,"items":["# + Array(repeating: #"{"h":1}"#, count: 2_999).joined(separator: ",")
            + #",{"h":"x"}]}"#
        let document = try JSONDocument(parsing: text)
        var p = try Params(document.root, path: "params")
        #expect(throws: ProtocolError.self) { try CommandDecoding.command(.itemsInsert, &p) }
        #expect(good == expected(count: 3_000, base: 7))
        #expect(try insert(count: 2_100, base: 9) == expected(count: 2_100, base: 9))
    }
}
