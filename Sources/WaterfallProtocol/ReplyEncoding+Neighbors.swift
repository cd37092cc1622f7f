@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

extension ReplyEncoding {
    /// The `items.neighbors` result: `seq`, then `above`, `below`, `left` and `right`, each an item element (as
    /// `query` writes it) or `null` at an edge.
    package static func neighbors(_ w: inout JSONWriter, id: RequestID, seq: Int, _ n: ItemNeighbors) {
        result(&w, id: id) { w in
            w.beginObject()
            w.member("seq", seq)
            for (key, neighbor): (StaticString, Element?) in [
                ("above", n.above), ("below", n.below), ("left", n.left), ("right", n.right),
            ] {
                w.key(key)
                guard let neighbor else {
                    w.null()
                    continue
                }
                element(neighbor, &w)
            }
            w.endObject()
        }
    }
}
