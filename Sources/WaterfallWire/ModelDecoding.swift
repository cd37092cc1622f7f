@_spi(Package) import WaterfallJSON
import WaterfallModel

/// Reads the layout model (items, sections, properties, patches) from request JSON, strictly.
///
/// Types are checked here; ranges are the engine's business (`Validation`), so both the wire and the library
/// reject the same values with the same field names.
enum ModelDecoding {
    static func item(
        _ node: JSONView, in parent: @autoclosure () -> String, at k: Int
    ) throws(ProtocolError) -> Item {
        let fields = try itemFields(node, in: parent(), at: k, withIndex: false)
        return Item(
            height: fields.height, aspectWidth: fields.aspectWidth, span: fields.span, id: fields.id,
            column: fields.column)
    }

    /// Reads an item object of `items.update`: an item and its index `i`.
    static func itemUpdate(
        _ node: JSONView, in parent: @autoclosure () -> String, at k: Int
    ) throws(ProtocolError) -> ItemUpdate {
        let fields = try itemFields(node, in: parent(), at: k, withIndex: true)
        let item = Item(
            height: fields.height, aspectWidth: fields.aspectWidth, span: fields.span, id: fields.id,
            column: fields.column)
        return ItemUpdate(index: fields.index, item: item)
    }

    /// Reads an item object (`h`, `w`, `span`, `id`, `column`, and `i` for `items.update`) in one pass over its
    /// members.
    ///
    /// Items are most of a bulk insert's bytes: one pass per item, rather than a lookup per field, halves the cost
    /// of decoding a thousand-item request. The fields are gathered in locals and the item made once, at the end.
    @inline(__always)
    private static func itemFields(
        _ node: JSONView, in parent: @autoclosure () -> String, at k: Int, withIndex: Bool
    ) throws(ProtocolError) -> (
        height: Double, aspectWidth: Double?, span: Span, id: String?, index: Int, column: Int?
    ) {
        func field(_ name: String) -> String { "\(parent())[\(k)].\(name)" }
        guard node.kind == .object else {
            throw .badParams("\(parent())[\(k)]", "must be an object, not \(node.kind)")
        }
        var height: Double?
        var aspectWidth: Double?
        var span = Span.columns(1)
        var id: String?
        var index: Int?
        var column: Int?
        for (key, value) in node.members {
            if key.isEqual(toKey: "h") {
                if !value.isNull { height = try Params.double(value, field("h")) }
            } else if key.isEqual(toKey: "w") {
                if !value.isNull { aspectWidth = try Params.double(value, field("w")) }
            } else if key.isEqual(toKey: "span") {
                if !value.isNull { span = try self.span(value, field("span")) }
            } else if key.isEqual(toKey: "id") {
                guard !value.isNull else { continue }
                guard let string = value.string else {
                    throw .badParams(field("id"), "must be a string, not \(value.kind) \(Request.text(value))")
                }
                id = string
            } else if key.isEqual(toKey: "column") {
                if !value.isNull {
                    column = try WireRange.check(
                        Params.int(value, field("column")), in: WireRange.column, field("column"))
                }
            } else if withIndex && key.isEqual(toKey: "i") {
                if !value.isNull { index = try Params.index(value, field("i")) }
            } else {
                throw .unknownField(field(key.string ?? "?"))
            }
        }
        if withIndex && index == nil { throw .badParams(field("i"), "missing") }
        guard let height else { throw .badParams(field("h"), "missing") }
        return (height, aspectWidth, span, id, index ?? 0, column)
    }

    private static func span(_ node: JSONView, _ field: @autoclosure () -> String) throws(ProtocolError) -> Span {
        guard node.kind == .string else {
            return .columns(try WireRange.check(Params.int(node, field()), in: WireRange.count, field()))
        }
        guard node.isEqual(toKey: "full") else {
            throw .badParams(field(), "\(Request.text(node)) is not a number or \"full\"")
        }
        return .full
    }

    /// Reads the items of an insert, `array`: its heights when the reader kept them as such
    /// (`JSONReader.readsHeightRuns`, a bulk load's), else its elements as `items(_:_:)` does.
    static func items(_ array: JSONView, _ path: @autoclosure () -> String) throws(ProtocolError) -> ItemList {
        guard let count = array.heightRunCount else { return try items(array.elements, path()) }
        var heights = ItemBuffers.heights.take(capacity: count)
        array.appendHeightRun(to: &heights)
        ItemBuffers.heights.keep(heights)
        return ItemList(heights: heights)
    }

    /// Reads the items of an insert: bare heights while every item is only a height (`{"h": 120}`, a bulk load's),
    /// `Item`s from the first that is more.
    static func items(
        _ nodes: JSONView.Elements, _ path: @autoclosure () -> String
    ) throws(ProtocolError) -> ItemList {
        var nodes = nodes
        let count = nodes.underestimatedCount
        var heights = ItemBuffers.heights.take(capacity: count)
        while let node = nodes.next() {
            guard let height = plainHeight(node) else {
                var items = ItemBuffers.items.take(capacity: count)
                items.append(contentsOf: heights.lazy.map { Item(height: $0) })
                items.append(try item(node, in: path(), at: heights.count))
                try append(nodes, from: items.count, to: &items, path())
                ItemBuffers.items.keep(items)
                return ItemList(items)
            }
            heights.append(height)
        }
        ItemBuffers.heights.keep(heights)
        return ItemList(heights: heights)
    }

    /// Reads the items of a section object as `Item`s, which its spec holds.
    static func itemArray(
        _ nodes: JSONView.Elements, _ path: @autoclosure () -> String
    ) throws(ProtocolError) -> [Item] {
        var items = ItemBuffers.items.take(capacity: nodes.underestimatedCount)
        try append(nodes, from: 0, to: &items, path())
        ItemBuffers.items.keep(items)
        return items
    }

    /// Appends the items `nodes`, the first of them at index `k` of their array, to `items`.
    private static func append(
        _ nodes: JSONView.Elements, from k: Int, to items: inout [Item], _ path: @autoclosure () -> String
    ) throws(ProtocolError) {
        for (k, node) in zip(k..., nodes) {
            if let height = plainHeight(node) {
                items.append(Item(height: height))
            } else {
                items.append(try item(node, in: path(), at: k))
            }
        }
    }

    /// The height of an item that is only that, `{"h": NUMBER}` (most items of a bulk insert); nil for any other
    /// item, which the general decoder reads, so every error is the general decoder's.
    @inline(__always)
    private static func plainHeight(_ node: JSONView) -> Double? {
        guard node.kind == .object, node.count == 1 else { return nil }
        var members = node.members
        guard let (key, value) = members.next(), value.kind == .number, key.isEqual(toKey: "h") else { return nil }
        return value.double
    }

    /// Reads an insets object that `p` wraps.
    static func insets(_ p: inout Params) throws(ProtocolError) -> Insets {
        let insets = Insets(
            top: try p.optionalDouble("top") ?? 0, left: try p.optionalDouble("left") ?? 0,
            bottom: try p.optionalDouble("bottom") ?? 0, right: try p.optionalDouble("right") ?? 0)
        try p.finish()
        return insets
    }

    /// Reads a lookahead object: `items` and `limit`, both required and range-checked.
    static func lookahead(_ p: inout Params) throws(ProtocolError) -> Lookahead {
        let items = try WireRange.check(p.int("items"), in: WireRange.lookaheadItems, p.field("items"))
        let limit = try WireRange.check(p.int("limit"), in: WireRange.lookaheadLimit, p.field("limit"))
        try p.finish()
        return Lookahead(items: items, limit: limit)
    }

    static func direction(_ node: JSONView, _ field: @autoclosure () -> String) throws(ProtocolError) -> Direction {
        if node.isEqual(toKey: "ltr") { return .ltr }
        if node.isEqual(toKey: "rtl") { return .rtl }
        throw .badParams(field(), "\(Request.text(node)) is not \"ltr\" or \"rtl\"")
    }

    /// A layout's `axis`: `"vertical"` or `"horizontal"`.
    static func axis(_ node: JSONView, _ field: @autoclosure () -> String) throws(ProtocolError) -> Axis {
        try choice(node, field())
    }

    /// One of an enum's names, e.g. `"shortest"` or `"next"`; the error lists them all.
    private static func choice<T: CaseIterable & RawRepresentable<String>>(
        _ node: JSONView, _ field: @autoclosure () -> String
    ) throws(ProtocolError) -> T {
        if let name = node.string, let value = T(rawValue: name) { return value }
        let names = T.allCases.map { "\"\($0.rawValue)\"" }
        throw .badParams(field(), "\(Request.text(node)) is not \(names.joined(separator: " or "))")
    }

    /// Reads every section property of `p` (unset or null leave it unset).
    static func properties(_ p: inout Params) throws(ProtocolError) -> SectionProperties {
        let patch = try self.patch(&p)
        try checkExclusions(patch, in: p)
        return SectionProperties().merging(patch)
    }

    /// Refuses a patch that sets both of an exclusive pair ("columns or minColumnWidth, not both").
    static func checkExclusions(_ patch: SectionPatch, in p: Params) throws(ProtocolError) {
        for exclusion in SectionPropertyTable.exclusions where exclusion.conflict(in: patch) != nil {
            throw .badParams(p.field(exclusion.refused.key), exclusion.reason)
        }
    }

    /// Reads the section properties `p` names: a value sets one, `null` resets it.
    static func patch(_ p: inout Params) throws(ProtocolError) -> SectionPatch {
        var patch = SectionPatch()
        for property in SectionPropertyTable.all {
            guard let node = p.view(property.key) else { continue }
            let change: PropertyChange<PropertyValue> =
                node.isNull ? .reset : .set(try value(node, of: property.kind, key: property.key, in: &p))
            property.set(change, in: &patch)
        }
        return patch
    }

    /// Reads member `key` of `p`, `node`, by its property's kind: the wire's one codec per kind. The field's path is
    /// built only for an error or a nested object.
    private static func value(
        _ node: JSONView, of kind: PropertyKind, key: StaticString, in p: inout Params
    ) throws(ProtocolError) -> PropertyValue {
        switch kind {
        case .columns, .count:
            let range = kind == .columns ? WireRange.columns : WireRange.count
            return .integer(try WireRange.check(Params.int(node, p.field(key)), in: range, p.field(key)))
        case .length, .positiveLength: return .number(try Params.double(node, p.field(key)))
        case .insets:
            var object = try p.nested(node, path: p.field(key))
            return .insets(try insets(&object))
        case .placement: return .placement(try choice(node, p.field(key)))
        case .tieBreak: return .tieBreak(try choice(node, p.field(key)))
        case .reflow: return .reflow(try choice(node, p.field(key)))
        case .spanPlacement: return .spanPlacement(try choice(node, p.field(key)))
        case .stamps: return .stamps(try stamps(node, p.field(key)))
        case .weights: return .weights(try weights(node, p.field(key)))
        case .lookahead:
            var object = try p.nested(node, path: p.field(key))
            return .lookahead(try lookahead(&object))
        case .flag:
            guard let value = node.bool else {
                throw .badParams(p.field(key), "must be true or false, not \(node.kind) \(Request.text(node))")
            }
            return .flag(value)
        }
    }

    /// A list of numbers, one per column (`columnWidths`); their count and range are for the engine to check, once
    /// the list is known to be no longer than a section's columns can be.
    private static func weights(_ node: JSONView, _ field: String) throws(ProtocolError) -> [Double] {
        guard node.kind == .array else {
            throw .badParams(field, "must be an array of numbers, not \(node.kind) \(Request.text(node))")
        }
        guard node.count <= WireRange.columns.upperBound else {
            throw .badParams(
                field, "lists \(node.count) weights: at most \(WireRange.columns.upperBound), one per column")
        }
        var result: [Double] = []
        result.reserveCapacity(node.count)
        for (k, element) in node.elements.enumerated() { result.append(try Params.double(element, "\(field)[\(k)]")) }
        return result
    }

    /// Reads a section object that `p` wraps: its properties and items.
    static func section(_ p: inout Params) throws(ProtocolError) -> SectionSpec {
        let properties = try properties(&p)
        let items = p.contains("items") ? try itemArray(p.arrayView("items").elements, "\(p.path).items") : []
        try p.finish()
        return SectionSpec(properties: properties, items: items)
    }

    /// Reads the section objects `nodes`, elements of the array at `path` of the document that `p` reads.
    static func sections(
        _ nodes: JSONView.Elements, _ path: String, of p: Params
    ) throws(ProtocolError) -> [SectionSpec] {
        var result: [SectionSpec] = []
        for (k, node) in nodes.enumerated() {
            var section = try p.nested(node, path: "\(path)[\(k)]")
            result.append(try self.section(&section))
        }
        return result
    }

    /// A list of indices (`WireRange.index`); whether they exist, or repeat, is for the engine to say.
    static func indices(_ nodes: JSONView.Elements, _ path: @autoclosure () -> String) throws(ProtocolError) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(nodes.underestimatedCount)
        for (k, node) in nodes.enumerated() { result.append(try Params.index(node, "\(path())[\(k)]")) }
        return result
    }

    /// An `[section, item]` pair.
    static func path(_ node: JSONView?, _ field: String) throws(ProtocolError) -> ItemPath {
        guard let node else { throw .badParams(field, "missing") }
        guard node.kind == .array, node.count == 2, let section = node[0], let item = node[1] else {
            throw .badParams(field, "\(Request.text(node)) is not a [section, item] pair")
        }
        return ItemPath(
            section: try Params.index(section, field + "[0]"), item: try Params.index(item, field + "[1]"))
    }
}
