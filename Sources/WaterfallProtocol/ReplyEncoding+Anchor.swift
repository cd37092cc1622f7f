import WaterfallJSON
import WaterfallLayout

extension ReplyEncoding {
    /// `"anchor":{"section":…,"i":…,"dy":…}`, or `"anchor":null` for an anchor the change removed: the member of a
    /// mutation result and of a `layout.changed` event that comes after `diff` (or where `diff` would be).
    public static func anchor(_ outcome: AnchorOutcome, _ w: inout JSONWriter) {
        w.key("anchor")
        switch outcome {
        case .removed:
            w.null()
        case .moved(let path, let dy):
            w.beginObject()
            w.member("section", path.section)
            w.member("i", path.item)
            w.member("dy", dy)
            w.endObject()
        }
    }
}
