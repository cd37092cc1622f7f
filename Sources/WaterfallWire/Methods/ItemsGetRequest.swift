@_spi(Package) import WaterfallJSON
import WaterfallModel

/// `items.get`: the frames of listed items, by `[section, i]`, in the order listed (a repeat is listed again), at
/// `width` (nil: the first width); on screen, as `query` gives them.
public struct ItemsGetRequest: DeclaredMethod {
    public var layout: String
    public var items: [ItemPath]
    public var width: Double?

    public init(layout: String, items: [ItemPath], width: Double? = nil) {
        self.layout = layout
        self.items = items
        self.width = width
    }

    package init(_ p: inout Params) throws(ProtocolError) {
        layout = try DecodedRequest.layoutName(&p)
        let list = try p.arrayView("items")
        var items: [ItemPath] = []
        items.reserveCapacity(list.count)
        for (k, node) in list.elements.enumerated() {
            items.append(try ModelDecoding.path(node, "params.items[\(k)]"))
        }
        self.items = items
        width = try CommandDecoding.frameWidth(&p)
        try p.finish()
    }

    public var params: JSONValue? {
        JSONValue.object([("layout", .string(layout)), ("items", .array(items.map(CommandEncoding.path)))])
            .adding(width: width)
    }

    public static let method = Method.itemsGet
    package var call: MethodCall { .itemsGet(self) }

    package static var declaration: MethodDeclaration {
        declare(
            "The frames of listed items, in the order listed.",
            [
                .layout,
                ParamDeclaration(
                    "items", WireSchema.array(WireSchema.ref("ItemPath")), required: true,
                    "the items, each [section, i]"),
                .frameWidth,
            ], result: QueryResult.schema, example: [("layout", "feed"), ("items", [[0, 0]])],
            [
                "seq": 1, "contentSize": ["w": 375, "h": 120],
                "elements": [["kind": "item", "section": 0, "i": 0, "x": 0, "y": 0, "w": 182.5, "h": 120]],
            ])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) -> QueryResult {
        try ReplyDecoding.query(node)
    }
}
