import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallTestSupport
import WaterfallWire

/// A mutation reply written a chunk at a time is byte for byte the reply written whole, and reads back as the diff
/// the engine made.
@Suite struct MutationReplyTests {
    /// A change in the middle of section 0 (its items listed, the sections below shifted), and a batch that adds a
    /// section of 100 items, removes a header and sets a footer: each reply is several chunks of the sizes tried.
    static func diffs() async throws -> [LayoutDiff] {
        var layout = try await SnapshotReplyTests.layout()
        let update = try await layout.validateAndApply([
            .updateItems(section: 0, updates: [ItemUpdate(index: 300, item: Item(height: 77.25, id: "x"))])
        ])
        var header = SectionPatch()
        header.headerHeight = .reset
        var footer = SectionPatch()
        footer.footerHeight = .set(12.5)
        let batch = try await layout.validateAndApply([
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

    /// Small diffs, which a reply writes as one fragment: one frame (with and without an id), a new section, a
    /// header set pinned and a footer removed, shifts, a horizontal layout's keys, and nothing at all.
    static let smallDiffs: [LayoutDiff] = {
        let frame = Rect(x: 333.3333333333333, y: 1200.5, width: 326.6666666666667, height: 100.123)
        let one = SectionDiff(
            section: 0, origin: 0, height: 48_000.25, count: 1000, items: [ItemFrame(index: 999, frame: frame)])
        let named = SectionDiff(
            section: 2, origin: 17.5, height: 300, count: 3, dy: -4.5,
            items: [ItemFrame(index: 0, frame: frame, id: "a\"b"), ItemFrame(index: 1, frame: frame)])
        let new = SectionDiff(section: 1, origin: 10, height: 0, count: 0, isNew: true)
        let headed = SectionDiff(
            section: 3, origin: 5, height: 80, count: 4, header: .set(Rect(x: 0, y: 5, width: 375, height: 40)),
            pinMaxY: 85, footer: .removed)
        let shifts = [SectionShift(from: 4, to: 5, dy: 12.75), SectionShift(from: 6, to: 6, dy: -1)]
        let horizontal = ScreenMapping(axis: .horizontal, direction: .rtl)
        return [
            LayoutDiff(sections: [one]), LayoutDiff(sections: [named, new, headed], shifts: shifts),
            LayoutDiff(sections: [headed, one], shifts: shifts, screen: horizontal), LayoutDiff(shifts: shifts),
            LayoutDiff(),
        ]
    }()

    @Test(arguments: smallDiffs)
    func aSmallReplyIsTheReplyWrittenMemberByMember(diff: LayoutDiff) {
        for id in [RequestID.int(-12), .string("req-1"), .none] {
            var reply = MutationReply(id: id, seq: 41, contentSize: Size(width: 1000, height: 48_000.25), diff: diff)
            var fragment = JSONWriter()
            #expect(reply.write(&fragment, untilByteCount: 64 * 1024))
            var members = JSONWriter()
            ReplyEncoding.result(&members, id: id) {
                ReplyEncoding.mutation(&$0, seq: 41, contentSize: Size(width: 1000, height: 48_000.25), diff: diff)
            }
            #expect(
                String(decoding: fragment.bytes, as: UTF8.self) == String(decoding: members.bytes, as: UTF8.self))
        }
    }

    @Test func aSmallReplyInABatchArrayEndsNoLine() {
        var w = JSONWriter()
        for first in [true, false] {
            ReplyEncoding.arrayElement(&w, first: first)
            var reply = MutationReply(id: .int(1), seq: 2, contentSize: Size(width: 3, height: 4), diff: LayoutDiff())
            #expect(reply.write(&w, untilByteCount: 64 * 1024))
        }
        ReplyEncoding.endArray(&w)
        let reply = #"{"jsonrpc":"2.0","id":1,"result":{"seq":2,"contentSize":{"w":3,"h":4},"diff":{"sections":[]}}}"#
        #expect(String(decoding: w.bytes, as: UTF8.self) == "[" + reply + "," + reply + "]\n")
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

/// The anchor's place in a mutation result and in a `layout.changed` event: after `diff`, or where it would be.
@Suite struct AnchorReplyTests {
    static let diff = LayoutDiff(shifts: [SectionShift(from: 1, to: 2, dy: 80)])
    static let moved = AnchorOutcome.moved(ItemPath(section: 1, item: 0), dy: 80)

    static func text(_ reply: MutationReply) -> String {
        var reply = reply
        var w = JSONWriter()
        _ = reply.write(&w, untilByteCount: .max)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    @Test func anAnchorComesAfterTheDiff() {
        let reply = MutationReply(
            id: .int(9), seq: 9, contentSize: Size(width: 300, height: 395), diff: Self.diff, anchor: Self.moved)
        let expected =
            #"{"jsonrpc":"2.0","id":9,"result":{"seq":9,"contentSize":{"w":300,"h":395},"#
            + #""diff":{"sections":[],"shifts":[{"from":1,"to":2,"dy":80}]},"anchor":{"section":1,"i":0,"dy":80}}}"#
            + "\n"
        #expect(Self.text(reply) == expected)
        // The reply whose diff an event shares writes the same bytes.
        var w = JSONWriter()
        ReplyEncoding.mutationResult(
            &w, id: .int(9), seq: 9, contentSize: Size(width: 300, height: 395),
            encodedDiff: ReplyEncoding.encodedDiff(Self.diff), diff: nil, anchor: Self.moved)
        #expect(String(decoding: w.bytes, as: UTF8.self) == expected)
    }

    @Test func aRemovedAnchorIsNullAndWithoutTheDiffTheAnchorStays() {
        let reply = MutationReply(
            id: .int(2), seq: 4, contentSize: Size(width: 300, height: 0.5), diff: nil, anchor: .removed)
        #expect(
            Self.text(reply)
                == #"{"jsonrpc":"2.0","id":2,"result":{"seq":4,"contentSize":{"w":300,"h":0.5},"anchor":null}}"# + "\n")
        let fraction = MutationReply(
            id: .int(2), seq: 4, contentSize: Size(width: 300, height: 0.5), diff: nil,
            anchor: .moved(ItemPath(section: 0, item: 12), dy: -0.25))
        #expect(Self.text(fraction).hasSuffix(#","anchor":{"section":0,"i":12,"dy":-0.25}}}"# + "\n"))
    }

    @Test func anEventCarriesTheAnchorAfterItsDiff() {
        let ops = AppliedOps.single(method: .itemsDelete, params: ArraySlice(#"{"layout":"f"}"#.utf8))
        let encoded = ReplyEncoding.encodedDiff(Self.diff)
        let size = Size(width: 300, height: 0.5)
        let plain = ReplyEncoding.changedEvent("f", seq: 3, contentSize: size, ops: ops, diff: encoded)
        let anchored = ReplyEncoding.changedEvent(
            "f", seq: 3, contentSize: size, ops: ops, diff: encoded, anchor: .removed)
        let text = String(decoding: anchored, as: UTF8.self)
        #expect(text.hasSuffix(#""shifts":[{"from":1,"to":2,"dy":80}]},"anchor":null}}"# + "\n"))
        #expect(text.contains(#""seq":3,"contentSize":{"w":300,"h":0.5},"ops":"#))
        // Without an anchor, the event is what it always was: the same bytes without the member.
        #expect(String(decoding: plain.dropLast(3), as: UTF8.self) + #","anchor":null}}"# + "\n" == text)
    }
}
