import WaterfallJSON
import WaterfallLayout

/// An engine command as a client writes it on the wire: its method and params (without `layout`), as PROTOCOL.md
/// spells them, so that tests can send generated commands through the socket.
public struct WireCommand: Sendable, CustomStringConvertible {
    public var method: String
    public var params: JSONValue

    // MARK: Lifecycle

    public init(_ command: LayoutCommand) {
        switch command {
        case .insertItems(let section, let at, let items):
            method = "items.insert"
            params = ["section": .integer(section), "at": .integer(at), "items": .array(items.map(Self.item))]
        case .deleteItems(let section, let indices):
            method = "items.delete"
            params = ["section": .integer(section), "items": .array(indices.map { .integer($0) })]
        case .updateItems(let section, let updates):
            method = "items.update"
            let items: [JSONValue] = updates.map { update in
                guard case .object(let members) = Self.item(update.item) else { return .null }
                return .object([(key: "i", value: .integer(update.index))] + members)
            }
            params = ["section": .integer(section), "items": .array(items)]
        case .moveItem(let from, let to):
            method = "items.move"
            params = [
                "from": [.integer(from.section), .integer(from.item)], "to": [.integer(to.section), .integer(to.item)],
            ]
        case .insertSections(let at, let sections):
            method = "sections.insert"
            params = ["at": .integer(at), "sections": .array(sections.map(Self.section))]
        case .deleteSections(let indices):
            method = "sections.delete"
            params = ["sections": .array(indices.map { .integer($0) })]
        case .moveSection(let from, let to):
            method = "sections.move"
            params = ["from": .integer(from), "to": .integer(to)]
        case .configureSection(let section, let patch):
            method = "sections.configure"
            params = .object([(key: "section", value: .integer(section))] + Self.members(of: patch))
        case .configureLayout(let patch):
            method = "layout.configure"
            var members: [(key: String, value: JSONValue)] = []
            if let width = patch.width { members.append(("width", .double(width))) }
            if let scale = patch.scale { members.append(("scale", .double(scale))) }
            if let direction = patch.direction { members.append(("direction", .string(direction.rawValue))) }
            if let height = patch.minContentHeight { members.append(("minContentHeight", .double(height))) }
            if let defaults = patch.defaults { members.append(("defaults", .object(Self.members(of: defaults)))) }
            params = .object(members)
        }
    }

    // MARK: Public

    public var description: String { "\(method) \(params)" }

    /// `params` with `"layout": name` first.
    public func params(layout name: String) -> JSONValue {
        guard case .object(let members) = params else { return params }
        return .object([(key: "layout", value: .string(name))] + members)
    }

    /// A whole request line (without its newline).
    public func request(id: Int, layout name: String) -> String {
        let line: JSONValue = [
            "jsonrpc": "2.0", "id": .integer(id), "method": .string(method), "params": params(layout: name),
        ]
        return line.jsonText
    }

    /// The params of `layout.create` for `spec`.
    public static func create(_ name: String, _ spec: LayoutSpec) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("layout", .string(name)), ("width", .double(spec.width))]
        if spec.scale != 0 { members.append(("scale", .double(spec.scale))) }
        if spec.direction != .ltr { members.append(("direction", .string(spec.direction.rawValue))) }
        if spec.minContentHeight != 0 { members.append(("minContentHeight", .double(spec.minContentHeight))) }
        if spec.defaults != SectionProperties() {
            members.append(("defaults", .object(Self.members(of: spec.defaults))))
        }
        members.append(("sections", .array(spec.sections.map(Self.section))))
        return .object(members)
    }

    public static func item(_ item: Item) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("h", .double(item.height))]
        if let w = item.aspectWidth { members.append(("w", .double(w))) }
        switch item.span {
        case .full: members.append(("span", "full"))
        case .columns(1): break
        case .columns(let n): members.append(("span", .integer(n)))
        }
        if let id = item.id { members.append(("id", .string(id))) }
        return .object(members)
    }

    public static func section(_ spec: SectionSpec) -> JSONValue {
        .object(members(of: spec.properties) + [("items", .array(spec.items.map(item)))])
    }

    // MARK: Private

    private static func insets(_ insets: Insets) -> JSONValue {
        [
            "top": .double(insets.top), "left": .double(insets.left), "bottom": .double(insets.bottom),
            "right": .double(insets.right),
        ]
    }

    private static func members(of p: SectionProperties) -> [(key: String, value: JSONValue)] {
        var patch = SectionPatch()
        patch.columns = p.columns.map { .set($0) }
        patch.minColumnWidth = p.minColumnWidth.map { .set($0) }
        patch.maxColumns = p.maxColumns.map { .set($0) }
        patch.columnSpacing = p.columnSpacing.map { .set($0) }
        patch.rowSpacing = p.rowSpacing.map { .set($0) }
        patch.insets = p.insets.map { .set($0) }
        patch.headerHeight = p.headerHeight.map { .set($0) }
        patch.footerHeight = p.footerHeight.map { .set($0) }
        patch.headerInsets = p.headerInsets.map { .set($0) }
        patch.footerInsets = p.footerInsets.map { .set($0) }
        patch.placement = p.placement.map { .set($0) }
        patch.tolerance = p.tolerance.map { .set($0) }
        return members(of: patch)
    }

    private static func members(of patch: SectionPatch) -> [(key: String, value: JSONValue)] {
        var members: [(key: String, value: JSONValue)] = []
        func add<T>(_ key: String, _ change: PropertyChange<T>?, _ encode: (T) -> JSONValue) {
            switch change {
            case nil: break
            case .reset?: members.append((key, .null))
            case .set(let value)?: members.append((key, encode(value)))
            }
        }
        add("columns", patch.columns) { .integer($0) }
        add("minColumnWidth", patch.minColumnWidth) { .double($0) }
        add("maxColumns", patch.maxColumns) { .integer($0) }
        add("columnSpacing", patch.columnSpacing) { .double($0) }
        add("rowSpacing", patch.rowSpacing) { .double($0) }
        add("insets", patch.insets, insets)
        add("headerHeight", patch.headerHeight) { .double($0) }
        add("footerHeight", patch.footerHeight) { .double($0) }
        add("headerInsets", patch.headerInsets, insets)
        add("footerInsets", patch.footerInsets, insets)
        add("placement", patch.placement) { .string($0.rawValue) }
        add("tolerance", patch.tolerance) { .double($0) }
        return members
    }
}

extension JSONValue {
    /// An integer value from an `Int`.
    public static func integer(_ value: Int) -> JSONValue { .int(Int64(value)) }
}
