import WaterfallJSON
import WaterfallLayout

/// One param of a method as the OpenRPC document declares it: its name, schema, whether the decoder requires it,
/// and what it means.
public struct ParamDeclaration: Sendable {
    public var name: String
    public var schema: JSONValue
    public var required: Bool
    public var summary: String

    public init(_ name: String, _ schema: JSONValue, required: Bool = false, _ summary: String) {
        self.name = name
        self.schema = schema
        self.required = required
        self.summary = summary
    }
}

/// One method as the OpenRPC document declares it: params, result schema and an example.
public struct MethodDeclaration: Sendable {
    public var method: Method
    public var summary: String
    public var params: [ParamDeclaration]
    public var result: JSONValue
    /// An example request's params and its result (params name → value).
    public var example: (params: [(key: String, value: JSONValue)], result: JSONValue)
}

/// The declaration of every method, one switch over `Method` so that a new method cannot go undeclared; the
/// OpenRPC document (`OpenRPCDocument`) is written from it and the tests check it against the decoder.
public enum MethodTable {
    /// Every method's declaration, in `Method.allCases` order.
    public static let all: [MethodDeclaration] = Method.allCases.map(declaration)

    /// The declaration of `method`.
    public static func declaration(_ method: Method) -> MethodDeclaration {
        let layout = ParamDeclaration("layout", WireSchema.ref("LayoutName"), required: true, "the layout's name")
        let empty = WireSchema.object([])
        let mutation = WireSchema.ref("MutationResult")
        let mutationExample: JSONValue = ["seq": 2, "contentSize": ["w": 375, "h": 130]]
        func make(
            _ summary: String, _ params: [ParamDeclaration], _ result: JSONValue,
            _ exampleParams: [(key: String, value: JSONValue)], _ exampleResult: JSONValue
        ) -> MethodDeclaration {
            MethodDeclaration(
                method: method, summary: summary, params: params, result: result,
                example: (exampleParams, exampleResult))
        }
        switch method {
        case .change(let change):
            // layout.configure's own `width` sets the layout's width (its result is at the first width after it).
            let options = change == .layoutConfigure ? changeOptions : changeOptions + [frameWidth]
            return make(
                change.summary, [layout] + options + change.params, mutation,
                [("layout", "feed"), ("diff", false)] + change.example, mutationExample)
        case .batch:
            return make(
                "Applies several changes to one layout atomically: one seq, one result, one event.",
                [layout] + changeOptions + [frameWidth] + [
                    ParamDeclaration(
                        "ops", WireSchema.array(batchOp), required: true,
                        "the changes, in order, each a changing method and its params without layout, diff, anchor")
                ], mutation,
                [
                    ("layout", "feed"), ("diff", false),
                    ("ops", [["method": "items.insert", "params": ["section": 0, "at": 0, "items": [["h": 120]]]]]),
                ], mutationExample)
        case .ping:
            return make(
                "Checks that the daemon answers.", [], WireSchema.object([("pong", ["const": true])]), [],
                ["pong": true])
        case .version:
            let limits: JSONValue = ["type": "object", "additionalProperties": WireSchema.anyInteger]
            let result = WireSchema.object(
                [
                    ("server", WireSchema.string), ("version", WireSchema.string),
                    ("protocol", ["const": .int(Int64(ReplyEncoding.protocolVersion))]),
                    ("instance", WireSchema.string), ("durable", WireSchema.boolean), ("limits", limits),
                ], required: ["server", "version", "protocol", "instance", "durable", "limits"])
            let example: JSONValue = [
                "server": "waterfalld", "version": "1.0.0", "protocol": .int(Int64(ReplyEncoding.protocolVersion)),
                "instance": "5f3a9c", "durable": false, "limits": ["maxLayouts": 1024],
            ]
            return make("The daemon's name, version, protocol version, instance and limits.", [], result, [], example)
        case .layoutCreate:
            let params: [ParamDeclaration] =
                [
                    layout,
                    ParamDeclaration(
                        "replace", WireSchema.nullable(WireSchema.boolean), "replace a layout of that name"),
                    ParamDeclaration(
                        "diff", WireSchema.nullable(WireSchema.boolean), "false: the result without its diff"),
                ] + settings(widthRequired: true) + [
                    ParamDeclaration("sections", WireSchema.array(WireSchema.ref("Section")), "the sections, in order")
                ]
            return make(
                "Creates a layout (seq 1).", params, mutation,
                [("layout", "feed"), ("width", 375), ("diff", false), ("sections", [["items": [["h": 120]]]])],
                ["seq": 1, "contentSize": ["w": 375, "h": 120]])
        case .layoutDrop:
            return make(
                "Drops a layout; its subscribers get layout.dropped.", [layout], empty, [("layout", "feed")], [:])
        case .layoutList:
            let row = WireSchema.object(
                [
                    ("layout", WireSchema.ref("LayoutName")), ("sections", WireSchema.anyInteger),
                    ("items", WireSchema.anyInteger), ("seq", WireSchema.anyInteger),
                    ("widths", WireSchema.array(WireSchema.positiveLength)),
                ], required: ["layout", "sections", "items", "seq", "widths"])
            return make(
                "The layouts, with their section and item counts, seq and widths.", [],
                WireSchema.object([("layouts", WireSchema.array(row))], required: ["layouts"]), [],
                ["layouts": [["layout": "feed", "sections": 1, "items": 1, "seq": 1, "widths": [375]]]])
        case .layoutGet:
            let sections = ParamDeclaration(
                "sections", WireSchema.array(WireSchema.index, unique: true), "the sections to list (all when absent)")
            let result = WireSchema.object(
                snapshotHead + [("sections", WireSchema.array(WireSchema.ref("SectionFrames")))],
                required: ["seq", "contentSize", "sections"])
            return make(
                "A layout's frames, section by section.", [layout, sections, frameWidth], result, [("layout", "feed")],
                [
                    "seq": 1, "contentSize": ["w": 375, "h": 120],
                    "sections": [
                        [
                            "section": 0, "origin": 0, "height": 120, "count": 1,
                            "items": [["i": 0, "x": 0, "y": 0, "w": 182.5, "h": 120]],
                        ]
                    ],
                ])
        case .layoutExport:
            let result = WireSchema.object(
                [("seq", WireSchema.anyInteger), ("layout", WireSchema.ref("LayoutSpec"))], required: ["seq", "layout"])
            return make(
                "A layout's inputs, in the shape of layout.create's params.", [layout], result, [("layout", "feed")],
                ["seq": 1, "layout": ["width": 375, "sections": [["items": [["h": 120]]]]]])
        case .query:
            let rect = WireSchema.object(
                [
                    ("x", WireSchema.number), ("y", WireSchema.number), ("w", WireSchema.length),
                    ("h", WireSchema.length),
                ],
                required: ["x", "y", "w", "h"])
            let result = WireSchema.object(
                snapshotHead + [("elements", WireSchema.array(WireSchema.ref("Element")))],
                required: ["seq", "contentSize", "elements"])
            let order = ParamDeclaration(
                "order", WireSchema.nullable(WireSchema.oneOf(["document", "reading"])), required: false,
                "document (by section, header, items, footer) or reading (rows by top edge, each left to right)")
            return make(
                "The headers, items and footers that meet a rect.",
                [layout, ParamDeclaration("rect", rect, required: true, "the rect, w and h ≥ 0"), order, frameWidth],
                result,
                [("layout", "feed"), ("rect", ["x": 0, "y": 0, "w": 375, "h": 800])],
                [
                    "seq": 1, "contentSize": ["w": 375, "h": 120],
                    "elements": [["kind": "item", "section": 0, "i": 0, "x": 0, "y": 0, "w": 182.5, "h": 120]],
                ])
        case .itemsNeighbors:
            let neighbor = WireSchema.nullable(WireSchema.ref("Element"))
            let result = WireSchema.object(
                [
                    ("seq", WireSchema.anyInteger), ("above", neighbor), ("below", neighbor),
                    ("left", neighbor), ("right", neighbor),
                ],
                required: ["seq", "above", "below", "left", "right"])
            return make(
                "The items next to one on screen: above, below, left and right (null at an edge).",
                [
                    layout,
                    ParamDeclaration("section", WireSchema.integer(WireRange.index), required: true, "its section"),
                    ParamDeclaration("i", WireSchema.integer(WireRange.index), required: true, "its index"),
                    frameWidth,
                ], result, [("layout", "feed"), ("section", 0), ("i", 0)],
                ["seq": 1, "above": .null, "below": .null, "left": .null, "right": .null])
        case .subscribe:
            let scoped = WireSchema.object(
                snapshotHead + [("viewport", viewport), ("diff", WireSchema.ref("Diff"))],
                required: ["seq", "contentSize", "viewport", "diff"])
            return make(
                "Sends this connection layout.changed for every change of a layout, and layout.dropped; with a "
                    + "viewport, each event scoped to it, and the answer holds the viewport's elements.",
                [
                    layout,
                    ParamDeclaration("viewport", WireSchema.nullable(viewport), "scopes the events to a viewport"),
                    ParamDeclaration(
                        "width", WireSchema.nullable(WireSchema.positiveLength),
                        "the width whose diffs the events carry (the first when absent); again at another width moves "
                            + "the subscription there"),
                ],
                ["oneOf": [empty, scoped]], [("layout", "feed")], [:])
        case .unsubscribe:
            return make("Ends a subscription.", [layout], empty, [("layout", "feed")], [:])
        case .stats:
            let counters = ["uptimeSeconds", "requests", "errors", "layouts", "sections", "items", "subscriptions"]
            let result = WireSchema.object(
                counters.map { ($0, WireSchema.number) } + [
                    ("connections", ["type": "object"]), ("bytesRead", WireSchema.anyInteger),
                    ("bytesWritten", WireSchema.anyInteger), ("memory", ["type": "object"]),
                ], required: counters, open: true)
            return make(
                "The daemon's counters.", [], result, [],
                [
                    "uptimeSeconds": 5, "requests": 3, "errors": 0, "layouts": 1, "sections": 1, "items": 1,
                    "subscriptions": 0,
                ])
        case .layoutCSS:
            let width: JSONValue = [
                "type": "number", "exclusiveMinimum": 0, "maximum": .double(StylesheetRequest.maxWidthLimit),
            ]
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
                [
                    ("css", WireSchema.string), ("pieces", WireSchema.anyInteger),
                    ("sections", WireSchema.array(section)),
                ],
                required: ["css", "pieces", "sections"])
            return make(
                "A stylesheet that places the layout's elements exactly at every container width of a range.", params,
                result, [("layout", "feed"), ("minWidth", 300), ("maxWidth", 600)],
                [
                    "css": ".waterfall{container-type:inline-size;position:relative;padding:0}\n", "pieces": 1,
                    "sections": [["section": 0, "items": 1, "header": false, "footer": false]],
                ])
        case .metrics:
            let result = WireSchema.object(
                [("contentType", WireSchema.string), ("text", WireSchema.string)], required: ["contentType", "text"])
            return make(
                "The daemon's counters and histograms in Prometheus' text format 0.0.4.", [], result, [],
                ["contentType": .string(PrometheusText.contentType), "text": "# HELP …\n"])
        case .rpcDiscover:
            let result = WireSchema.object(
                [("openrpc", WireSchema.string), ("info", ["type": "object"]), ("methods", ["type": "array"])],
                required: ["openrpc", "info", "methods"], open: true)
            return make(
                "This document: the protocol as OpenRPC 1.3.", [], result, [],
                ["openrpc": .string(OpenRPCDocument.openrpcVersion), "info": [:], "methods": []])
        }
    }

    // MARK: Internal

    /// The schemas of the events a subscriber receives (notifications, no id), in `components.schemas`.
    static var eventSchemas: [(key: String, value: JSONValue)] {
        let op = WireSchema.object(
            [("method", WireSchema.oneOf(ChangeMethod.allCases.map(\.rawValue))), ("params", ["type": "object"])],
            required: ["method", "params"])
        let layoutOnly = WireSchema.object([("layout", WireSchema.ref("LayoutName"))], required: ["layout"])
        return [
            (
                "layout.changed",
                WireSchema.object(
                    [
                        ("layout", WireSchema.ref("LayoutName")), ("seq", WireSchema.anyInteger),
                        ("contentSize", WireSchema.ref("Size")), ("ops", WireSchema.array(op)),
                        ("diff", WireSchema.ref("Diff")),
                        ("anchor", WireSchema.ref("AnchorOutcome")),
                    ], required: ["layout", "seq", "contentSize", "ops", "diff"],
                    description: "Event params: a subscribed layout changed (by any connection).")
            ),
            ("layout.dropped", layoutOnly),
            ("subscription.overflow", layoutOnly),
        ]
    }

    // MARK: Private

    /// `diff`, `anchor` and `viewport`, which every change takes.
    private static let changeOptions = [
        ParamDeclaration("diff", WireSchema.nullable(WireSchema.boolean), "false: the result without its diff"),
        ParamDeclaration(
            "anchor", WireSchema.nullable(WireSchema.ref("Anchor")),
            "an item, by its indices before the change, whose move the result reports"),
        ParamDeclaration(
            "viewport", WireSchema.nullable(viewport),
            "scopes the diff to what a viewport {y, h} ({x, w} for a horizontal layout) before the change shows, "
                + "before and after"),
    ]

    /// `width` on a method that returns frames: which of the layout's widths (`CommandDecoding.frameWidth`).
    private static let frameWidth = ParamDeclaration(
        "width", WireSchema.nullable(WireSchema.positiveLength),
        "the width whose frames the result gives, one of the layout's widths (the first when absent)")

    /// A viewport: a finite `y` and a finite `h` > 0, or for a horizontal layout `x` and `w`
    /// (`CommandDecoding.viewport`).
    private static let viewport: JSONValue = [
        "oneOf": [
            WireSchema.object(
                [("y", ["type": "number"]), ("h", ["type": "number", "exclusiveMinimum": 0])], required: ["y", "h"]),
            WireSchema.object(
                [("x", ["type": "number"]), ("w", ["type": "number", "exclusiveMinimum": 0])], required: ["x", "w"]),
        ]
    ]

    private static let snapshotHead: [(String, JSONValue)] = [
        ("seq", WireSchema.anyInteger), ("contentSize", WireSchema.ref("Size")),
    ]

    /// One op of a batch: a changing method and its own params.
    private static var batchOp: JSONValue {
        [
            "oneOf": .array(
                ChangeMethod.allCases.map { change in
                    WireSchema.object(
                        [
                            ("method", ["const": .string(change.rawValue)]),
                            (
                                "params",
                                WireSchema.object(
                                    change.params.map { ($0.name, $0.schema) },
                                    required: change.params.filter(\.required).map(\.name))
                            ),
                        ], required: ["method"])
                })
        ]
    }

    /// The layout-wide settings, as params.
    static func settings(widthRequired: Bool) -> [ParamDeclaration] {
        WireSchema.layoutSettings(widthRequired: widthRequired).map { name, schema in
            // `width` or `widths` is required of layout.create: the decoder says which is missing.
            ParamDeclaration(name, schema, "the layout's \(name)")
        }
    }
}
