import WaterfallJSON
import WaterfallLayout

/// Reads the layout model (items, sections, properties, patches) from request JSON, strictly.
///
/// Types are checked here; ranges are the engine's business (`Validation`), so both the wire and the library
/// reject the same values with the same field names.
enum ModelDecoding {
    static func item(
        _ node: JSONNode, in parent: @autoclosure () -> String, at index: Int
    ) throws(ProtocolError) -> Item {
        try indexedItem(node, in: parent(), at: index, withIndex: false).item
    }

    /// Reads an item object (`h`, `w`, `span`, `id`, and `i` for `items.update`) in one pass over its members.
    ///
    /// Items are most of a bulk insert's bytes: one pass per item, rather than a lookup per field, halves the cost
    /// of decoding a thousand-item request.
    static func indexedItem(
        _ node: JSONNode, in parent: @autoclosure () -> String, at k: Int, withIndex: Bool
    ) throws(ProtocolError) -> (item: Item, index: Int?) {
        func field(_ name: String) -> String { "\(parent())[\(k)].\(name)" }
        guard node.kind == .object else {
            throw .badParams("\(parent())[\(k)]", "must be an object, not \(node.kind)")
        }
        var height: Double?
        var item = Item(height: 0)
        var index: Int?
        for (key, value) in node.members {
            if key.isEqual(toKey: "h") {
                if !value.isNull { height = try Params.double(value, field("h")) }
            } else if key.isEqual(toKey: "w") {
                if !value.isNull { item.aspectWidth = try Params.double(value, field("w")) }
            } else if key.isEqual(toKey: "span") {
                if !value.isNull { item.span = try span(value, field("span")) }
            } else if key.isEqual(toKey: "id") {
                guard !value.isNull else { continue }
                guard value.kind == .string, let id = value.string else {
                    throw .badParams(field("id"), "must be a string, not \(value.kind) \(Request.text(value))")
                }
                item.id = id
            } else if withIndex && key.isEqual(toKey: "i") {
                if !value.isNull { index = try Params.int(value, field("i")) }
            } else {
                throw .badParams(field(key.string ?? "?"), "unknown field")
            }
        }
        if withIndex && index == nil { throw .badParams(field("i"), "missing") }
        guard let height else { throw .badParams(field("h"), "missing") }
        item.height = height
        return (item, index)
    }

    private static func span(_ node: JSONNode, _ field: @autoclosure () -> String) throws(ProtocolError) -> Span {
        guard node.kind == .string else { return .columns(try Params.int(node, field())) }
        guard node.isEqual(toKey: "full") else {
            throw .badParams(field(), "\(Request.text(node)) is not a number or \"full\"")
        }
        return .full
    }

    static func items(_ nodes: JSONNode.Elements, _ path: @autoclosure () -> String) throws(ProtocolError) -> [Item] {
        var result: [Item] = []
        result.reserveCapacity(nodes.underestimatedCount)
        for (k, node) in nodes.enumerated() { result.append(try item(node, in: path(), at: k)) }
        return result
    }

    static func insets(_ node: JSONNode, _ path: @autoclosure () -> String) throws(ProtocolError) -> Insets {
        var p = try Params(node, path: path())
        let insets = Insets(
            top: try p.optionalDouble("top") ?? 0, left: try p.optionalDouble("left") ?? 0,
            bottom: try p.optionalDouble("bottom") ?? 0, right: try p.optionalDouble("right") ?? 0)
        try p.finish()
        return insets
    }

    static func placement(_ node: JSONNode, _ field: @autoclosure () -> String) throws(ProtocolError) -> Placement {
        if node.isEqual(toKey: "shortest") { return .shortest }
        if node.isEqual(toKey: "next") { return .next }
        throw .badParams(field(), "\(Request.text(node)) is not \"shortest\" or \"next\"")
    }

    static func direction(_ node: JSONNode, _ field: @autoclosure () -> String) throws(ProtocolError) -> Direction {
        if node.isEqual(toKey: "ltr") { return .ltr }
        if node.isEqual(toKey: "rtl") { return .rtl }
        throw .badParams(field(), "\(Request.text(node)) is not \"ltr\" or \"rtl\"")
    }

    /// Reads every section property of `p` (unset or null leave it unset).
    static func properties(_ p: inout Params) throws(ProtocolError) -> SectionProperties {
        let patch = try self.patch(&p)
        func value<T>(_ change: PropertyChange<T>?) -> T? {
            if case .set(let v)? = change { return v }
            return nil
        }
        if value(patch.columns) != nil && value(patch.minColumnWidth) != nil {
            throw .badParams(p.field("minColumnWidth"), "cannot be set together with columns")
        }
        return SectionProperties(
            columns: value(patch.columns), minColumnWidth: value(patch.minColumnWidth),
            maxColumns: value(patch.maxColumns), columnSpacing: value(patch.columnSpacing),
            rowSpacing: value(patch.rowSpacing), insets: value(patch.insets), headerHeight: value(patch.headerHeight),
            footerHeight: value(patch.footerHeight), headerInsets: value(patch.headerInsets),
            footerInsets: value(patch.footerInsets), placement: value(patch.placement),
            tolerance: value(patch.tolerance))
    }

    static func properties(_ node: JSONNode, _ path: String) throws(ProtocolError) -> SectionProperties {
        var p = try Params(node, path: path)
        let properties = try properties(&p)
        try p.finish()
        return properties
    }

    /// Reads the section properties `p` names: a value sets one, `null` resets it.
    static func patch(_ p: inout Params) throws(ProtocolError) -> SectionPatch {
        var patch = SectionPatch()
        func change<T>(
            _ key: StaticString, _ read: (JSONNode, @autoclosure () -> String) throws(ProtocolError) -> T
        ) throws(ProtocolError) -> PropertyChange<T>? {
            guard let node = p.node(key) else { return nil }
            return node.isNull ? .reset : .set(try read(node, p.field(key)))
        }
        patch.columns = try change("columns", Params.int)
        patch.minColumnWidth = try change("minColumnWidth", Params.double)
        patch.maxColumns = try change("maxColumns", Params.int)
        patch.columnSpacing = try change("columnSpacing", Params.double)
        patch.rowSpacing = try change("rowSpacing", Params.double)
        patch.insets = try change("insets", insets)
        patch.headerHeight = try change("headerHeight", Params.double)
        patch.footerHeight = try change("footerHeight", Params.double)
        patch.headerInsets = try change("headerInsets", insets)
        patch.footerInsets = try change("footerInsets", insets)
        patch.placement = try change("placement", placement)
        patch.tolerance = try change("tolerance", Params.double)
        return patch
    }

    static func section(_ node: JSONNode, _ path: String) throws(ProtocolError) -> SectionSpec {
        var p = try Params(node, path: path)
        let properties = try properties(&p)
        let items = p.contains("items") ? try self.items(p.array("items"), "\(path).items") : []
        try p.finish()
        return SectionSpec(properties: properties, items: items)
    }

    static func sections(_ nodes: JSONNode.Elements, _ path: String) throws(ProtocolError) -> [SectionSpec] {
        var result: [SectionSpec] = []
        for (k, node) in nodes.enumerated() { result.append(try section(node, "\(path)[\(k)]")) }
        return result
    }

    static func indices(_ nodes: JSONNode.Elements, _ path: @autoclosure () -> String) throws(ProtocolError) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(nodes.underestimatedCount)
        for (k, node) in nodes.enumerated() { result.append(try Params.int(node, "\(path())[\(k)]")) }
        return result
    }

    /// An `[section, item]` pair.
    static func path(_ node: JSONNode?, _ field: String) throws(ProtocolError) -> ItemPath {
        guard let node else { throw .badParams(field, "missing") }
        guard node.kind == .array, node.count == 2 else {
            throw .badParams(field, "\(Request.text(node)) is not a [section, item] pair")
        }
        let pair = Array(node.elements)
        return ItemPath(section: try Params.int(pair[0], field + "[0]"), item: try Params.int(pair[1], field + "[1]"))
    }
}
