@_spi(Package) import WaterfallJSON
import WaterfallModel

/// Writes engine commands and layout specs as a client sends them: the mirror of `CommandDecoding`, so that a
/// client, the tests and the benchmark spell a request one way.
///
/// Params never include `layout` (the caller adds it first, where the Methods article's examples put it).
package enum CommandEncoding {
    /// The method and params of `command`.
    package static func request(_ command: LayoutCommand) -> (method: ChangeMethod, params: JSONValue) {
        switch command {
        case .insertItems(let section, let at, let items):
            return (.itemsInsert, ["section": .integer(section), "at": .integer(at), "items": .array(items.map(item))])
        case .deleteItems(let section, let indices):
            return (.itemsDelete, ["section": .integer(section), "items": .array(indices.map { .integer($0) })])
        case .updateItems(let section, let updates):
            let items: [JSONValue] = updates.map { update in
                .object([(key: "i", value: .integer(update.index))] + itemMembers(update.item))
            }
            return (.itemsUpdate, ["section": .integer(section), "items": .array(items)])
        case .moveItem(let from, let to):
            return (.itemsMove, ["from": path(from), "to": path(to)])
        case .insertSections(let at, let sections):
            return (.sectionsInsert, ["at": .integer(at), "sections": .array(sections.map(section))])
        case .deleteSections(let indices):
            return (.sectionsDelete, ["sections": .array(indices.map { .integer($0) })])
        case .moveSection(let from, let to):
            return (.sectionsMove, ["from": .integer(from), "to": .integer(to)])
        case .configureSection(let section, let patch):
            return (.sectionsConfigure, .object([(key: "section", value: .integer(section))] + members(of: patch)))
        case .configureLayout(let patch):
            return (.layoutConfigure, .object(members(of: patch)))
        }
    }

    /// The members of `layout.create`'s params for `spec` (without `layout` and `replace`); settings equal to
    /// their defaults are left out.
    package static func members(of spec: LayoutSpec) -> [(key: String, value: JSONValue)] {
        // One width as `width`, as before there were several; several as `widths`.
        var result: [(key: String, value: JSONValue)] =
            spec.widths.count == 1
            ? [("width", .double(spec.width))] : [("widths", .array(spec.widths.map { .double($0) }))]
        if spec.scale != 0 { result.append(("scale", .double(spec.scale))) }
        if spec.direction != .ltr { result.append(("direction", .string(spec.direction.rawValue))) }
        if spec.axis != .vertical { result.append(("axis", .string(spec.axis.rawValue))) }
        if spec.minContentHeight != 0 { result.append(("minContentHeight", .double(spec.minContentHeight))) }
        if spec.defaults != SectionProperties() {
            result.append(("defaults", .object(Self.members(of: spec.defaults))))
        }
        result.append(("sections", .array(spec.sections.map(section))))
        return result
    }

    /// The settings `patch` names, as `layout.configure` spells them.
    package static func members(of patch: LayoutPatch) -> [(key: String, value: JSONValue)] {
        var result: [(key: String, value: JSONValue)] = []
        if let width = patch.width { result.append(("width", .double(width))) }
        if let widths = patch.widths { result.append(("widths", .array(widths.map { .double($0) }))) }
        if let scale = patch.scale { result.append(("scale", .double(scale))) }
        if let direction = patch.direction { result.append(("direction", .string(direction.rawValue))) }
        if let axis = patch.axis { result.append(("axis", .string(axis.rawValue))) }
        if let height = patch.minContentHeight { result.append(("minContentHeight", .double(height))) }
        if let defaults = patch.defaults { result.append(("defaults", .object(Self.members(of: defaults)))) }
        return result
    }

    /// An item: `{"h", "w"?, "span"?, "id"?, "column"?}`.
    package static func item(_ item: Item) -> JSONValue { .object(itemMembers(item)) }

    /// A section: its own properties and `items`.
    package static func section(_ spec: SectionSpec) -> JSONValue {
        .object(members(of: spec.properties) + [("items", .array(spec.items.map(item)))])
    }

    /// The properties that are set, as section objects spell them.
    package static func members(of p: SectionProperties) -> [(key: String, value: JSONValue)] {
        SectionPropertyTable.all.compactMap { property in
            property.value(in: p).map { (property.name, value($0)) }
        }
    }

    /// What a `sections.configure` patch names: set values, and `null` for a reset.
    package static func members(of patch: SectionPatch) -> [(key: String, value: JSONValue)] {
        SectionPropertyTable.all.compactMap { property in
            switch property.change(in: patch) {
            case nil: return nil
            case .reset?: return (property.name, .null)
            case .set(let v)?: return (property.name, value(v))
            }
        }
    }

    /// One property value: the wire's one encoder per kind of value.
    private static func value(_ value: PropertyValue) -> JSONValue {
        switch value {
        case .integer(let v): return .integer(v)
        case .number(let v): return .double(v)
        case .insets(let v): return insets(v)
        case .placement(let v): return .string(v.rawValue)
        case .tieBreak(let v): return .string(v.rawValue)
        case .flag(let v): return .bool(v)
        case .reflow(let v): return .string(v.rawValue)
        case .spanPlacement(let v): return .string(v.rawValue)
        case .stamps(let v): return .array(v.map(stamp))
        case .weights(let v): return .array(v.map { .double($0) })
        case .lookahead(let v): return ["items": .integer(v.items), "limit": .integer(v.limit)]
        }
    }

    /// A stamp, `{"column", "span", "y", "h"}`.
    package static func stamp(_ stamp: Stamp) -> JSONValue {
        [
            "column": .integer(stamp.column), "span": .integer(stamp.span), "y": .double(stamp.y),
            "h": .double(stamp.height),
        ]
    }

    /// An item's position, `[section, item]`.
    package static func path(_ path: ItemPath) -> JSONValue { [.integer(path.section), .integer(path.item)] }

    /// A rect, `{"x", "y", "w", "h"}`.
    package static func rect(_ rect: Rect) -> JSONValue {
        ["x": .double(rect.x), "y": .double(rect.y), "w": .double(rect.width), "h": .double(rect.height)]
    }

    /// A viewport, `{"y", "h"}`, or a horizontal layout's `{"x", "w"}`.
    package static func viewport(_ viewport: Viewport) -> JSONValue {
        viewport.axis == .horizontal
            ? ["x": .double(viewport.y), "w": .double(viewport.height)]
            : ["y": .double(viewport.y), "h": .double(viewport.height)]
    }

    // MARK: Private

    private static func itemMembers(_ item: Item) -> [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = [("h", .double(item.height))]
        if let w = item.aspectWidth { members.append(("w", .double(w))) }
        switch item.span {
        case .full: members.append(("span", "full"))
        case .columns(1): break
        case .columns(let n): members.append(("span", .integer(n)))
        }
        if let id = item.id { members.append(("id", .string(id))) }
        if let column = item.column { members.append(("column", .integer(column))) }
        return members
    }

    private static func insets(_ insets: Insets) -> JSONValue {
        [
            "top": .double(insets.top), "left": .double(insets.left), "bottom": .double(insets.bottom),
            "right": .double(insets.right),
        ]
    }
}

extension JSONValue {
    /// An integer value from an `Int`.
    package static func integer(_ value: Int) -> JSONValue { .int(Int64(value)) }
}
