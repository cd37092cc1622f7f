@_spi(Package) import WaterfallJSON
import WaterfallModel

/// The commonest reply read in one pass over its bytes: a change's result along a vertical feed (`seq`,
/// `contentSize` and a `diff` whose section entries have no header, footer or shifts, and whose items are
/// `{"i", "x", "y", "w", "h"}`), as a stream of one-item updates gets back.
///
/// Parsing a reply into a tape and decoding the tape was more than a third of the client's CPU per pipelined
/// update. This reads such a line once, into the `MutationResult` that `ReplyDecoding.mutation` makes of it, and
/// takes nothing it is not sure of: an error, an `anchor`, a header, a horizontal entry, an item `id`, a repeated
/// member, an escape or any other member, and it returns nil, so that the line is read the general way, with the
/// same result or the same error. The two are compared on generated and damaged replies (`QuickReplyTests`).
enum QuickReply {
    /// The id and the result of a reply line, or nil when the general path must read it.
    static func mutation(_ line: ArraySlice<UInt8>) -> (id: Int64, result: MutationResult)? {
        line.withUnsafeBufferPointer { bytes in
            var compact = JSONCursor(bytes)
            if let read = compactMutation(&compact), compact.isAtEnd { return read }
            var c = JSONCursor(bytes)
            var id: Int64?
            var result: MutationResult?
            let read = c.object(envelope) { member, c in
                switch member {
                case .id: return c.once(&id) { $0.integer() }
                case .result: return c.once(&result) { Self.result(&$0) }
                case .jsonrpc:
                    return c.take(string: "2.0")
                }
            }
            guard read, c.isAtEnd, let id, let result else { return nil }
            return (id, result)
        }
    }

    // MARK: Private

    private enum Envelope { case id, result, jsonrpc }
    private enum Result { case seq, contentSize, diff }
    private enum Extent { case w, h }
    private enum Entry { case section, origin, height, count, dy, isNew, items }
    private enum Frame { case i, x, y, w, h, id }

    private static let envelope = MemberNames<Envelope>(["id": .id, "result": .result, "jsonrpc": .jsonrpc])
    private static let resultNames = MemberNames<Result>(["seq": .seq, "contentSize": .contentSize, "diff": .diff])
    private static let extent = MemberNames<Extent>(["w": .w, "h": .h])
    private static let diffNames = MemberNames<Void>(["sections": ()])
    private static let entryNames = MemberNames<Entry>([
        "section": .section, "origin": .origin, "height": .height, "count": .count, "dy": .dy, "new": .isNew,
        "items": .items,
    ])
    private static let frame = MemberNames<Frame>(["i": .i, "x": .x, "y": .y, "w": .w, "h": .h, "id": .id])

    private static func result(_ c: inout JSONCursor) -> MutationResult? {
        var seq: Int?
        var size: Size?
        var diff: LayoutDiff?
        let read = c.object(resultNames) { member, c in
            switch member {
            case .seq: return c.once(&seq) { $0.integer().map { Int($0) } }
            case .contentSize: return c.once(&size) { Self.size(&$0) }
            case .diff: return c.once(&diff) { Self.diff(&$0) }
            }
        }
        guard read, let seq, let size else { return nil }
        return MutationResult(seq: seq, contentSize: size, diff: diff)
    }

    /// `{"w", "h"}`.
    static func size(_ c: inout JSONCursor) -> Size? {
        var width: Double?
        var height: Double?
        let read = c.object(extent) { member, c in
            let value = c.number()
            switch member {
            case .w: width = value
            case .h: height = value
            }
            return value != nil
        }
        guard read, let width, let height else { return nil }
        return Size(width: width, height: height)
    }

    private static func diff(_ c: inout JSONCursor) -> LayoutDiff? {
        var sections: [SectionDiff]?
        let read = c.object(diffNames) { _, c in
            var entries: [SectionDiff] = []
            guard c.array({ c in Self.entry(&c).map { entries.append($0) } != nil }) else { return false }
            sections = entries
            return true
        }
        guard read, let sections else { return nil }
        return LayoutDiff(sections: sections, shifts: [], screen: .identity)
    }

    /// A section entry along a vertical feed, with no header or footer.
    private static func entry(_ c: inout JSONCursor) -> SectionDiff? {
        var section: Int?
        var origin: Double?
        var height: Double?
        var count: Int?
        var dy: Double?
        var isNew: Bool?
        var items: [ItemFrame]?
        let read = c.object(entryNames) { member, c in
            switch member {
            case .section: return c.once(&section) { $0.integer().map { Int($0) } }
            case .origin: return c.once(&origin) { $0.number() }
            case .height: return c.once(&height) { $0.number() }
            case .count: return c.once(&count) { $0.integer().map { Int($0) } }
            case .dy: return c.once(&dy) { $0.number() }
            case .isNew: return c.once(&isNew) { $0.bool() }
            case .items: return c.once(&items) { Self.items(&$0) }
            }
        }
        guard read, let section, let origin, let height, let count else { return nil }
        return SectionDiff(
            section: section, origin: origin, height: height, count: count, dy: dy ?? 0, isNew: isNew ?? false,
            items: items ?? [])
    }

    /// An array of `{"i", "x", "y", "w", "h"}`; a frame with an `id` is left to the general path.
    private static func items(_ c: inout JSONCursor) -> [ItemFrame]? {
        var frames: [ItemFrame] = []
        let read = c.array { c in
            guard let frame = itemFrame(&c), frame.id == nil else { return false }
            frames.append(frame)
            return true
        }
        return read ? frames : nil
    }

    /// An item frame, `{"i", "x", "y", "w", "h", "id"?}`, its `id` a plain string.
    static func itemFrame(_ c: inout JSONCursor) -> ItemFrame? {
        var compact = c
        if let frame = compactItemFrame(&compact) {
            c = compact
            return frame
        }
        return spacedItemFrame(&c)
    }

    /// An item frame with its members in any order, any spacing, and an `id`.
    private static func spacedItemFrame(_ c: inout JSONCursor) -> ItemFrame? {
        var index: Int?
        var x: Double?
        var y: Double?
        var w: Double?
        var h: Double?
        var id: String?
        let read = c.object(frame) { member, c in
            switch member {
            case .i:
                index = c.integer().map { Int($0) }
                return index != nil
            case .id:
                id = c.plainString().map { String(decoding: $0, as: UTF8.self) }
                return id != nil
            case .x, .y, .w, .h:
                let value = c.number()
                switch member {
                case .x: x = value
                case .y: y = value
                case .w: w = value
                default: h = value
                }
                return value != nil
            }
        }
        guard read, let index, let x, let y, let w, let h else { return nil }
        return ItemFrame(index: index, frame: Rect(x: x, y: y, width: w, height: h), id: id)
    }
}
