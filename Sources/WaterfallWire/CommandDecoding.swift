@_spi(Package) import WaterfallJSON
import WaterfallModel

/// Turns the params of a mutating method into engine commands.
package enum CommandDecoding {
    /// The command of `method` from `p` (without its `layout` and `diff`, which the caller reads).
    ///
    /// `items.update`, the most frequent, decodes its small payload out of line and builds its command here, inlined
    /// into the caller: returned from the out-of-line switch over all methods, the command would be built in a
    /// temporary and copied twice more on the way out.
    @inlinable
    package static func command(_ method: ChangeMethod, _ p: inout Params) throws(ProtocolError) -> LayoutCommand {
        guard method == .itemsUpdate else { return try decodeCommand(method, &p) }
        let (section, updates) = try decodeItemUpdates(&p)
        return .updateItems(section: section, updates: updates)
    }

    /// A list of section indices at `path`, none listed twice (`layout.get`: a repeat would only make its reply
    /// larger, without bound).
    package static func distinctIndices(
        _ nodes: JSONNode.Elements, _ path: @autoclosure () -> String
    ) throws(ProtocolError) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(nodes.underestimatedCount)
        for (k, node) in nodes.enumerated() {
            result.append(try node.withView { view throws(ProtocolError) in try Params.index(view, "\(path())[\(k)]") })
        }
        var seen = Set<Int>(minimumCapacity: result.count)
        for (k, index) in result.enumerated() where !seen.insert(index).inserted {
            throw .badParams("\(path())[\(k)]", "\(index) is listed twice")
        }
        return result
    }

    /// The scroll anchor of a change, `"anchor": {"section": s, "i": k}`, both indices; nil when absent or null.
    ///
    /// Whether the item exists is the engine's business (`not_found`, against the layout as it is).
    package static func anchor(_ p: inout Params) throws(ProtocolError) -> ItemPath? {
        guard let node = p.view("anchor"), !node.isNull else { return nil }
        var a = try p.nested(node, path: p.field("anchor"))
        let section = try a.index("section")
        let item = try a.index("i")
        try a.finish()
        return ItemPath(section: section, item: item)
    }

    /// The viewport of a change or a subscription, `"viewport": {"y": Y, "h": H}`, or for a horizontal layout
    /// `{"x": X, "w": W}` (whether the form fits the layout is the engine's business); nil when absent or null.
    ///
    /// `y` (`x`) must be finite and `h` (`w`) finite and > 0: `bad_params` naming the field and the value otherwise.
    package static func viewport(_ p: inout Params) throws(ProtocolError) -> Viewport? {
        guard let node = p.view("viewport"), !node.isNull else { return nil }
        var v = try p.nested(node, path: p.field("viewport"))
        // The start names the form: `x` makes it a horizontal band (then `y` and `h` are unknown fields there).
        let axis: Axis = v.contains("x") ? .horizontal : .vertical
        let (startKey, extentKey): (StaticString, StaticString) = axis == .horizontal ? ("x", "w") : ("y", "h")
        let y = try viewportStart(&v, startKey)
        let height = try viewportExtent(&v, extentKey)
        try v.finish()
        return Viewport(y: y, height: height, axis: axis)
    }

    /// A viewport's `y` (or `x`): finite.
    static func viewportStart(_ v: inout Params, _ key: StaticString = "y") throws(ProtocolError) -> Double {
        let y = try v.double(key)
        guard y.isFinite else { throw .badParams(v.field(key), "\(LayoutError.text(y)) is not finite") }
        return y
    }

    /// A viewport's `h` (or `w`): finite and > 0.
    static func viewportExtent(_ v: inout Params, _ key: StaticString = "h") throws(ProtocolError) -> Double {
        let h = try v.double(key)
        guard h.isFinite, h > 0 else { throw .badParams(v.field(key), "\(LayoutError.text(h)) must be finite and > 0") }
        return h
    }

    /// The width a method that returns frames returns them at, `"width": W`; nil (the first width) when absent or
    /// null. Whether the layout has it is checked against the layout (`bad_params` naming it).
    package static func frameWidth(_ p: inout Params) throws(ProtocolError) -> Double? {
        try p.optionalDouble("width")
    }

    /// The widths of `layout.create` or `layout.configure`, `"widths": [W1, …]` (1–16, distinct, each a valid
    /// width); nil when absent or null. Refused beside `width`, which means a list of one.
    static func widths(_ p: inout Params) throws(ProtocolError) -> [Double]? {
        guard let node = p.view("widths"), !node.isNull else { return nil }
        guard node.kind == .array else {
            throw .badParams(p.field("widths"), "must be an array of widths, not \(node.kind) \(Request.text(node))")
        }
        if p.contains("width") { throw .badParams(p.field("widths"), "cannot be given with width (a list of one)") }
        var widths: [Double] = []
        for (k, element) in node.elements.enumerated() {
            guard widths.count < Validation.maxWidths else {
                throw .badParams(p.field("widths"), "more than \(Validation.maxWidths) widths")
            }
            widths.append(try Params.double(element, "\(p.field("widths"))[\(k)]"))
        }
        do {
            try Validation.widths(widths, "widths")
        } catch {
            throw ProtocolError(error, prefix: p.path)
        }
        return widths
    }

    /// The settings of `layout.configure`.
    static func layoutPatch(_ p: inout Params) throws(ProtocolError) -> LayoutPatch {
        var patch = LayoutPatch()
        patch.widths = try widths(&p)
        patch.width = try p.optionalDouble("width")
        patch.scale = try p.optionalDouble("scale")
        if let node = p.view("direction"), !node.isNull {
            patch.direction = try ModelDecoding.direction(node, p.field("direction"))
        }
        if let node = p.view("axis"), !node.isNull { patch.axis = try ModelDecoding.axis(node, p.field("axis")) }
        patch.minContentHeight = try p.optionalDouble("minContentHeight")
        if let node = p.view("defaults") {
            if node.isNull {
                patch.defaults = SectionProperties()
            } else {
                var defaults = try p.nested(node, path: p.field("defaults"))
                patch.defaults = try ModelDecoding.properties(&defaults)
                try defaults.finish()
            }
        }
        return patch
    }

    /// The spec of `layout.create` (after its `layout` and `replace` are read).
    package static func layoutSpec(_ p: inout Params) throws(ProtocolError) -> LayoutSpec {
        let patch = try layoutPatch(&p)
        guard let widths = patch.resolvedWidths else { throw p.missing("width") }
        let sections =
            p.contains("sections")
            ? try ModelDecoding.sections(p.arrayView("sections").elements, p.field("sections"), of: p) : []
        var spec = LayoutSpec(
            width: widths[0], scale: patch.scale ?? 0, direction: patch.direction ?? .ltr,
            axis: patch.axis ?? .vertical,
            minContentHeight: patch.minContentHeight ?? 0, defaults: patch.defaults ?? SectionProperties(),
            sections: sections)
        spec.widths = widths
        return spec
    }

    /// The ops of a `batch`, each `{"method", "params"}` with a batchable method.
    package static func batch(_ nodes: JSONNode.Elements, _ path: String) throws(ProtocolError) -> [LayoutCommand] {
        var commands: [LayoutCommand] = []
        commands.reserveCapacity(nodes.underestimatedCount)
        for (k, node) in nodes.enumerated() {
            let opPath = "\(path)[\(k)]"
            var op = try Params(node, path: opPath)
            let name = try op.string("method")
            guard let method = ChangeMethod(rawValue: name) else {
                throw .badParams(op.field("method"), "\"\(name)\" cannot be used in a batch\(changeHint(name))")
            }
            var params = try op.nested(op.view("params"), path: op.field("params"))
            commands.append(try command(method, &params))
            try params.finish()
            try op.finish()
        }
        return commands
    }

    /// The commands of a `layout.changed` event's `ops`, each `{"method", "params"}` as the daemon applied it: a
    /// batch's op, or a single request's params verbatim, whose `layout`, `diff`, `anchor` and `viewport` are read
    /// (and checked) as the daemon read them and left out.
    ///
    /// What a client replays on the indices it holds: a method that is not a change, or a member no change has, is
    /// `bad_params` naming it, so that no op is ever skipped unread.
    package static func appliedOps(_ nodes: JSONNode.Elements, _ path: String) throws(ProtocolError) -> [LayoutCommand]
    {
        var commands: [LayoutCommand] = []
        commands.reserveCapacity(nodes.underestimatedCount)
        for (k, node) in nodes.enumerated() {
            var op = try Params(node, path: "\(path)[\(k)]")
            let name = try op.string("method")
            guard let method = ChangeMethod(rawValue: name) else {
                throw .badParams(
                    op.field("method"), "\"\(name)\" is not a method that changes a layout\(changeHint(name))")
            }
            var params = try op.nested(op.view("params"), path: op.field("params"))
            _ = try params.optionalString("layout")
            _ = try params.optionalBool("diff")
            _ = try anchor(&params)
            _ = try viewport(&params)
            commands.append(try command(method, &params))
            try params.finish()
            try op.finish()
        }
        return commands
    }

    /// The "did you mean" for `name`, an op's method that is not a change: the nearest change's name, or nothing.
    private static func changeHint(_ name: String) -> String {
        NearestName.hint(for: name, among: ChangeMethod.allCases.map(\.rawValue))
    }
}

// MARK: Dispatch

// Free functions rather than static methods: a static method's unused metatype argument let the optimizer split it
// into a specialized body and an entry thunk, and the thunk copied the command once more on its way out.

/// The body of `CommandDecoding.command(_:_:)` for every method but `items.update`.
@usableFromInline
func decodeCommand(_ method: ChangeMethod, _ p: inout Params) throws(ProtocolError) -> LayoutCommand {
    switch method {
    case .layoutConfigure:
        return .configureLayout(try CommandDecoding.layoutPatch(&p))
    case .sectionsInsert:
        let at = try p.index("at")
        let sections = try p.arrayView("sections").elements
        return .insertSections(at: at, sections: try ModelDecoding.sections(sections, p.field("sections"), of: p))
    case .sectionsDelete:
        return .deleteSections(try ModelDecoding.indices(p.arrayView("sections").elements, p.field("sections")))
    case .sectionsMove:
        return .moveSection(from: try p.index("from"), to: try p.index("to"))
    case .sectionsConfigure:
        let section = try p.index("section")
        let patch = try ModelDecoding.patch(&p)
        try ModelDecoding.checkExclusions(patch, in: p)
        return .configureSection(section, patch)
    case .itemsInsert:
        let section = try p.index("section")
        let at = try p.index("at")
        return .insertItems(
            section: section, at: at, items: try ModelDecoding.items(p.arrayView("items"), p.field("items")))
    case .itemsDelete:
        let section = try p.index("section")
        return .deleteItems(
            section: section, indices: try ModelDecoding.indices(p.arrayView("items").elements, p.field("items")))
    case .itemsUpdate:
        let (section, updates) = try decodeItemUpdates(&p)
        return .updateItems(section: section, updates: updates)
    case .itemsMove:
        let from = try ModelDecoding.path(p.view("from"), p.field("from"))
        let to = try ModelDecoding.path(p.view("to"), p.field("to"))
        return .moveItem(from: from, to: to)
    }
}

/// The payload of `items.update`.
@usableFromInline
func decodeItemUpdates(_ p: inout Params) throws(ProtocolError) -> (section: Int, updates: [ItemUpdate]) {
    let section = try p.index("section")
    let nodes = try p.arrayView("items").elements
    var updates: [ItemUpdate] = []
    updates.reserveCapacity(nodes.underestimatedCount)
    for (k, node) in nodes.enumerated() {
        updates.append(try ModelDecoding.itemUpdate(node, in: p.field("items"), at: k))
    }
    return (section, updates)
}
