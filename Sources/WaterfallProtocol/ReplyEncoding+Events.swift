import WaterfallJSON
import WaterfallLayout

extension ReplyEncoding {
    /// The diff as bytes, encoded once for both a reply and the event that share it.
    public static func encodedDiff(_ diff: LayoutDiff) -> [UInt8] {
        var w = JSONWriter(capacity: 128 + 64 * diff.sections.count)
        self.diff(diff, &w)
        return w.takeBytes()
    }

    /// The `layout.changed` event line: the layout, its new seq, the requests applied, their diff and, when the
    /// request named a scroll anchor, where it went (after `diff`, as in the request's result).
    public static func changedEvent(
        _ layout: String, seq: Int, ops: AppliedOps, diff: [UInt8], anchor: AnchorOutcome? = nil
    ) -> [UInt8] {
        var w = JSONWriter(capacity: 128 + diff.count)
        notification(&w, method: "layout.changed") { w in
            w.beginObject()
            w.member("layout", layout)
            w.member("seq", seq)
            w.key("ops")
            switch ops {
            case .single(let method, let params):
                w.beginArray()
                w.beginObject()
                w.member("method", method.rawValue)
                w.key("params")
                if params.isEmpty { empty(&w) } else { w.raw(params) }
                w.endObject()
                w.endArray()
            case .batch(let raw):
                w.raw(raw)
            }
            w.key("diff")
            w.raw(diff[...])
            if let anchor { self.anchor(anchor, &w) }
            w.endObject()
        }
        return w.takeBytes()
    }

    /// The `layout.dropped` event line: the layout is gone and the subscription with it.
    public static func droppedEvent(_ layout: String) -> [UInt8] {
        layoutEvent("layout.dropped", layout)
    }

    /// The `subscription.overflow` event line: the subscriber fell too far behind and was unsubscribed.
    public static func overflowEvent(_ layout: String) -> [UInt8] {
        layoutEvent("subscription.overflow", layout)
    }

    // MARK: Private

    private static func layoutEvent(_ method: StaticString, _ layout: String) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        notification(&w, method: method) { w in
            w.beginObject()
            w.member("layout", layout)
            w.endObject()
        }
        return w.takeBytes()
    }
}
