@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

extension ReplyEncoding {
    /// The diff as bytes, encoded once for both a reply and the event that share it.
    package static func encodedDiff(_ diff: LayoutDiff) -> [UInt8] {
        var w = JSONWriter(capacity: 128 + 64 * diff.sections.count)
        self.diff(diff, &w)
        return w.takeBytes()
    }

    /// The `layout.changed` event line: the layout, its new seq, its content size, the requests applied, their
    /// diff (scoped to the subscriber's viewport for a scoped subscription) and, when the request named a scroll
    /// anchor, where it went (after `diff`, as in the request's result). Members in that order, always.
    package static func changedEvent(
        _ layout: String, seq: Int, contentSize: Size, ops: AppliedOps, diff: [UInt8], anchor: AnchorOutcome? = nil
    ) -> [UInt8] {
        var w = JSONWriter(capacity: 128 + diff.count)
        notification(&w, method: "layout.changed") { w in
            w.beginObject()
            w.member("layout", layout)
            w.member("seq", seq)
            w.key("contentSize")
            w.beginObject()
            w.member("w", contentSize.width)
            w.member("h", contentSize.height)
            w.endObject()
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

    /// The result of a scoped `subscribe`: `{"seq":…,"contentSize":…,"viewport":{"y":…,"h":…},"diff":…}` (the
    /// viewport `{"x":…,"w":…}` for a horizontal layout), the
    /// diff being what a client holding nothing needs to hold the viewport's elements at `seq`.
    package static func scopedSubscription(
        _ w: inout JSONWriter, id: RequestID, seq: Int, contentSize: Size, viewport: Viewport, diff: LayoutDiff
    ) {
        result(&w, id: id) { w in
            beginSeqAndSize(&w, seq: seq, contentSize: contentSize)
            w.key("viewport")
            w.beginObject()
            let keys = ScreenMapping(axis: viewport.axis, direction: .ltr).viewportKeys
            w.member(keys.start, viewport.y)
            w.member(keys.extent, viewport.height)
            w.endObject()
            w.key("diff")
            self.diff(diff, &w)
            w.endObject()
        }
    }

    /// The `layout.dropped` event line: the layout is gone and the subscription with it.
    package static func droppedEvent(_ layout: String) -> [UInt8] {
        layoutEvent("layout.dropped", layout)
    }

    /// The `subscription.overflow` event line: the subscriber fell too far behind and was unsubscribed.
    package static func overflowEvent(_ layout: String) -> [UInt8] {
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
