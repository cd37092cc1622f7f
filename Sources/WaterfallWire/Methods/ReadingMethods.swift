@_spi(Package) import WaterfallJSON
import WaterfallModel

/// `query`: the headers, items and footers that meet a rect (`w` and `h` ≥ 0), in document or reading order.
public struct QueryRequest: DeclaredMethod {
    public var layout: String
    public var rect: Rect
    public var order: ElementOrder
    /// The width whose frames are queried; nil for the first.
    public var width: Double?

    public init(layout: String, rect: Rect, order: ElementOrder = .document, width: Double? = nil) {
        self.layout = layout
        self.rect = rect
        self.order = order
        self.width = width
    }

    package init(_ p: inout Params) throws(ProtocolError) {
        layout = try DecodedRequest.layoutName(&p)
        guard let rectNode = p.node("rect") else { throw .badParams("params.rect", "missing") }
        var r = try Params(rectNode, path: "params.rect")
        rect = Rect(x: try r.double("x"), y: try r.double("y"), width: try r.double("w"), height: try r.double("h"))
        try r.finish()
        order = try ReadingDecoding.order(&p)
        width = try CommandDecoding.frameWidth(&p)
        try p.finish()
        guard rect.width >= 0, rect.height >= 0 else {
            throw .badParams("params.rect", "w and h must be ≥ 0, not \(rect.width) × \(rect.height)")
        }
    }

    public var params: JSONValue? {
        var members: [(key: String, value: JSONValue)] = [
            ("layout", .string(layout)), ("rect", CommandEncoding.rect(rect)),
        ]
        if order != .document { members.append(("order", .string(order.rawValue))) }
        return JSONValue.object(members).adding(width: width)
    }

    public static let method = Method.query
    package var call: MethodCall { .query(self) }

    package static var declaration: MethodDeclaration {
        let rect = WireSchema.object(
            [("x", WireSchema.number), ("y", WireSchema.number), ("w", WireSchema.length), ("h", WireSchema.length)],
            required: ["x", "y", "w", "h"])
        let order = ParamDeclaration(
            "order", WireSchema.nullable(WireSchema.oneOf(["document", "reading"])), required: false,
            "document (by section, header, items, footer) or reading (rows by top edge, each left to right)")
        return declare(
            "The headers, items and footers that meet a rect.",
            [.layout, ParamDeclaration("rect", rect, required: true, "the rect, w and h ≥ 0"), order, .frameWidth],
            result: QueryResult.schema, example: [("layout", "feed"), ("rect", ["x": 0, "y": 0, "w": 375, "h": 800])],
            [
                "seq": 1, "contentSize": ["w": 375, "h": 120],
                "elements": [["kind": "item", "section": 0, "i": 0, "x": 0, "y": 0, "w": 182.5, "h": 120]],
            ])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) -> QueryResult {
        try ReplyDecoding.query(node)
    }
}

extension QueryResult {
    /// `{"seq", "contentSize", "elements"}`: the result of `query`, and of the methods that list elements.
    static var schema: JSONValue {
        WireSchema.object(
            ParamDeclaration.snapshotHead + [("elements", WireSchema.array(WireSchema.ref("Element")))],
            required: ["seq", "contentSize", "elements"])
    }
}

/// `items.neighbors`: the items next to one on screen, at `width` (nil: the first width).
public struct NeighborsRequest: DeclaredMethod {
    public var layout: String
    public var item: ItemPath
    public var width: Double?

    public init(layout: String, item: ItemPath, width: Double? = nil) {
        self.layout = layout
        self.item = item
        self.width = width
    }

    package init(_ p: inout Params) throws(ProtocolError) {
        layout = try DecodedRequest.layoutName(&p)
        item = try ReadingDecoding.item(&p)
        width = try CommandDecoding.frameWidth(&p)
    }

    public var params: JSONValue? {
        JSONValue.object([
            ("layout", .string(layout)), ("section", .integer(item.section)), ("i", .integer(item.item)),
        ]).adding(width: width)
    }

    public static let method = Method.itemsNeighbors
    package var call: MethodCall { .neighbors(self) }

    package static var declaration: MethodDeclaration {
        let neighbor = WireSchema.nullable(WireSchema.ref("Element"))
        let result = WireSchema.object(
            [
                ("seq", WireSchema.anyInteger), ("above", neighbor), ("below", neighbor),
                ("left", neighbor), ("right", neighbor),
            ],
            required: ["seq", "above", "below", "left", "right"])
        return declare(
            "The items next to one on screen: above, below, left and right (null at an edge).",
            [
                .layout,
                ParamDeclaration("section", WireSchema.integer(WireRange.index), required: true, "its section"),
                ParamDeclaration("i", WireSchema.integer(WireRange.index), required: true, "its index"),
                .frameWidth,
            ], result: result, example: [("layout", "feed"), ("section", 0), ("i", 0)],
            ["seq": 1, "above": .null, "below": .null, "left": .null, "right": .null])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) -> ItemNeighbors {
        try ReplyDecoding.neighbors(node)
    }
}
