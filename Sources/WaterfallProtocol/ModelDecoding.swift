import WaterfallJSON
import WaterfallLayout

/// Reads the layout model (items, sections, properties, patches) from request JSON, strictly.
///
/// Types are checked here; ranges are the engine's business (`Validation`), so both the wire and the library
/// reject the same values with the same field names.
enum ModelDecoding {
    static func item(_ node: JSONNode, in parent: String, at index: Int) throws(ProtocolError) -> Item {
        var p = try Params(node, in: parent, at: index)
        let item = try item(&p)
        try p.finish()
        return item
    }

    /// Reads `h`, `w`, `span` and `id` from an item object (also used by `items.update`, which adds `i`).
    static func item(_ p: inout Params) throws(ProtocolError) -> Item {
        var item = Item(height: try p.double("h"))
        item.aspectWidth = try p.optionalDouble("w")
        if let span = p.node("span"), !span.isNull {
            if span.kind == .string {
                guard span.isEqual(toKey: "full") else {
                    throw .badParams(p.field("span"), "\(Request.text(span)) is not a number or \"full\"")
                }
                item.span = .full
            } else {
                item.span = .columns(try Params.int(span, p.field("span")))
            }
        }
        item.id = try p.optionalString("id")
        return item
    }

    static func items(_ nodes: [JSONNode], _ path: String) throws(ProtocolError) -> [Item] {
        var result: [Item] = []
        result.reserveCapacity(nodes.count)
        for (k, node) in nodes.enumerated() { result.append(try item(node, in: path, at: k)) }
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

    static func sections(_ nodes: [JSONNode], _ path: String) throws(ProtocolError) -> [SectionSpec] {
        var result: [SectionSpec] = []
        for (k, node) in nodes.enumerated() { result.append(try section(node, "\(path)[\(k)]")) }
        return result
    }

    static func indices(_ nodes: [JSONNode], _ path: String) throws(ProtocolError) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(nodes.count)
        for (k, node) in nodes.enumerated() { result.append(try Params.int(node, "\(path)[\(k)]")) }
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
