@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

/// Writes replies, results and events as single JSON lines, straight to bytes.
///
/// What every change writes (the envelope, the mutation result, diff entries, frames) goes out as `JSONFragment`s:
/// one reservation per piece rather than one writer call per key and value.
package enum ReplyEncoding {
    /// `{"jsonrpc":"2.0","id":…,"result":…}` and a newline; `body` writes the result value.
    package static func result(_ w: inout JSONWriter, id: RequestID, _ body: (inout JSONWriter) -> Void) {
        beginResult(&w, id: id)
        body(&w)
        w.endObject()
        w.newline()
    }

    /// An error reply, with `data.kind`.
    package static func error(_ w: inout JSONWriter, id: RequestID, _ error: ProtocolError) {
        w.beginObject()
        w.key("jsonrpc")
        w.value("2.0")
        w.key("id")
        write(id, &w)
        w.key("error")
        w.beginObject()
        w.key("code")
        w.value(error.code.code)
        w.key("message")
        w.value(error.message)
        w.key("data")
        w.beginObject()
        w.key("kind")
        w.value(error.code.kind.description)
        w.endObject()
        w.endObject()
        w.endObject()
        w.newline()
    }

    /// A server notification: `{"jsonrpc":"2.0","method":…,"params":…}`.
    package static func notification(_ w: inout JSONWriter, method: StaticString, _ params: (inout JSONWriter) -> Void)
    {
        w.beginObject()
        w.key("jsonrpc")
        w.value("2.0")
        w.key("method")
        w.value(method.description)
        w.key("params")
        params(&w)
        w.endObject()
        w.newline()
    }

    /// An empty result object.
    package static func empty(_ w: inout JSONWriter) {
        w.beginObject()
        w.endObject()
    }

    /// The mutation result: `seq`, `contentSize` and, unless left out, the pre-encoded `diff` and the `anchor`.
    package static func mutation(
        _ w: inout JSONWriter, seq: Int, contentSize: Size, encodedDiff diff: ArraySlice<UInt8>?,
        anchor: AnchorOutcome? = nil
    ) {
        mutation(&w, seq: seq, contentSize: contentSize) { w in
            if let diff {
                w.key("diff")
                w.raw(diff)
            }
            if let anchor { self.anchor(anchor, &w) }
        }
    }

    /// The mutation result, with `diff` (unless nil) encoded in place: what a reply whose diff no event shares
    /// writes, without a buffer of its own and a copy.
    package static func mutation(
        _ w: inout JSONWriter, seq: Int, contentSize: Size, diff: LayoutDiff?, anchor: AnchorOutcome? = nil
    ) {
        mutation(&w, seq: seq, contentSize: contentSize) { w in
            if let diff {
                w.key("diff")
                self.diff(diff, &w)
            }
            if let anchor { self.anchor(anchor, &w) }
        }
    }

    /// A diff object: `{"sections":[…]}`, and `"shifts":[…]` when some sections only moved.
    package static func diff(_ diff: LayoutDiff, _ w: inout JSONWriter) {
        var writer = DiffWriter(diff)
        _ = writer.write(&w, untilByteCount: .max)
    }

    /// A section's frames, as `layout.get` returns them.
    package static func section(_ frames: SectionFrames, _ w: inout JSONWriter) {
        sectionHead(frames, &w)
        w.key("items")
        w.beginArray()
        itemTexts(frames.items[...], &w)
        w.endArray()
        w.endObject()
    }

    /// A query element.
    package static func element(_ element: Element, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("kind")
        w.value(element.kind.rawValue)
        w.key("section")
        w.value(element.section)
        if let index = element.index {
            w.key("i")
            w.value(index)
        }
        frameMembers(element.frame, &w)
        if let id = element.id {
            w.key("id")
            w.value(id)
        }
        if element.pinned {
            w.key("pinned")
            w.value(true)
        }
        w.endObject()
    }

    package static func size(_ size: Size, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("w")
        w.value(size.width)
        w.key("h")
        w.value(size.height)
        w.endObject()
    }

    package static func rect(_ rect: Rect, _ w: inout JSONWriter) {
        w.fragment(maximumLength: rectLength) { rectText(rect, &$0) }
    }

    // MARK: Internal

    /// `{"jsonrpc":"2.0","id":…,"result":`: a reply's envelope up to its result, which the caller writes and closes.
    static func beginResult(_ w: inout JSONWriter, id: RequestID) {
        w.beginObject()
        w.keyFragment(maximumLength: resultHeadLength(id)) { resultHead(id, &$0) }
    }

    /// `"jsonrpc":"2.0","id":…,"result":`, the members of a reply's envelope up to its result.
    static func resultHead(_ id: RequestID, _ f: inout JSONFragment) {
        f.text(#""jsonrpc":"2.0","id":"#)
        write(id, &f)
        f.text(#","result":"#)
    }

    /// The room `resultHead` needs at most.
    static func resultHeadLength(_ id: RequestID) -> Int { 40 + idLength(id) }

    /// `{"seq":…,"contentSize":{…}`: a result object, open for the rest (a mutation's `diff`, `layout.get`'s
    /// `sections`).
    static func beginSeqAndSize(_ w: inout JSONWriter, seq: Int, contentSize: Size) {
        w.beginObject()
        w.fragment(maximumLength: seqAndSizeLength) { seqAndSize(seq, contentSize, &$0) }
    }

    /// `"seq":…,"contentSize":{…}`, the members a mutation's result starts with.
    static func seqAndSize(_ seq: Int, _ contentSize: Size, _ f: inout JSONFragment) {
        f.text(#""seq":"#)
        f.integer(seq)
        f.text(#","contentSize":{"w":"#)
        f.number(contentSize.width)
        f.text(#","h":"#)
        f.number(contentSize.height)
        f.text("}")
    }

    /// The room `seqAndSize` needs at most.
    static let seqAndSizeLength = 40 + 3 * JSONFragment.numberLength

    /// A diff entry's object, open, with its members but for `items`.
    ///
    /// `screen` names the members along the feed: a horizontal layout's entry has `width`, `dx` and `pinMaxX` (or
    /// `pinMinX`) where a vertical one has `height`, `dy` and `pinMaxY`.
    static func entryHead(_ entry: SectionDiff, screen: ScreenMapping = .identity, _ w: inout JSONWriter) {
        w.beginObject()
        w.fragment(maximumLength: entryMembersLength) { entryMembers(entry, screen: screen, &$0) }
    }

    /// The members of a diff entry but for `items`, as `entryHead` writes them.
    static func entryMembers(_ entry: SectionDiff, screen: ScreenMapping, _ f: inout JSONFragment) {
        sectionMembers(entry.section, entry.origin, entry.height, entry.count, screen.extentKey, &f)
        if entry.dy != 0 {
            f.text(",\"")
            f.text(screen.deltaKey)
            f.text("\":")
            f.number(entry.dy)
        }
        if entry.isNew { f.text(#","new":true"#) }
        change(entry.header, pinMaxY: entry.pinMaxY, pinKey: screen.pinKey, #","header":"#, &f)
        change(entry.footer, pinMaxY: nil, pinKey: screen.pinKey, #","footer":"#, &f)
    }

    /// The room `entryMembers` needs at most.
    static let entryMembersLength = 2 * rectLength + pinLength + 90 + 5 * JSONFragment.numberLength

    /// A `layout.get` section's object, open, with its members but for `items`.
    static func sectionHead(_ frames: SectionFrames, _ w: inout JSONWriter) {
        w.beginObject()
        w.fragment(maximumLength: 2 * rectLength + pinLength + 80 + 4 * JSONFragment.numberLength) { f in
            sectionMembers(frames.section, frames.origin, frames.height, frames.count, frames.screen.extentKey, &f)
            if let header = frames.header {
                f.text(#","header":"#)
                rectText(header, pinMaxY: frames.pinMaxY, pinKey: frames.screen.pinKey, &f)
            }
            if let footer = frames.footer {
                f.text(#","footer":"#)
                rectText(footer, &f)
            }
        }
    }

    /// `"shifts":[…]`.
    static func shifts(_ shifts: [SectionShift], key: StaticString = "dy", _ w: inout JSONWriter) {
        w.key("shifts")
        w.beginArray()
        for shift in shifts {
            w.fragment(maximumLength: shiftLength) { shiftText(shift, key: key, &$0) }
        }
        w.endArray()
    }

    /// One shift's object.
    static func shiftText(_ shift: SectionShift, key: StaticString, _ f: inout JSONFragment) {
        f.text(#"{"from":"#)
        f.integer(shift.from)
        f.text(#","to":"#)
        f.integer(shift.to)
        f.text(",\"")
        f.text(key)
        f.text("\":")
        f.number(shift.dy)
        f.text("}")
    }

    /// The room `shiftText` needs at most.
    static let shiftLength = 30 + 3 * JSONFragment.numberLength

    /// The frames of `items` as elements of an open array. A section's x and w take a few values (one x per column,
    /// a w per span), so they are formatted once per call and copied after; y and h are formatted for each item.
    static func itemTexts(_ items: ArraySlice<ItemFrame>, _ w: inout JSONWriter) {
        NumberTextCache.with(w.numberTexts) { cache in
            for item in items {
                w.fragment(maximumLength: itemLength(item)) { itemText(item, cache: cache, &$0) }
            }
        }
    }

    /// One item's frame object, its x and w through `cache`.
    @inline(__always)
    static func itemText(_ item: ItemFrame, cache: NumberTextCache, _ f: inout JSONFragment) {
        f.text(#"{"i":"#)
        f.integer(item.index)
        f.text(#","x":"#)
        f.number(item.frame.x, cache: cache)
        f.text(#","y":"#)
        f.number(item.frame.y)
        f.text(#","w":"#)
        f.number(item.frame.width, cache: cache)
        f.text(#","h":"#)
        f.number(item.frame.height)
        if let id = item.id {
            f.text(#","id":"#)
            f.string(id)
        }
        f.text("}")
    }

    /// The room `itemText` needs at most.
    static func itemLength(_ item: ItemFrame) -> Int {
        30 + 5 * JSONFragment.numberLength + (item.id.map { 6 + JSONFragment.stringLength($0) } ?? 0)
    }

    // MARK: Private

    private static func mutation(
        _ w: inout JSONWriter, seq: Int, contentSize: Size, diff: (inout JSONWriter) -> Void
    ) {
        beginSeqAndSize(&w, seq: seq, contentSize: contentSize)
        diff(&w)
        w.endObject()
    }

    /// The room `rectText` needs at most.
    static let rectLength = 24 + 4 * JSONFragment.numberLength

    private static func idLength(_ id: RequestID) -> Int {
        if case .string(let text) = id { return JSONFragment.stringLength(text) }
        return JSONFragment.numberLength
    }

    private static func write(_ id: RequestID, _ f: inout JSONFragment) {
        switch id {
        case .none: f.text("null")
        case .int(let n): f.integer(Int(n))
        case .string(let s): f.string(s)
        }
    }

    private static func write(_ id: RequestID, _ w: inout JSONWriter) {
        switch id {
        case .none: w.null()
        case .int(let n): w.value(n)
        case .string(let s): w.value(s)
        }
    }

    /// The members every section entry starts with, in diffs and in `layout.get`.
    private static func sectionMembers(
        _ section: Int, _ origin: Double, _ height: Double, _ count: Int, _ extentKey: StaticString,
        _ f: inout JSONFragment
    ) {
        f.text(#""section":"#)
        f.integer(section)
        f.text(#","origin":"#)
        f.number(origin)
        f.text(",\"")
        f.text(extentKey)
        f.text("\":")
        f.number(height)
        f.text(#","count":"#)
        f.integer(count)
    }

    /// `{"x":…,"y":…,"w":…,"h":…}`, with `"pinMaxY":…` (or `pinKey`) last for a pinned header.
    static func rectText(
        _ rect: Rect, pinMaxY: Double? = nil, pinKey: StaticString = "pinMaxY", _ f: inout JSONFragment
    ) {
        f.text("{")
        frameText(rect, &f)
        if let pinMaxY {
            f.text(",\"")
            f.text(pinKey)
            f.text("\":")
            f.number(pinMaxY)
        }
        f.text("}")
    }

    /// The room `,"pinMaxY":…` needs at most.
    static let pinLength = 12 + JSONFragment.numberLength

    /// `"x":…,"y":…,"w":…,"h":…`.
    private static func frameText(_ rect: Rect, _ f: inout JSONFragment) {
        f.text(#""x":"#)
        f.number(rect.x)
        f.text(#","y":"#)
        f.number(rect.y)
        f.text(#","w":"#)
        f.number(rect.width)
        f.text(#","h":"#)
        f.number(rect.height)
    }

    private static func frameMembers(_ rect: Rect, _ w: inout JSONWriter) {
        w.fragment(maximumLength: 20 + 4 * JSONFragment.numberLength) { frameText(rect, &$0) }
    }

    /// A header's or footer's change after `key` (`,"header":`), if it changed; a set pinned header with its
    /// `pinMaxY`.
    private static func change(
        _ change: FrameChange, pinMaxY: Double?, pinKey: StaticString, _ key: StaticString, _ f: inout JSONFragment
    ) {
        switch change {
        case .unchanged: return
        case .removed:
            f.text(key)
            f.text("null")
        case .set(let frame):
            f.text(key)
            rectText(frame, pinMaxY: pinMaxY, pinKey: pinKey, &f)
        }
    }
}
