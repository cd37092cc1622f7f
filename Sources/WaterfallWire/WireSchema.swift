@_spi(Package) import WaterfallJSON
import WaterfallModel

/// JSON Schema pieces for the OpenRPC document, and the shared shapes of the protocol (`components.schemas`),
/// built from the declarations the decoder checks against: `WireRange`, `SectionPropertyTable`, `Validation`'s
/// bounds and the engine's enums.
package enum WireSchema {
    // MARK: Builders

    /// An integer within `range`.
    package static func integer(_ range: ClosedRange<Int>) -> JSONValue {
        ["type": "integer", "minimum": .int(Int64(range.lowerBound)), "maximum": .int(Int64(range.upperBound))]
    }

    /// An integer of the int64 range with no other bound (`seq`, counts the daemon writes).
    package static let anyInteger: JSONValue = ["type": "integer"]
    package static let number: JSONValue = ["type": "number"]
    package static let string: JSONValue = ["type": "string"]
    package static let boolean: JSONValue = ["type": "boolean"]
    /// A length: a number from 0 to 10⁹ points (`Validation.length`).
    package static let length: JSONValue = ["type": "number", "minimum": 0, "maximum": .double(Validation.maxLength)]
    /// A length > 0 (`Validation.width`).
    package static let positiveLength: JSONValue = [
        "type": "number", "exclusiveMinimum": 0, "maximum": .double(Validation.maxLength),
    ]
    /// `columnWidths`: 1 to 1024 weights, each a number from 10⁻⁶ to 10⁶ (`Validation.weights`).
    package static let weights: JSONValue = [
        "type": "array", "minItems": 1, "maxItems": .int(Int64(WireRange.columns.upperBound)),
        "items": [
            "type": "number", "minimum": .double(Validation.minColumnWeight),
            "maximum": .double(Validation.maxColumnWeight),
        ],
    ]
    /// A section or item index or position.
    package static let index = integer(WireRange.index)

    /// One of `names`.
    package static func oneOf(_ names: [String]) -> JSONValue {
        ["type": "string", "enum": .array(names.map(JSONValue.string))]
    }

    /// An array of `items`.
    package static func array(_ items: JSONValue, unique: Bool = false) -> JSONValue {
        unique ? ["type": "array", "items": items, "uniqueItems": true] : ["type": "array", "items": items]
    }

    /// `schema`, or null (which the decoder reads as absent, or as a reset of a section property).
    package static func nullable(_ schema: JSONValue) -> JSONValue {
        ["oneOf": [schema, ["type": "null"]]]
    }

    /// A reference to `components.schemas.name`.
    package static func ref(_ name: String) -> JSONValue {
        ["$ref": .string("#/components/schemas/" + name)]
    }

    /// An object with exactly `properties` (`additionalProperties: false` unless `open`), `required` among them.
    package static func object(
        _ properties: [(String, JSONValue)], required: [String] = [], open: Bool = false, description: String? = nil
    ) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("type", "object")]
        if let description { members.append(("description", .string(description))) }
        members.append(("properties", .object(properties.map { (key: $0.0, value: $0.1) })))
        if !required.isEmpty { members.append(("required", .array(required.map(JSONValue.string)))) }
        if !open { members.append(("additionalProperties", false)) }
        return .object(members)
    }

    // MARK: Shapes

    /// A layout name: 1–128 bytes of `[A-Za-z0-9._:-]` (`DecodedRequest.layoutName`).
    package static let layoutName: JSONValue = [
        "type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[A-Za-z0-9._:-]+$",
    ]

    /// The schema of a section property of `kind`, as `ModelDecoding` reads it and `Validation` bounds it.
    package static func property(_ kind: PropertyKind) -> JSONValue {
        switch kind {
        case .columns: integer(WireRange.columns)
        case .count: integer(WireRange.count)
        case .length: length
        case .positiveLength: positiveLength
        case .insets: ref("Insets")
        case .placement: oneOf(Placement.allCases.map(\.rawValue))
        case .tieBreak: oneOf(TieBreak.allCases.map(\.rawValue))
        case .flag: boolean
        case .reflow: oneOf(Reflow.allCases.map(\.rawValue))
        case .spanPlacement: oneOf(SpanPlacement.allCases.map(\.rawValue))
        case .stamps:
            [
                "type": "array", "maxItems": .integer(Stamp.maxCount),
                "items": object(
                    [
                        ("column", integer(WireRange.column)), ("span", integer(WireRange.columns)), ("y", length),
                        ("h", positiveLength),
                    ], required: ["column", "y", "h"]),
            ]
        case .weights: weights
        case .lookahead:
            object(
                [("items", integer(WireRange.lookaheadItems)), ("limit", integer(WireRange.lookaheadLimit))],
                required: ["items", "limit"])
        }
    }

    /// Every section property of `SectionPropertyTable`, each nullable (null leaves it unset, or resets it).
    package static var sectionProperties: [(String, JSONValue)] {
        SectionPropertyTable.all.map { ($0.name, nullable(property($0.kind))) }
    }

    /// An item's members, `i` first for `items.update`.
    static func itemMembers(withIndex: Bool) -> [(String, JSONValue)] {
        let span: JSONValue = ["oneOf": [integer(WireRange.count), ["const": "full"]]]
        let aspect: JSONValue = [
            "type": "number", "minimum": .double(Validation.minAspectWidth), "maximum": .double(Validation.maxLength),
        ]
        let id: JSONValue = ["type": "string", "maxLength": .int(Int64(Validation.maxIDBytes))]
        return (withIndex ? [("i", index)] : []) + [
            ("h", length), ("w", nullable(aspect)), ("span", nullable(span)), ("id", nullable(id)),
            ("column", nullable(integer(WireRange.column))),
        ]
    }

    /// The layout-wide settings of `layout.create` and `layout.configure` (`CommandDecoding.layoutPatch`).
    static func layoutSettings(widthRequired: Bool) -> [(String, JSONValue)] {
        let width = widthRequired ? positiveLength : nullable(positiveLength)
        let scale: JSONValue = ["type": "number", "minimum": 0, "maximum": .double(Validation.maxScale)]
        let widths: JSONValue = [
            "type": "array", "items": positiveLength, "uniqueItems": true, "minItems": 1,
            "maxItems": .int(Int64(Validation.maxWidths)),
        ]
        return [
            ("width", width), ("widths", nullable(widths)), ("scale", nullable(scale)),
            ("direction", nullable(oneOf(["ltr", "rtl"]))), ("axis", nullable(oneOf(["vertical", "horizontal"]))),
            ("minContentHeight", nullable(length)), ("defaults", nullable(ref("SectionProperties"))),
        ]
    }

    /// `components.schemas`: the shapes several methods share.
    package static var components: [(key: String, value: JSONValue)] {
        let frame: [(String, JSONValue)] = [("x", number), ("y", number), ("w", number), ("h", number)]
        let itemFrame = object([("i", index)] + frame + [("id", string)], required: ["i", "x", "y", "w", "h"])
        // A horizontal layout names what runs along its feed for x (Geometry, "Horizontal feeds"): a section's
        // `width` for `height`, `dx` for `dy`, a pinned header's `pinMaxX` (`pinMinX` under rtl) for `pinMaxY`.
        let headerFrame = object(
            frame + [("pinMaxY", number), ("pinMaxX", number), ("pinMinX", number)], required: ["x", "y", "w", "h"])
        let sectionHead: [(String, JSONValue)] = [
            ("section", index), ("origin", number), ("height", number), ("width", number), ("count", anyInteger),
        ]
        func moved(_ members: [(String, JSONValue)], _ required: [String]) -> JSONValue {
            [
                "oneOf": [
                    object(members + [("dy", number)], required: required + ["dy"]),
                    object(members + [("dx", number)], required: required + ["dx"]),
                ]
            ]
        }
        let resultHead: [(String, JSONValue)] = [("seq", anyInteger), ("contentSize", ref("Size"))]
        return [
            ("LayoutName", layoutName),
            ("Insets", object([("top", length), ("left", length), ("bottom", length), ("right", length)])),
            ("SectionProperties", object(sectionProperties)),
            ("Item", object(itemMembers(withIndex: false), required: ["h"])),
            ("ItemUpdate", object(itemMembers(withIndex: true), required: ["i", "h"])),
            ("Section", object(sectionProperties + [("items", array(ref("Item")))])),
            ("ItemPath", ["type": "array", "items": index, "minItems": 2, "maxItems": 2]),
            ("Anchor", object([("section", index), ("i", index)], required: ["section", "i"])),
            (
                "AnchorOutcome",
                nullable(moved([("section", index), ("i", index)], ["section", "i"]))
            ),
            ("Size", object([("w", number), ("h", number)], required: ["w", "h"])),
            ("Frame", object(frame, required: ["x", "y", "w", "h"])),
            ("HeaderFrame", headerFrame),
            ("ItemFrame", itemFrame),
            (
                "SectionFrames",
                object(
                    sectionHead + [
                        ("header", ref("HeaderFrame")), ("footer", ref("Frame")), ("items", array(ref("ItemFrame"))),
                    ], required: ["section", "origin", "count", "items"])
            ),
            (
                "DiffSection",
                object(
                    sectionHead + [
                        ("dy", number), ("dx", number), ("new", ["const": true]),
                        ("header", nullable(ref("HeaderFrame"))), ("footer", nullable(ref("Frame"))),
                        ("items", array(ref("ItemFrame"))),
                    ], required: ["section", "origin", "count"])
            ),
            ("Shift", moved([("from", index), ("to", index)], ["from", "to"])),
            (
                "Diff",
                object(
                    [("sections", array(ref("DiffSection"))), ("shifts", array(ref("Shift")))], required: ["sections"])
            ),
            (
                "MutationResult",
                object(
                    resultHead + [("diff", ref("Diff")), ("anchor", ref("AnchorOutcome"))],
                    required: ["seq", "contentSize"],
                    description: "A change's result: the layout's new seq and content size, its diff unless the "
                        + "request said \"diff\": false, and where its anchor went when it named one.")
            ),
            (
                "Element",
                object(
                    [("kind", oneOf(["header", "item", "stamp", "footer"])), ("section", index), ("i", index)] + frame
                        + [
                            ("id", string), ("pinned", boolean),
                        ], required: ["kind", "section", "x", "y", "w", "h"])
            ),
            ("LayoutSpec", object(layoutSettings(widthRequired: true) + [("sections", array(ref("Section")))])),
            ("SnapshotHead", object(resultHead, required: ["seq", "contentSize"], open: true)),
            ("ErrorObject", errorObject),
        ] + MethodTable.eventSchemas
    }

    /// A reply's `error`: code, message and `data.kind`, from `ErrorCode.all`.
    static var errorObject: JSONValue {
        object(
            [
                ("code", ["type": "integer", "enum": .array(ErrorCode.all.map { .int(Int64($0.code.code)) })]),
                ("message", string),
                ("data", object([("kind", oneOf(ErrorCode.all.map(\.code.kind.description)))], required: ["kind"])),
            ], required: ["code", "message", "data"])
    }
}
