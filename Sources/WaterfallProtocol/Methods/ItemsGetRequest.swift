import WaterfallJSON
import WaterfallLayout

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

    public init(_ p: inout Params) throws(ProtocolError) {
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
    public var call: MethodCall { .itemsGet(self) }

    public static var declaration: MethodDeclaration {
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

    /// The listed items' elements in `layout`, in flow terms; `not_found` naming `params.items[k]` for the first
    /// that names no item.
    public func elements(of layout: Layout) throws(ProtocolError) -> [Element] {
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for (k, path) in items.enumerated() {
            guard path.section < layout.sectionCount else {
                throw ProtocolError(
                    .notFound,
                    "params.items[\(k)][0]: \(path.section) is not a section (there are \(layout.sectionCount))")
            }
            let count = layout.itemCount(inSection: path.section)
            guard path.item < count else {
                throw ProtocolError(
                    .notFound,
                    "params.items[\(k)][1]: \(path.item) is not an item index of section \(path.section) "
                        + "(there are \(count))")
            }
            let frame = layout.frame(ofItem: path)
            elements.append(
                Element(kind: .item, section: path.section, index: path.item, frame: frame.frame, id: frame.id))
        }
        return elements
    }
}
