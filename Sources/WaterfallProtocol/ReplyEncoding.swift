import WaterfallJSON
import WaterfallLayout

/// Writes replies, results and events as single JSON lines, straight to bytes.
public enum ReplyEncoding {
    /// `{"jsonrpc":"2.0","id":…,"result":…}` and a newline; `body` writes the result value.
    public static func result(_ w: inout JSONWriter, id: RequestID, _ body: (inout JSONWriter) -> Void) {
        w.beginObject()
        w.key("jsonrpc")
        w.value("2.0")
        w.key("id")
        write(id, &w)
        w.key("result")
        body(&w)
        w.endObject()
        w.newline()
    }

    /// An error reply, with `data.kind`.
    public static func error(_ w: inout JSONWriter, id: RequestID, _ error: ProtocolError) {
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
    public static func notification(_ w: inout JSONWriter, method: StaticString, _ params: (inout JSONWriter) -> Void) {
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
    public static func empty(_ w: inout JSONWriter) {
        w.beginObject()
        w.endObject()
    }

    /// The mutation result: `seq`, `contentSize` and, unless left out, the pre-encoded `diff`.
    public static func mutation(
        _ w: inout JSONWriter, seq: Int, contentSize: Size, encodedDiff diff: ArraySlice<UInt8>?
    ) {
        mutation(&w, seq: seq, contentSize: contentSize) { w in
            guard let diff else { return }
            w.key("diff")
            w.raw(diff)
        }
    }

    /// The mutation result, with `diff` (unless nil) encoded in place: what a reply whose diff no event shares
    /// writes, without a buffer of its own and a copy.
    public static func mutation(_ w: inout JSONWriter, seq: Int, contentSize: Size, diff: LayoutDiff?) {
        mutation(&w, seq: seq, contentSize: contentSize) { w in
            guard let diff else { return }
            w.key("diff")
            self.diff(diff, &w)
        }
    }

    /// A diff object: `{"sections":[…]}`.
    public static func diff(_ diff: LayoutDiff, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("sections")
        w.beginArray()
        for entry in diff.sections {
            w.beginObject()
            sectionMembers(entry.section, entry.origin, entry.height, entry.count, &w)
            if entry.dy != 0 { w.member("dy", entry.dy) }
            if entry.isNew { w.member("new", true) }
            change(entry.header, "header", &w)
            change(entry.footer, "footer", &w)
            if entry.isNew || !entry.items.isEmpty { items(entry.items, &w) }
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// A section's frames, as `layout.get` returns them.
    public static func section(_ frames: SectionFrames, _ w: inout JSONWriter) {
        w.beginObject()
        sectionMembers(frames.section, frames.origin, frames.height, frames.count, &w)
        if let header = frames.header {
            w.key("header")
            rect(header, &w)
        }
        if let footer = frames.footer {
            w.key("footer")
            rect(footer, &w)
        }
        items(frames.items, &w)
        w.endObject()
    }

    /// A query element.
    public static func element(_ element: Element, _ w: inout JSONWriter) {
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
        w.endObject()
    }

    public static func size(_ size: Size, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("w")
        w.value(size.width)
        w.key("h")
        w.value(size.height)
        w.endObject()
    }

    public static func rect(_ rect: Rect, _ w: inout JSONWriter) {
        w.beginObject()
        frameMembers(rect, &w)
        w.endObject()
    }

    // MARK: Private

    private static func mutation(
        _ w: inout JSONWriter, seq: Int, contentSize: Size, diff: (inout JSONWriter) -> Void
    ) {
        w.beginObject()
        w.key("seq")
        w.value(seq)
        w.key("contentSize")
        size(contentSize, &w)
        diff(&w)
        w.endObject()
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
        _ section: Int, _ origin: Double, _ height: Double, _ count: Int, _ w: inout JSONWriter
    ) {
        w.member("section", section)
        w.member("origin", origin)
        w.member("height", height)
        w.member("count", count)
    }

    private static func items(_ items: [ItemFrame], _ w: inout JSONWriter) {
        w.key("items")
        w.beginArray()
        for item in items { self.item(item, &w) }
        w.endArray()
    }

    private static func item(_ item: ItemFrame, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("i")
        w.value(item.index)
        frameMembers(item.frame, &w)
        if let id = item.id {
            w.key("id")
            w.value(id)
        }
        w.endObject()
    }

    private static func frameMembers(_ rect: Rect, _ w: inout JSONWriter) {
        w.key("x")
        w.value(rect.x)
        w.key("y")
        w.value(rect.y)
        w.key("w")
        w.value(rect.width)
        w.key("h")
        w.value(rect.height)
    }

    private static func change(_ change: FrameChange, _ key: StaticString, _ w: inout JSONWriter) {
        switch change {
        case .unchanged: return
        case .removed:
            w.key(key)
            w.null()
        case .set(let frame):
            w.key(key)
            rect(frame, &w)
        }
    }
}
