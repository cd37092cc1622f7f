import Testing
import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallTestSupport

/// A mutation reply written a chunk at a time is byte for byte the reply written whole, and reads back as the diff
/// the engine made.
@Suite struct MutationReplyTests {
    /// A change in the middle of section 0 (its items listed, the sections below shifted), and a batch that adds a
    /// section of 100 items, removes a header and sets a footer: each reply is several chunks of the sizes tried.
    static func diffs() async throws -> [LayoutDiff] {
        var layout = try await SnapshotReplyTests.layout()
        let update = try await layout.apply([
            .updateItems(section: 0, updates: [ItemUpdate(index: 300, item: Item(height: 77.25, id: "x"))])
        ])
        var header = SectionPatch()
        header.headerHeight = .reset
        var footer = SectionPatch()
        footer.footerHeight = .set(12.5)
        let batch = try await layout.apply([
            .insertSections(
                at: 1, sections: [SectionSpec(items: (0..<100).map { Item(height: Double($0 % 9) + 0.5) })]),
            .configureSection(0, header), .configureSection(3, footer),
        ])
        return [update, batch]
    }

    @Test(arguments: [1, 500, 4096])
    func aDiffWrittenInChunksIsTheDiffWrittenWhole(chunkBytes: Int) async throws {
        for diff in try await Self.diffs() {
            let reply = MutationReply(id: .int(7), seq: 12, contentSize: Size(width: 375, height: 4000), diff: diff)
            let (whole, chunked) = SnapshotReplyTests.written(reply, chunkBytes: chunkBytes)
            #expect(chunked == whole)
            let line = try JSONValue(parsing: String(decoding: whole.dropLast(), as: UTF8.self))
            #expect(whole.last == UInt8(ascii: "\n"))
            #expect(line["id"] == 7)
            #expect(line["result"]?["seq"] == 12)
            let read = try LayoutDiff(json: try #require(line["result"]?["diff"]))
            #expect(read == diff)
        }
    }

    @Test func aReplyWithoutItsDiffHasSeqAndSizeOnly() {
        var reply = MutationReply(id: .string("a"), seq: 3, contentSize: Size(width: 320.25, height: 0), diff: nil)
        var w = JSONWriter()
        #expect(reply.write(&w, untilByteCount: .max))
        #expect(
            String(decoding: w.bytes, as: UTF8.self)
                == #"{"jsonrpc":"2.0","id":"a","result":{"seq":3,"contentSize":{"w":320.25,"h":0}}}"# + "\n")
    }
}
