@_spi(Package) import WaterfallJSON
import WaterfallModel

/// `layout.drop`: drops a layout; its subscribers get `layout.dropped`.
public struct LayoutDropRequest: LayoutNamedMethod, DeclaredMethod {
    public typealias Result = Void

    public var layout: String

    public init(layout: String) {
        self.layout = layout
    }

    public static let method = Method.layoutDrop
    package var call: MethodCall { .layoutDrop(self) }

    package static var declaration: MethodDeclaration {
        declare(
            "Drops a layout; its subscribers get layout.dropped.", [.layout], result: WireSchema.object([]),
            example: [("layout", "feed")], [:])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) {}
}

/// `layout.list`: the layouts, with their section and item counts, seq and widths.
public struct LayoutListRequest: ParameterlessMethod, DeclaredMethod {
    public init() {}

    public static let method = Method.layoutList
    package var call: MethodCall { .layoutList }

    package static var declaration: MethodDeclaration {
        let row = WireSchema.object(
            [
                ("layout", WireSchema.ref("LayoutName")), ("sections", WireSchema.anyInteger),
                ("items", WireSchema.anyInteger), ("seq", WireSchema.anyInteger),
                ("widths", WireSchema.array(WireSchema.positiveLength)),
            ], required: ["layout", "sections", "items", "seq", "widths"])
        return declare(
            "The layouts, with their section and item counts, seq and widths.", [],
            result: WireSchema.object([("layouts", WireSchema.array(row))], required: ["layouts"]), example: [],
            ["layouts": [["layout": "feed", "sections": 1, "items": 1, "seq": 1, "widths": [375]]]])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) -> [LayoutSummary] {
        var layouts: [LayoutSummary] = []
        for (k, entry) in try ReplyDecoding.array(node, "layouts", "result").enumerated() {
            let at = "result.layouts[\(k)]"
            layouts.append(
                LayoutSummary(
                    layout: try ReplyDecoding.string(entry, "layout", at),
                    sections: try ReplyDecoding.int(entry, "sections", at),
                    items: try ReplyDecoding.int(entry, "items", at), seq: try ReplyDecoding.int(entry, "seq", at),
                    widths: try ReplyDecoding.numbers(entry, "widths", at)))
        }
        return layouts
    }
}

/// `layout.export`: a layout's inputs, in the shape of `layout.create`'s params.
public struct LayoutExportRequest: LayoutNamedMethod, DeclaredMethod {
    public var layout: String

    public init(layout: String) {
        self.layout = layout
    }

    public static let method = Method.layoutExport
    package var call: MethodCall { .layoutExport(self) }

    package static var declaration: MethodDeclaration {
        let result = WireSchema.object(
            [("seq", WireSchema.anyInteger), ("layout", WireSchema.ref("LayoutSpec"))], required: ["seq", "layout"])
        return declare(
            "A layout's inputs, in the shape of layout.create's params.", [.layout], result: result,
            example: [("layout", "feed")], ["seq": 1, "layout": ["width": 375, "sections": [["items": [["h": 120]]]]]])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) -> LayoutExport {
        try ReplyDecoding.export(node)
    }
}

/// `layout.get`: a layout's frames, section by section.
public struct LayoutGetRequest: DeclaredMethod {
    public var layout: String
    /// The sections to list, in the order given, none twice; nil for all of them, in order.
    public var sections: [Int]?
    /// The width whose frames are listed; nil for the first.
    public var width: Double?

    public init(layout: String, sections: [Int]? = nil, width: Double? = nil) {
        self.layout = layout
        self.sections = sections
        self.width = width
    }

    package init(_ p: inout Params) throws(ProtocolError) {
        layout = try DecodedRequest.layoutName(&p)
        if p.contains("sections") {
            sections = try CommandDecoding.distinctIndices(p.array("sections"), "params.sections")
        }
        width = try CommandDecoding.frameWidth(&p)
    }

    public var params: JSONValue? {
        var members: [(key: String, value: JSONValue)] = [("layout", .string(layout))]
        if let sections { members.append(("sections", .array(sections.map { JSONValue.integer($0) }))) }
        return JSONValue.object(members).adding(width: width)
    }

    public static let method = Method.layoutGet
    package var call: MethodCall { .layoutGet(self) }

    package static var declaration: MethodDeclaration {
        let sections = ParamDeclaration(
            "sections", WireSchema.array(WireSchema.index, unique: true), "the sections to list (all when absent)")
        let result = WireSchema.object(
            ParamDeclaration.snapshotHead + [("sections", WireSchema.array(WireSchema.ref("SectionFrames")))],
            required: ["seq", "contentSize", "sections"])
        return declare(
            "A layout's frames, section by section.", [.layout, sections, .frameWidth], result: result,
            example: [("layout", "feed")],
            [
                "seq": 1, "contentSize": ["w": 375, "h": 120],
                "sections": [
                    [
                        "section": 0, "origin": 0, "height": 120, "count": 1,
                        "items": [["i": 0, "x": 0, "y": 0, "w": 182.5, "h": 120]],
                    ]
                ],
            ])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) -> LayoutFrames {
        try ReplyDecoding.frames(node)
    }
}
