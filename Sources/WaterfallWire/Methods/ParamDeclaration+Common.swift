@_spi(Package) import WaterfallJSON

/// The params several methods share, declared once.
extension ParamDeclaration {
    /// `layout`: the layout's name.
    static let layout = ParamDeclaration("layout", WireSchema.ref("LayoutName"), required: true, "the layout's name")

    /// `width` on a method that returns frames: which of the layout's widths (`CommandDecoding.frameWidth`).
    static let frameWidth = ParamDeclaration(
        "width", WireSchema.nullable(WireSchema.positiveLength),
        "the width whose frames the result gives, one of the layout's widths (the first when absent)")

    /// A viewport: a finite `y` and a finite `h` > 0, or for a horizontal layout `x` and `w`
    /// (`CommandDecoding.viewport`).
    static let viewportSchema: JSONValue = [
        "oneOf": [
            WireSchema.object(
                [("y", ["type": "number"]), ("h", ["type": "number", "exclusiveMinimum": 0])], required: ["y", "h"]),
            WireSchema.object(
                [("x", ["type": "number"]), ("w", ["type": "number", "exclusiveMinimum": 0])], required: ["x", "w"]),
        ]
    ]

    /// `seq` and `contentSize`, which every result that lists frames starts with.
    static let snapshotHead: [(String, JSONValue)] = [
        ("seq", WireSchema.anyInteger), ("contentSize", WireSchema.ref("Size")),
    ]
}

extension JSONValue {
    /// `self`, an object, with `width` added when there is one.
    func adding(width: Double?) -> JSONValue {
        guard let width, case .object(let members) = self else { return self }
        return .object(members + [("width", .double(width))])
    }
}
