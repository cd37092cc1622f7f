@_spi(Package) import WaterfallJSON
import WaterfallModel

/// `subscribe`: this connection gets `layout.changed` for every change of a layout, and `layout.dropped`; with a
/// viewport, each event scoped to it, and the answer holds the viewport's elements. Its events carry the diffs at
/// `width` (nil: the first width).
public struct SubscribeRequest: DeclaredMethod {
    public var layout: String
    public var viewport: Viewport?
    public var width: Double?

    public init(layout: String, viewport: Viewport? = nil, width: Double? = nil) {
        self.layout = layout
        self.viewport = viewport
        self.width = width
    }

    package init(_ p: inout Params) throws(ProtocolError) {
        layout = try DecodedRequest.layoutName(&p)
        viewport = try CommandDecoding.viewport(&p)
        width = try CommandDecoding.frameWidth(&p)
    }

    public var params: JSONValue? {
        var members: [(key: String, value: JSONValue)] = [("layout", .string(layout))]
        if let viewport { members.append(("viewport", CommandEncoding.viewport(viewport))) }
        return JSONValue.object(members).adding(width: width)
    }

    public static let method = Method.subscribe
    package var call: MethodCall { .subscribe(self) }

    package static var declaration: MethodDeclaration {
        let scoped = WireSchema.object(
            ParamDeclaration.snapshotHead + [
                ("viewport", ParamDeclaration.viewportSchema), ("diff", WireSchema.ref("Diff")),
            ],
            required: ["seq", "contentSize", "viewport", "diff"])
        return declare(
            "Sends this connection layout.changed for every change of a layout, and layout.dropped; with a "
                + "viewport, each event scoped to it, and the answer holds the viewport's elements.",
            [
                .layout,
                ParamDeclaration(
                    "viewport", WireSchema.nullable(ParamDeclaration.viewportSchema),
                    "scopes the events to a viewport"),
                ParamDeclaration(
                    "width", WireSchema.nullable(WireSchema.positiveLength),
                    "the width whose diffs the events carry (the first when absent); again at another width moves "
                        + "the subscription there"),
            ],
            result: ["oneOf": [WireSchema.object([]), scoped]], example: [("layout", "feed")], [:])
    }

    /// The viewport's elements for a scoped subscription; nil for one without a viewport.
    public static func result(_ node: JSONNode) throws(ReplyError) -> ViewportSnapshot? {
        node["viewport"] == nil ? nil : try ReplyDecoding.viewportSnapshot(node)
    }
}

/// `unsubscribe`: ends this connection's subscription to a layout.
public struct UnsubscribeRequest: LayoutNamedMethod, DeclaredMethod {
    public typealias Result = Void

    public var layout: String

    public init(layout: String) {
        self.layout = layout
    }

    public static let method = Method.unsubscribe
    package var call: MethodCall { .unsubscribe(self) }

    package static var declaration: MethodDeclaration {
        declare("Ends a subscription.", [.layout], result: WireSchema.object([]), example: [("layout", "feed")], [:])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) {}
}
