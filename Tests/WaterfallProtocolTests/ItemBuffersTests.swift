import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// Bulk inserts decoded into reused arrays: a command never sees another's items, held or not.
@Suite(.serialized) struct ItemBuffersTests {
    /// The command of an `items.insert` of `count` items of heights `base + k`, with an id on every third one
    /// (`plain`: on none).
    private func insert(count: Int, base: Int, plain: Bool = false) throws -> LayoutCommand {
        let items = (0..<count).map { k in
            k % 3 == 0 && !plain ? #"{"h":\#(base + k),"id":"i\#(base + k)"}"# : #"{"h":\#(base + k)}"#
        }
        return try command(#"{"section":0,"at":0,"items":[\#(items.joined(separator: ","))]}"#)
    }

    private func command(_ text: String) throws -> LayoutCommand {
        let document = try JSONDocument(parsing: text)
        var p = try Params(document.root, path: "params")
        let command = try CommandDecoding.command(.itemsInsert, &p)
        try p.finish()
        return command
    }

    private func expected(count: Int, base: Int, plain: Bool = false) -> LayoutCommand {
        let items = (0..<count).map { k in
            Item(height: Double(base + k), id: k % 3 == 0 && !plain ? "i\(base + k)" : nil)
        }
        return .insertItems(section: 0, at: 0, items: ItemList(items))
    }

    /// The heights of an insert's items when it decoded them bare.
    private func bareHeights(_ command: LayoutCommand) -> [Double]? {
        guard case .insertItems(_, _, let items) = command else { return nil }
        return items.heights
    }

    @Test func plainItemsAreDecodedAsBareHeights() throws {
        let command = try insert(count: 3_000, base: 5, plain: true)
        #expect(bareHeights(command) == (0..<3_000).map { Double(5 + $0) })
        #expect(command == expected(count: 3_000, base: 5, plain: true))
        // Any member but `h`, even null, makes the items general ones; they read the same.
        let general = try self.command(#"{"section":0,"at":0,"items":[{"h":1},{"h":2},{"h":3,"w":null},{"h":4}]}"#)
        #expect(bareHeights(general) == nil)
        #expect(general == .insertItems(section: 0, at: 0, items: ItemList(heights: [1, 2, 3, 4])))
    }

    @Test func heldBareHeightsAreKeptApart() throws {
        // As `heldCommandsKeepTheirItems`, for the pool of height arrays.
        let sizes = [4_000, 3_000, 5_000, 2_500, 30_000, 4_000, 2_048, 3_500, 2_200, 4_100, 2_900, 3_300, 2_600, 4_000]
        var held: [(LayoutCommand, Int, Int)] = []
        for (k, count) in sizes.enumerated() {
            let base = 1_000 * k
            held.append((try insert(count: count, base: base, plain: true), count, base))
            if k % 2 == 1 { held.removeFirst() }
            for (command, count, base) in held {
                #expect(bareHeights(command) == (0..<count).map { Double(base + $0) })
            }
        }
    }

    @Test func anErrorAfterBareHeightsNamesItsItem() throws {
        let items = Array(repeating: #"{"h":1}"#, count: 2_500) + [#"{"h":2,"id":"x"}"#, #"{"h":"x"}"#]
        let text = #"{"section":0,"at":0,"items":[\#(items.joined(separator: ","))]}"#
        #expect(throws: ProtocolError.badParams("params.items[2501].h", "must be a number, not string \"x\"")) {
            try command(text)
        }
        let first = #"{"section":0,"at":0,"items":[{"h":1},{"h":true}]}"#
        #expect(throws: ProtocolError.badParams("params.items[1].h", "must be a number, not bool true")) {
            try command(first)
        }
    }

    @Test func heldCommandsKeepTheirItems() throws {
        // Sizes that the pool keeps, and one above, in an order that makes every spare both free and in use.
        let sizes = [4_000, 3_000, 5_000, 2_500, 30_000, 4_000, 2_048, 3_500, 2_200, 4_100, 2_900, 3_300, 2_600, 4_000]
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

    @Test func releaseLetsGoOfEverySpare() throws {
        ItemBuffers.release()
        for k in 0..<(ItemBuffers.spares + 1) { _ = try insert(count: 2_500 + k, base: k) }
        for k in 0..<(ItemBuffers.spares + 1) { _ = try insert(count: 2_500 + k, base: k, plain: true) }
        #expect(ItemBuffers.items.spareCount == ItemBuffers.spares)
        #expect(ItemBuffers.heights.spareCount == ItemBuffers.spares)
        ItemBuffers.release()
        #expect(ItemBuffers.spareCount == 0)
        #expect(try insert(count: 2_400, base: 3) == expected(count: 2_400, base: 3))
    }

    /// The framer tells its connection whether to let go of the pool once it has nothing left to do: after lines
    /// long enough to fill from it, carried over reads or not, and not while a line is carried.
    @Test func aFramerReportsPooledLinesWhenReleased() {
        var framer = LineFramer(maxLineBytes: 1 << 20)
        var released: Bool
        let line = [UInt8](repeating: 0x20, count: 100_000) + Array("{}".utf8)
        // A long line over two reads is carried; nothing is let go while a line is carried.
        _ = framer.append(Array(line[..<70_000]))
        released = framer.releaseSpares().pooledLines
        #expect(!released)
        _ = framer.append(Array(line[70_000...]) + [0x0A, 0x7B, 0x7D])
        released = framer.releaseSpares().pooledLines
        #expect(!released)
        _ = framer.append(Array("\n".utf8))
        #expect(framer.spareCapacity > 0)
        released = framer.releaseSpares().pooledLines
        #expect(released)
        #expect(framer.spareCapacity == 0)
        // Reported once: short lines only since are not pooled lines.
        _ = framer.append(Array("{}\n".utf8))
        released = framer.releaseSpares().pooledLines
        #expect(!released)
        // Lines shorter than a read but long enough to fill from the pool count too.
        let medium = [UInt8](repeating: 0x20, count: ItemBuffers.shortestLine) + Array("{}\n".utf8)
        _ = framer.append(medium + Array("{}".utf8))
        released = framer.releaseSpares().pooledLines
        #expect(!released)
        _ = framer.append(Array("\n{}\n".utf8))
        released = framer.releaseSpares().pooledLines
        #expect(released)
    }

    @Test func shortLinesAreNoPooledLines() {
        var framer = LineFramer(maxLineBytes: 1 << 20)
        let short = [UInt8](repeating: 0x20, count: ItemBuffers.shortestLine - 3) + Array("{}\n".utf8)
        _ = framer.append(short + Array("{}\n".utf8))
        let released = framer.releaseSpares().pooledLines
        #expect(!released)
    }
}
