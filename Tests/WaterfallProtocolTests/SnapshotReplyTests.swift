import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// A snapshot reply written a chunk at a time is byte for byte the reply written whole, and that is what the
/// protocol's encoders write for the same frames and elements.
@Suite struct SnapshotReplyTests {
    static func layout() async throws -> Layout {
        var items: [Item] = []
        for k in 0..<600 {
            let id: String? = k % 7 == 0 ? "ad-\(k)" : nil
            items.append(Item(height: Double(20 + k % 13), id: id))
        }
        let spec = LayoutSpec(
            width: 375, defaults: SectionProperties(columns: 3, headerHeight: 44),
            sections: [
                SectionSpec(items: items), SectionSpec(), SectionSpec(properties: SectionProperties(footerHeight: 10)),
                SectionSpec(items: Array(items.prefix(5))),
            ])
        return try await Layout.make(spec).layout
    }

    /// Writes `reply` whole, and in chunks of about `chunkBytes` taken as the server takes them.
    static func written(_ reply: some ChunkedReply, chunkBytes: Int) -> (whole: [UInt8], chunked: [UInt8]) {
        var whole = JSONWriter()
        var first = reply
        #expect(first.write(&whole, untilByteCount: .max))
        var chunked: [UInt8] = []
        var w = JSONWriter(capacity: 64)
        var second = reply
        var chunks = 0
        while !second.write(&w, untilByteCount: chunkBytes) {
            chunked += w.takeChunk(capacity: 64)
            chunks += 1
        }
        chunked += w.takeBytes()
        #expect(chunks > 0, "the reply should have taken more than one chunk")
        return (whole.takeBytes(), chunked)
    }

    @Test(arguments: [1, 500, 4096])
    func aListingWrittenInChunksIsTheListingWrittenWhole(chunkBytes: Int) async throws {
        let layout = try await Self.layout()
        let reply = try SnapshotReply(id: .string("g"), layout: layout, sections: nil)
        let (whole, chunked) = Self.written(reply, chunkBytes: chunkBytes)
        #expect(chunked == whole)
        var expected = JSONWriter()
        ReplyEncoding.result(&expected, id: .string("g")) { w in
            w.beginObject()
            w.member("seq", layout.seq)
            w.key("contentSize")
            ReplyEncoding.size(layout.contentSize, &w)
            w.key("sections")
            w.beginArray()
            for s in 0..<layout.sectionCount { ReplyEncoding.section(layout.frames(ofSection: s), &w) }
            w.endArray()
            w.endObject()
        }
        #expect(String(decoding: whole, as: UTF8.self) == String(decoding: expected.takeBytes(), as: UTF8.self))
    }

    @Test(arguments: [Rect(x: 0, y: 0, width: 375, height: 1e6), Rect(x: 0, y: 300, width: 100, height: 200)])
    func aQueryWrittenInChunksListsTheElementsInTheRect(rect: Rect) async throws {
        let layout = try await Self.layout()
        let reply = SnapshotReply(id: .int(3), layout: layout, query: rect)
        let (whole, chunked) = Self.written(reply, chunkBytes: 200)
        #expect(chunked == whole)
        var expected = JSONWriter()
        ReplyEncoding.result(&expected, id: .int(3)) { w in
            w.beginObject()
            w.member("seq", layout.seq)
            w.key("contentSize")
            ReplyEncoding.size(layout.contentSize, &w)
            w.key("elements")
            w.beginArray()
            for element in layout.elements(in: rect) { ReplyEncoding.element(element, &w) }
            w.endArray()
            w.endObject()
        }
        #expect(String(decoding: whole, as: UTF8.self) == String(decoding: expected.takeBytes(), as: UTF8.self))
    }

    @Test func aMissingSectionIsNotFound() async throws {
        let layout = try await Self.layout()
        let error = #expect(throws: ProtocolError.self) {
            try SnapshotReply(id: .int(1), layout: layout, sections: [1, 9])
        }
        #expect(error?.message == "params.sections[1]: 9 is not a section (there are 4)")
    }
}
