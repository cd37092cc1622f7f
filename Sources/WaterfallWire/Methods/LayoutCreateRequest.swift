@_spi(Package) import WaterfallJSON
import WaterfallModel

/// `layout.create`: a layout of `spec` named `layout` (seq 1); with `replace`, over one of that name.
///
/// Held boxed in `MethodCall`: a `LayoutSpec` holds the default section properties inline (a few hundred bytes),
/// and every other call would be that large and copied as such.
public struct LayoutCreateRequest: DeclaredMethod {
    public var layout: String
    public var replace: Bool
    public var wantsDiff: Bool
    public var spec: LayoutSpec

    public init(layout: String, replace: Bool = false, wantsDiff: Bool = true, spec: LayoutSpec) {
        self.layout = layout
        self.replace = replace
        self.wantsDiff = wantsDiff
        self.spec = spec
    }

    package init(_ p: inout Params) throws(ProtocolError) {
        layout = try DecodedRequest.layoutName(&p)
        replace = try p.optionalBool("replace") ?? false
        wantsDiff = try p.optionalBool("diff") ?? true
        if p.contains("anchor") {
            // An anchor names an item by its indices before the request, and a create has no before: even with
            // `replace`, the layout it makes is new (its diff lists every section as new).
            throw .badParams("params.anchor", "layout.create makes a new layout, with no item before it to anchor to")
        }
        spec = try CommandDecoding.layoutSpec(&p)
    }

    public var params: JSONValue? {
        var members: [(key: String, value: JSONValue)] = [("layout", .string(layout))]
        if replace { members.append(("replace", true)) }
        if !wantsDiff { members.append(("diff", false)) }
        return .object(members + CommandEncoding.members(of: spec))
    }

    public static let method = Method.layoutCreate
    package var call: MethodCall { .layoutCreate(self) }

    package static var declaration: MethodDeclaration {
        let params: [ParamDeclaration] =
            [
                .layout,
                ParamDeclaration("replace", WireSchema.nullable(WireSchema.boolean), "replace a layout of that name"),
                ParamDeclaration("diff", WireSchema.nullable(WireSchema.boolean), "false: the result without its diff"),
            ] + MethodTable.settings(widthRequired: true) + [
                ParamDeclaration("sections", WireSchema.array(WireSchema.ref("Section")), "the sections, in order")
            ]
        return declare(
            "Creates a layout (seq 1).", params, result: WireSchema.ref("MutationResult"),
            example: [("layout", "feed"), ("width", 375), ("diff", false), ("sections", [["items": [["h": 120]]]])],
            ["seq": 1, "contentSize": ["w": 375, "h": 120]])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) -> MutationResult {
        try ReplyDecoding.mutation(node)
    }
}
