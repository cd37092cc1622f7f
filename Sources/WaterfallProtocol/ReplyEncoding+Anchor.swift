@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

extension ReplyEncoding {
    /// `"anchor":{"section":…,"i":…,"dy":…}` (`"dx"` for a horizontal layout's), or `"anchor":null` for an anchor
    /// the change removed: the member of a mutation result and of a `layout.changed` event that comes after `diff`
    /// (or where `diff` would be).
    package static func anchor(_ outcome: AnchorOutcome, _ w: inout JSONWriter) {
        w.key("anchor")
        let (path, key, delta): (ItemPath, StaticString, Double)
        switch outcome {
        case .removed:
            w.null()
            return
        case .moved(let p, let dy): (path, key, delta) = (p, "dy", dy)
        case .movedAlongX(let p, let dx): (path, key, delta) = (p, "dx", dx)
        }
        w.beginObject()
        w.member("section", path.section)
        w.member("i", path.item)
        w.member(key, delta)
        w.endObject()
    }
}
