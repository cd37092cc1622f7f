@_spi(Package) import WaterfallJSON
import WaterfallModel

/// One param of a method as the OpenRPC document declares it: its name, schema, whether the decoder requires it,
/// and what it means.
package struct ParamDeclaration: Sendable {
    package var name: String
    package var schema: JSONValue
    package var required: Bool
    package var summary: String

    package init(_ name: String, _ schema: JSONValue, required: Bool = false, _ summary: String) {
        self.name = name
        self.schema = schema
        self.required = required
        self.summary = summary
    }
}

/// One method as the OpenRPC document declares it: params, result schema and an example.
package struct MethodDeclaration: Sendable {
    package var method: Method
    package var summary: String
    package var params: [ParamDeclaration]
    package var result: JSONValue
    /// An example request's params and its result (params name → value).
    package var example: (params: [(key: String, value: JSONValue)], result: JSONValue)
}

/// The declaration of every method, one switch over `Method` so that a new method cannot go undeclared; the
/// OpenRPC document (`OpenRPCDocument`) is written from it and the tests check it against the decoder.
package enum MethodTable {
    /// Every method's declaration, in `Method.allCases` order.
    package static let all: [MethodDeclaration] = Method.allCases.map(declaration)

    /// The declaration of `method`.
    package static func declaration(_ method: Method) -> MethodDeclaration {
        let layout = ParamDeclaration.layout
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
            let options = change == .layoutConfigure ? changeOptions : changeOptions + [.frameWidth]
            return make(
                change.summary, [layout] + options + change.params, mutation,
                [("layout", "feed"), ("diff", false)] + change.example, mutationExample)
        case .batch:
            return make(
                "Applies several changes to one layout atomically: one seq, one result, one event.",
                [layout] + changeOptions + [.frameWidth] + [
                    ParamDeclaration(
                        "ops", WireSchema.array(batchOp), required: true,
                        "the changes, in order, each a changing method and its params without layout, diff, anchor")
                ], mutation,
                [
                    ("layout", "feed"), ("diff", false),
                    ("ops", [["method": "items.insert", "params": ["section": 0, "at": 0, "items": [["h": 120]]]]]),
                ], mutationExample)
        default:
            guard let declared = method.requestType else { preconditionFailure("\(method) is declared above") }
            return declared.declaration
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
            "viewport", WireSchema.nullable(ParamDeclaration.viewportSchema),
            "scopes the diff to what a viewport {y, h} ({x, w} for a horizontal layout) before the change shows, "
                + "before and after"),
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
