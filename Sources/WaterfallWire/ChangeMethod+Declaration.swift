@_spi(Package) import WaterfallJSON
import WaterfallModel

extension ChangeMethod {
    /// What the change does, for the OpenRPC document.
    package var summary: String {
        switch self {
        case .layoutConfigure: "Sets layout-wide settings (those named; defaults replaces the defaults as a whole)."
        case .sectionsInsert: "Inserts sections at a position."
        case .sectionsDelete: "Deletes sections, by their indices before the delete."
        case .sectionsMove: "Moves a section."
        case .sectionsConfigure: "Sets a section's properties (those named; null resets one to the layout default)."
        case .itemsInsert: "Inserts items into a section at a position."
        case .itemsDelete: "Deletes items of a section, by their indices before the delete."
        case .itemsUpdate: "Replaces items of a section, each whole."
        case .itemsMove: "Moves an item, within its section or to another."
        }
    }

    /// The change's own params: those `CommandDecoding` reads after `layout`, `diff` and `anchor` (a batch op's
    /// params are exactly these).
    package var params: [ParamDeclaration] {
        let index = WireSchema.index
        switch self {
        case .layoutConfigure:
            return MethodTable.settings(widthRequired: false)
        case .sectionsInsert:
            return [
                ParamDeclaration("at", index, required: true, "the position of the first new section"),
                ParamDeclaration(
                    "sections", WireSchema.array(WireSchema.ref("Section")), required: true, "the new sections"),
            ]
        case .sectionsDelete:
            return [ParamDeclaration("sections", WireSchema.array(index), required: true, "the sections to delete")]
        case .sectionsMove:
            return [
                ParamDeclaration("from", index, required: true, "the section's index"),
                ParamDeclaration("to", index, required: true, "its index after the move"),
            ]
        case .sectionsConfigure:
            return [ParamDeclaration("section", index, required: true, "the section")]
                + WireSchema.sectionProperties.map { name, schema in
                    ParamDeclaration(name, schema, "the section's \(name) (null: the layout default)")
                }
        case .itemsInsert:
            return [
                ParamDeclaration("section", index, required: true, "the section"),
                ParamDeclaration("at", index, required: true, "the position of the first new item"),
                ParamDeclaration("items", WireSchema.array(WireSchema.ref("Item")), required: true, "the new items"),
            ]
        case .itemsDelete:
            return [
                ParamDeclaration("section", index, required: true, "the section"),
                ParamDeclaration("items", WireSchema.array(index), required: true, "the items to delete"),
            ]
        case .itemsUpdate:
            return [
                ParamDeclaration("section", index, required: true, "the section"),
                ParamDeclaration(
                    "items", WireSchema.array(WireSchema.ref("ItemUpdate")), required: true,
                    "the items, each its index i and its new fields"),
            ]
        case .itemsMove:
            return [
                ParamDeclaration("from", WireSchema.ref("ItemPath"), required: true, "[section, item]"),
                ParamDeclaration("to", WireSchema.ref("ItemPath"), required: true, "[section, item] after the move"),
            ]
        }
    }

    /// An example's params, after `layout` and `diff`.
    var example: [(key: String, value: JSONValue)] {
        switch self {
        case .layoutConfigure: [("width", 375)]
        case .sectionsInsert: [("at", 0), ("sections", [["columns": 3, "items": [["h": 120]]]])]
        case .sectionsDelete: [("sections", [0])]
        case .sectionsMove: [("from", 0), ("to", 0)]
        case .sectionsConfigure: [("section", 0), ("columns", 2), ("pinHeader", true)]
        case .itemsInsert: [("section", 0), ("at", 0), ("items", [["h": 120], ["h": 80, "span": "full"]])]
        case .itemsDelete: [("section", 0), ("items", [0])]
        case .itemsUpdate: [("section", 0), ("items", [["i": 0, "h": 130, "id": "photo-7"]])]
        case .itemsMove: [("from", [0, 0]), ("to", [0, 1])]
        }
    }
}
