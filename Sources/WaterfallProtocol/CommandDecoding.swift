import WaterfallJSON
import WaterfallLayout

/// Turns the params of a mutating method into engine commands.
public enum CommandDecoding {
    /// The command of `method` from `p` (without its `layout` and `diff`, which the caller reads).
    public static func command(_ method: Method, _ p: inout Params) throws(ProtocolError) -> LayoutCommand {
        switch method {
        case .layoutConfigure:
            return .configureLayout(try layoutPatch(&p))
        case .sectionsInsert:
            let at = try p.int("at")
            return .insertSections(
                at: at, sections: try ModelDecoding.sections(p.array("sections"), p.field("sections")))
        case .sectionsDelete:
            return .deleteSections(try ModelDecoding.indices(p.array("sections"), p.field("sections")))
        case .sectionsMove:
            return .moveSection(from: try p.int("from"), to: try p.int("to"))
        case .sectionsConfigure:
            let section = try p.int("section")
            let patch = try ModelDecoding.patch(&p)
            if case .set? = patch.columns, case .set? = patch.minColumnWidth {
                throw .badParams(p.field("minColumnWidth"), "cannot be set together with columns")
            }
            return .configureSection(section, patch)
        case .itemsInsert:
            let section = try p.int("section")
            let at = try p.int("at")
            return .insertItems(
                section: section, at: at, items: try ModelDecoding.items(p.array("items"), p.field("items")))
        case .itemsDelete:
            let section = try p.int("section")
            return .deleteItems(
                section: section, indices: try ModelDecoding.indices(p.array("items"), p.field("items")))
        case .itemsUpdate:
            let section = try p.int("section")
            let nodes = try p.array("items")
            var updates: [ItemUpdate] = []
            updates.reserveCapacity(nodes.underestimatedCount)
            for (k, node) in nodes.enumerated() {
                let (item, index) = try ModelDecoding.indexedItem(node, in: p.field("items"), at: k, withIndex: true)
                updates.append(ItemUpdate(index: index ?? 0, item: item))
            }
            return .updateItems(section: section, updates: updates)
        case .itemsMove:
            let from = try ModelDecoding.path(p.node("from"), p.field("from"))
            let to = try ModelDecoding.path(p.node("to"), p.field("to"))
            return .moveItem(from: from, to: to)
        default:
            throw .badParams(p.path, "\(method.rawValue) is not a change to a layout")
        }
    }

    /// A list of integer indices at `path`.
    public static func indices(
        _ nodes: JSONNode.Elements, _ path: @autoclosure () -> String
    ) throws(ProtocolError) -> [Int] {
        try ModelDecoding.indices(nodes, path())
    }

    /// The settings of `layout.configure`.
    static func layoutPatch(_ p: inout Params) throws(ProtocolError) -> LayoutPatch {
        var patch = LayoutPatch()
        patch.width = try p.optionalDouble("width")
        patch.scale = try p.optionalDouble("scale")
        if let node = p.node("direction"), !node.isNull {
            patch.direction = try ModelDecoding.direction(node, p.field("direction"))
        }
        patch.minContentHeight = try p.optionalDouble("minContentHeight")
        if let node = p.node("defaults") {
            patch.defaults = node.isNull ? SectionProperties() : try ModelDecoding.properties(node, p.field("defaults"))
        }
        return patch
    }

    /// The spec of `layout.create` (after its `layout` and `replace` are read).
    public static func layoutSpec(_ p: inout Params) throws(ProtocolError) -> LayoutSpec {
        let width = try p.double("width")
        let patch = try layoutPatch(&p)
        let sections =
            p.contains("sections") ? try ModelDecoding.sections(p.array("sections"), p.field("sections")) : []
        return LayoutSpec(
            width: width, scale: patch.scale ?? 0, direction: patch.direction ?? .ltr,
            minContentHeight: patch.minContentHeight ?? 0, defaults: patch.defaults ?? SectionProperties(),
            sections: sections)
    }

    /// The ops of a `batch`, each `{"method", "params"}` with a batchable method.
    public static func batch(_ nodes: JSONNode.Elements, _ path: String) throws(ProtocolError) -> [LayoutCommand] {
        var commands: [LayoutCommand] = []
        commands.reserveCapacity(nodes.underestimatedCount)
        for (k, node) in nodes.enumerated() {
            let opPath = "\(path)[\(k)]"
            var op = try Params(node, path: opPath)
            let name = try op.string("method")
            guard let method = Method(rawValue: name), method.isBatchable else {
                throw .badParams(op.field("method"), "\"\(name)\" cannot be used in a batch")
            }
            var params = try Params(op.node("params"), path: op.field("params"))
            commands.append(try command(method, &params))
            try params.finish()
            try op.finish()
        }
        return commands
    }
}
