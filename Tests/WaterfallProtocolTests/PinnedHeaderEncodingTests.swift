import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// `pinMaxY` is the last key of a pinned header's object (in `layout.get` and in diffs), and `"pinned": true` the
/// last key of a query element, only when set (the Geometry article, "Pinned headers").
@Suite struct PinnedHeaderEncodingTests {
    @Test func aSectionsPinnedHeaderEndsWithPinMaxY() {
        let frames = SectionFrames(
            section: 1, origin: 40, height: 90, count: 1, items: [ItemFrame(index: 0, frame: rect(0, 80, 50, 50))],
            header: rect(0, 40, 100, 10), pinMaxY: 120, footer: rect(0, 130, 100, 0))
        var w = JSONWriter()
        ReplyEncoding.section(frames, &w)
        #expect(
            text(w)
                == #"{"section":1,"origin":40,"height":90,"count":1,"header":{"x":0,"y":40,"w":100,"h":10,"pinMaxY":120},"#
                + #""footer":{"x":0,"y":130,"w":100,"h":0},"items":[{"i":0,"x":0,"y":80,"w":50,"h":50}]}"#)
    }

    /// The longest numbers there are, so that the room reserved for an entry's head is checked with pinMaxY in it.
    @Test func aDiffEntrysPinnedHeaderEndsWithPinMaxY() {
        let long = -2.2250738585072014e-308
        let diff = LayoutDiff(sections: [
            SectionDiff(
                section: 123_456_789, origin: long, height: long, count: 987_654_321, dy: long, isNew: false,
                header: .set(Rect(x: long, y: long, width: long, height: long)), pinMaxY: long,
                footer: .set(Rect(x: long, y: long, width: long, height: long)))
        ])
        var w = JSONWriter()
        ReplyEncoding.diff(diff, &w)
        let n = "-2.2250738585072014e-308"
        let frame = #""x":\#(n),"y":\#(n),"w":\#(n),"h":\#(n)"#
        #expect(
            text(w)
                == #"{"sections":[{"section":123456789,"origin":\#(n),"height":\#(n),"count":987654321,"dy":\#(n),"#
                + #""header":{\#(frame),"pinMaxY":\#(n)},"footer":{\#(frame)}}]}"#)
    }

    /// A header set without pinning, or gone, has no pinMaxY.
    @Test func anUnpinnedOrRemovedHeaderHasNone() {
        let diff = LayoutDiff(sections: [
            SectionDiff(section: 0, origin: 0, height: 10, count: 0, header: .set(rect(0, 0, 10, 10))),
            SectionDiff(section: 1, origin: 10, height: 0, count: 0, header: .removed),
        ])
        var w = JSONWriter()
        ReplyEncoding.diff(diff, &w)
        #expect(
            text(w)
                == #"{"sections":[{"section":0,"origin":0,"height":10,"count":0,"header":{"x":0,"y":0,"w":10,"h":10}},"#
                + #"{"section":1,"origin":10,"height":0,"count":0,"header":null}]}"#)
    }

    @Test func aPinnedElementEndsWithPinned() {
        var w = JSONWriter()
        ReplyEncoding.element(
            Element(kind: .header, section: 2, index: nil, frame: rect(0, 60, 300, 40), id: nil, pinned: true), &w)
        #expect(text(w) == #"{"kind":"header","section":2,"x":0,"y":60,"w":300,"h":40,"pinned":true}"#)
    }

    /// The chunked `query` and `layout.get` replies place and mark pinned headers as the engine does.
    @Test(arguments: [1, 64, 4096])
    func chunkedRepliesCarryPins(chunkBytes: Int) async throws {
        let spec = LayoutSpec(
            width: 300, defaults: SectionProperties(headerHeight: 40, pinHeader: true),
            sections: [
                SectionSpec(
                    properties: SectionProperties(insets: Insets(top: 0, left: 0, bottom: 10, right: 0)),
                    items: [Item(height: 100), Item(height: 60)]),
                SectionSpec(items: [Item(height: 50)]),
            ])
        let layout = try await Layout.make(spec).layout
        let query = SnapshotReply(id: .int(21), layout: layout, query: rect(0, 120, 300, 100))
        #expect(
            Self.written(query, chunkBytes: chunkBytes)
                == #"{"jsonrpc":"2.0","id":21,"result":{"seq":1,"contentSize":{"w":300,"h":240},"elements":["#
                + #"{"kind":"header","section":0,"x":0,"y":110,"w":300,"h":40,"pinned":true},"#
                + #"{"kind":"item","section":0,"i":0,"x":0,"y":40,"w":145,"h":100},"#
                + #"{"kind":"header","section":1,"x":0,"y":150,"w":300,"h":40},"#
                + #"{"kind":"item","section":1,"i":0,"x":0,"y":190,"w":145,"h":50}]}}"# + "\n")
        let get = try SnapshotReply(id: .int(22), layout: layout, sections: [1])
        #expect(
            Self.written(get, chunkBytes: chunkBytes)
                == #"{"jsonrpc":"2.0","id":22,"result":{"seq":1,"contentSize":{"w":300,"h":240},"sections":["#
                + #"{"section":1,"origin":150,"height":90,"count":1,"header":{"x":0,"y":150,"w":300,"h":40,"pinMaxY":200},"#
                + #""items":[{"i":0,"x":0,"y":190,"w":145,"h":50}]}]}}"# + "\n")
    }

    // MARK: Private

    private func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
        Rect(x: x, y: y, width: width, height: height)
    }

    private func text(_ w: JSONWriter) -> String { String(decoding: w.bytes, as: UTF8.self) }

    /// `reply` written in chunks of about `chunkBytes`, as text.
    private static func written(_ reply: some ChunkedReply, chunkBytes: Int) -> String {
        var reply = reply
        var bytes: [UInt8] = []
        var w = JSONWriter(capacity: 64)
        while !reply.write(&w, untilByteCount: chunkBytes) { bytes += w.takeChunk(capacity: 64) }
        bytes += w.takeBytes()
        return String(decoding: bytes, as: UTF8.self)
    }
}
