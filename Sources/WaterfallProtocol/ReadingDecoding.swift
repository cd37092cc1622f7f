import WaterfallLayout

/// The params of reading order and neighbours: `query`'s `order`, `items.neighbors`' item.
enum ReadingDecoding {
    /// `"order"`: `"document"` (also when absent or null) or `"reading"`.
    static func order(_ p: inout Params) throws(ProtocolError) -> ElementOrder {
        guard let node = p.view("order"), !node.isNull else { return .document }
        if let name = node.string, let order = ElementOrder(rawValue: name) { return order }
        throw .badParams(p.field("order"), "\(Request.text(node)) is not \"document\" or \"reading\"")
    }

    /// `"section"` and `"i"`, both integers ≥ 0 (whether the item exists is checked against the layout).
    static func item(_ p: inout Params) throws(ProtocolError) -> ItemPath {
        let section = try p.int("section")
        let item = try p.int("i")
        guard section >= 0 else { throw .badParams(p.field("section"), "\(section) must be an integer ≥ 0") }
        guard item >= 0 else { throw .badParams(p.field("i"), "\(item) must be an integer ≥ 0") }
        return ItemPath(section: section, item: item)
    }
}
