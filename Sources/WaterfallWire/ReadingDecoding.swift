import WaterfallModel

/// The params of reading order and neighbours: `query`'s `order`, `items.neighbors`' item.
enum ReadingDecoding {
    /// `"order"`: `"document"` (also when absent or null) or `"reading"`.
    static func order(_ p: inout Params) throws(ProtocolError) -> ElementOrder {
        guard let node = p.view("order"), !node.isNull else { return .document }
        if let name = node.string, let order = ElementOrder(rawValue: name) { return order }
        throw .badParams(p.field("order"), "\(Request.text(node)) is not \"document\" or \"reading\"")
    }

    /// `"section"` and `"i"`, both indices (whether the item exists is checked against the layout).
    static func item(_ p: inout Params) throws(ProtocolError) -> ItemPath {
        ItemPath(section: try p.index("section"), item: try p.index("i"))
    }
}
