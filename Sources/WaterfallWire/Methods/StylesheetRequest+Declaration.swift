@_spi(Package) import WaterfallJSON
import WaterfallModel

/// `layout.css`: a stylesheet exact at every container width of a range (its params' checks are in
/// `StylesheetRequest`).
extension StylesheetRequest: DeclaredMethod {
    public var params: JSONValue? {
        let layout: JSONValue =
            switch source {
            case .stored(let name): .string(name)
            case .inline(let spec): .object(CommandEncoding.members(of: spec))
            }
        var members: [(key: String, value: JSONValue)] = [
            ("layout", layout), ("minWidth", .double(minWidth)), ("maxWidth", .double(maxWidth)),
        ]
        if let sections { members.append(("sections", .array(sections.map { JSONValue.integer($0) }))) }
        if let items { members.append(("items", .integer(items))) }
        if selector != Self.defaultSelector { members.append(("selector", .string(selector))) }
        return .object(members)
    }

    public static let method = Method.layoutCSS
    package var call: MethodCall { .layoutCSS(self) }

    package static var declaration: MethodDeclaration {
        let width: JSONValue = ["type": "number", "exclusiveMinimum": 0, "maximum": .double(maxWidthLimit)]
        let source = ParamDeclaration(
            "layout", ["oneOf": [WireSchema.ref("LayoutName"), WireSchema.ref("LayoutSpec")]], required: true,
            "the layout's name, or its inputs as layout.export returns them")
        let params = [
            source, ParamDeclaration("minWidth", width, required: true, "the narrowest container width (CSS px)"),
            ParamDeclaration("maxWidth", width, required: true, "the widest container width (CSS px), ≥ minWidth"),
            ParamDeclaration(
                "sections", WireSchema.array(WireSchema.index, unique: true), "only these sections' elements"),
            ParamDeclaration(
                "items", WireSchema.nullable(WireSchema.index), "each section as if it held only its first items"),
            ParamDeclaration(
                "selector", WireSchema.nullable(WireSchema.string), "the container's selector (.waterfall)"),
        ]
        let section = WireSchema.object(
            [
                ("section", WireSchema.index), ("items", WireSchema.anyInteger), ("header", WireSchema.boolean),
                ("footer", WireSchema.boolean),
            ], required: ["section", "items", "header", "footer"])
        let result = WireSchema.object(
            [("css", WireSchema.string), ("pieces", WireSchema.anyInteger), ("sections", WireSchema.array(section))],
            required: ["css", "pieces", "sections"])
        return declare(
            "A stylesheet that places the layout's elements exactly at every container width of a range.", params,
            result: result, example: [("layout", "feed"), ("minWidth", 300), ("maxWidth", 600)],
            [
                "css": ".waterfall{container-type:inline-size;position:relative;padding:0}\n", "pieces": 1,
                "sections": [["section": 0, "items": 1, "header": false, "footer": false]],
            ])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) -> Stylesheet {
        var sections: [Stylesheet.Section] = []
        for (k, entry) in try ReplyDecoding.array(node, "sections", "result").enumerated() {
            let at = "result.sections[\(k)]"
            sections.append(
                Stylesheet.Section(
                    section: try ReplyDecoding.int(entry, "section", at),
                    items: try ReplyDecoding.int(entry, "items", at), header: entry["header"]?.bool ?? false,
                    footer: entry["footer"]?.bool ?? false))
        }
        return Stylesheet(
            css: try ReplyDecoding.string(node, "css", "result"),
            pieces: try ReplyDecoding.int(node, "pieces", "result"), sections: sections)
    }
}
