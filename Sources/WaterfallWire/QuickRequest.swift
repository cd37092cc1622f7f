@_spi(Package) import WaterfallJSON
import WaterfallModel

/// The commonest request read in one pass over its bytes: an `items.update` whose items are only `i` and `h`, with
/// `layout`, `section` and optionally `diff` in its params (a feed telling the daemon the heights its images came
/// to, one or a few at a time).
///
/// The general path parses a line into a tape and then decodes the tape, a large part of what a pipelined one-item
/// update costs the daemon. This reads the same line once, straight into the `LayoutChange` the general
/// path would make, and takes nothing it is not sure of: any other method or member, a repeated member, an escape
/// in a string, a number out of its field's range, a `null`, anything after the object, and it returns nil, so that
/// the general path reads the line again and gives the same change or the error with its message. The two are
/// compared on chosen, generated and randomly damaged lines (`QuickRequestTests`).
enum QuickRequest {
    /// The change `line` asks for, or nil when the general path must read it.
    static func itemsUpdate(_ line: ArraySlice<UInt8>) -> LayoutChange? {
        let read = line.withUnsafeBufferPointer { bytes -> Request? in
            var cursor = JSONCursor(bytes)
            if let request = compactItemsUpdate(&cursor) { return request }
            cursor = JSONCursor(bytes)
            return itemsUpdate(&cursor)
        }
        guard let request = read else { return nil }
        let params = request.params
        // The params as sent, a slice of the line as the general path keeps them.
        let start = line.startIndex
        return LayoutChange(
            id: .int(request.id), isNotification: false, layout: request.layout,
            commands: [.updateItems(section: request.section, updates: request.updates)],
            ops: .single(method: .itemsUpdate, params: line[(start + params.lowerBound)..<(start + params.upperBound)]),
            wantsDiff: request.wantsDiff)
    }

    // MARK: Private

    private struct Request {
        /// The envelope's id, set once the whole envelope is read (its params may come before it).
        var id: Int64 = 0
        var layout: String
        var section: Int
        var updates: [ItemUpdate]
        var wantsDiff: Bool
        /// Where the params object lies in the line.
        var params: Range<Int>
    }

    private enum Envelope { case id, method, jsonrpc, params }
    private enum Param { case layout, section, items, diff }
    private enum Update { case index, height }

    private static let envelope = MemberNames<Envelope>([
        "id": .id, "method": .method, "jsonrpc": .jsonrpc, "params": .params,
    ])
    private static let paramNames = MemberNames<Param>([
        "layout": .layout, "section": .section, "items": .items, "diff": .diff,
    ])
    private static let update = MemberNames<Update>(["i": .index, "h": .height])

    /// The line as clients write it, members in the order of the Wire protocol article's examples and no spaces,
    /// read as runs of literal bytes between the values; nil for any other form, which `itemsUpdate(_:)` then reads
    /// member by member.
    ///
    /// Values go through the same reads as the member-by-member reading (`index`, `number()`, `bool()`), so the two
    /// agree on every line this one takes.
    private static func compactItemsUpdate(_ c: inout JSONCursor) -> Request? {
        guard c.take(literal: #"{"jsonrpc":"2.0","id":"#), let id = c.compactInteger(),
            c.take(literal: #","method":"items.update","params":"#)
        else { return nil }
        let start = c.position
        guard c.take(literal: #"{"layout":"#), let name = c.plainString(), DecodedRequest.isLayoutName(name),
            c.take(literal: #","section":"#), let section = index(&c), c.take(literal: #","items":["#)
        else { return nil }
        var updates: [ItemUpdate] = []
        repeat {
            guard c.take(literal: #"{"i":"#), let index = index(&c), c.take(literal: #","h":"#),
                let height = c.shortDecimal() ?? c.number(), c.take(literal: "}")
            else { return nil }
            updates.append(ItemUpdate(index: index, item: Item(height: height)))
        } while c.take(literal: ",")
        guard c.take(literal: "]") else { return nil }
        var wantsDiff = true
        if c.take(literal: #","diff":"#) {
            guard let wanted = c.bool() else { return nil }
            wantsDiff = wanted
        }
        guard c.take(literal: "}") else { return nil }
        let end = c.position
        guard c.take(literal: "}"), c.isAtEnd else { return nil }
        return Request(
            id: id, layout: String(decoding: name, as: UTF8.self), section: section, updates: updates,
            wantsDiff: wantsDiff, params: start..<end)
    }

    private static func itemsUpdate(_ c: inout JSONCursor) -> Request? {
        var id: Int64?
        var method = false
        var params: Request?
        let read = c.object(envelope) { member, c in
            switch member {
            case .id: return c.once(&id) { $0.integer() }
            case .method:
                method = c.take(string: "items.update")
                return method
            case .jsonrpc:
                return c.take(string: "2.0")
            case .params: return c.once(&params) { Self.params(&$0) }
            }
        }
        guard read, c.isAtEnd, let id, method, var params else { return nil }
        params.id = id
        return params
    }

    private static func params(_ c: inout JSONCursor) -> Request? {
        c.skipSpace()
        let start = c.position
        var layout: String?
        var section: Int?
        var updates: [ItemUpdate]?
        var wantsDiff: Bool?
        let read = c.object(paramNames) { member, c in
            switch member {
            case .layout:
                guard let name = c.plainString(), DecodedRequest.isLayoutName(name) else { return false }
                layout = String(decoding: name, as: UTF8.self)
                return true
            case .section: return c.once(&section) { index(&$0) }
            case .items: return c.once(&updates) { items(&$0) }
            case .diff: return c.once(&wantsDiff) { $0.bool() }
            }
        }
        guard read, let layout, let section, let updates else { return nil }
        return Request(
            layout: layout, section: section, updates: updates, wantsDiff: wantsDiff ?? true, params: start..<c.position
        )
    }

    /// A non-empty array of `{"i": index, "h": number}` objects (either order).
    private static func items(_ c: inout JSONCursor) -> [ItemUpdate]? {
        var updates: [ItemUpdate] = []
        let read = c.array { c in
            var index: Int?
            var height: Double?
            let read = c.object(update) { member, c in
                switch member {
                case .index: index = Self.index(&c)
                case .height: height = c.shortDecimal() ?? c.number()
                }
                return member == .index ? index != nil : height != nil
            }
            guard read, let index, let height else { return false }
            updates.append(ItemUpdate(index: index, item: Item(height: height)))
            return true
        }
        return read && !updates.isEmpty ? updates : nil
    }

    /// An index in `WireRange.index`.
    private static func index(_ c: inout JSONCursor) -> Int? {
        // `WireRange.index`, compared inline: the range's `contains` went through generic code.
        guard let value = c.integer(), value >= 0 && value <= Int64(Int32.max) else { return nil }
        return Int(value)
    }
}
