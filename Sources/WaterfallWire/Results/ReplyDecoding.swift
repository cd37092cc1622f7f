@_spi(Package) import WaterfallJSON
import WaterfallModel

/// Reads result nodes into the methods' result types; a node not shaped as the Methods article says is a
/// `ReplyError` naming the path of the field at fault (a client reports it as `bad_reply`).
package enum ReplyDecoding {
    package typealias Failure = ReplyError
    /// The path of a field, for an error message: built only when a field is at fault (a path per section entry
    /// cost more than decoding the entry).
    package typealias Path = () -> String

    package static func fail(_ path: String, _ what: String) -> Failure { ReplyError("\(path): \(what)") }

    package static func member(_ node: JSONNode, _ key: StaticString, _ path: @autoclosure Path) throws(Failure)
        -> JSONNode
    {
        guard let value = node[key] else { throw fail(path(), "no member \(key)") }
        return value
    }

    package static func number(_ node: JSONNode, _ key: StaticString, _ path: @autoclosure Path) throws(Failure)
        -> Double
    {
        guard let value = try member(node, key, path()).double else { throw fail("\(path()).\(key)", "not a number") }
        return value
    }

    package static func int(_ node: JSONNode, _ key: StaticString, _ path: @autoclosure Path) throws(Failure) -> Int {
        guard let value = try member(node, key, path()).int else { throw fail("\(path()).\(key)", "not an integer") }
        return value
    }

    package static func string(_ node: JSONNode, _ key: StaticString, _ path: @autoclosure Path) throws(Failure)
        -> String
    {
        guard let value = try member(node, key, path()).string else { throw fail("\(path()).\(key)", "not a string") }
        return value
    }

    package static func array(_ node: JSONNode, _ key: StaticString, _ path: @autoclosure Path) throws(Failure)
        -> JSONNode.Elements
    {
        let value = try member(node, key, path())
        guard value.kind == .array else { throw fail("\(path()).\(key)", "not an array") }
        return value.elements
    }

    /// The array of numbers at `key` of `node` (a layout's `widths`).
    package static func numbers(_ node: JSONNode, _ key: StaticString, _ path: @autoclosure Path) throws(Failure)
        -> [Double]
    {
        var values: [Double] = []
        for (k, element) in try array(node, key, path()).enumerated() {
            guard let value = element.double else { throw fail("\(path()).\(key)[\(k)]", "not a number") }
            values.append(value)
        }
        return values
    }

    /// `{"x", "y", "w", "h"}`.
    package static func rect(_ node: JSONNode, _ path: @autoclosure Path) throws(Failure) -> Rect {
        Rect(
            x: try number(node, "x", path()), y: try number(node, "y", path()), width: try number(node, "w", path()),
            height: try number(node, "h", path()))
    }

    /// `{"w", "h"}`.
    package static func size(_ node: JSONNode, _ path: @autoclosure Path) throws(Failure) -> Size {
        Size(width: try number(node, "w", path()), height: try number(node, "h", path()))
    }

    /// An item frame of a section entry: `{"i", "x", "y", "w", "h", "id"?}`.
    package static func itemFrame(_ node: JSONNode, _ path: @autoclosure Path) throws(Failure) -> ItemFrame {
        ItemFrame(index: try int(node, "i", path()), frame: try rect(node, path()), id: node["id"]?.string)
    }

    /// The `items` array of a section entry, read in one pass over each item's members through views, since a
    /// lookup per key would make a node (a retain) and walk the members again for each of the six.
    private enum ItemFrameMember { case index, x, y, w, h, id }
    private static let itemFrameMembers = MemberNames<ItemFrameMember>([
        "i": .index, "x": .x, "y": .y, "w": .w, "h": .h, "id": .id,
    ])

    package static func itemFrames(_ node: JSONNode, _ path: @autoclosure Path) throws(Failure) -> [ItemFrame] {
        try node.withView { (array: JSONView) throws(Failure) -> [ItemFrame] in
            guard array.kind == .array else { throw fail(path(), "not an array") }
            var frames: [ItemFrame] = []
            let elements = array.elements
            frames.reserveCapacity(elements.underestimatedCount)
            for (j, item) in elements.enumerated() {
                var index: Int?
                var x: Double?
                var y: Double?
                var w: Double?
                var h: Double?
                var id: String?
                if item.kind == .object {
                    item.members(itemFrameMembers) { member, value in
                        switch member {
                        case .index: index = value.int
                        case .x: x = value.double
                        case .y: y = value.double
                        case .w: w = value.double
                        case .h: h = value.double
                        case .id: id = value.string
                        }
                    }
                }
                guard let index, let x, let y, let w, let h else {
                    throw fail("\(path())[\(j)]", "not an item frame {i, x, y, w, h} of numbers")
                }
                frames.append(ItemFrame(index: index, frame: Rect(x: x, y: y, width: w, height: h), id: id))
            }
            return frames
        }
    }

    /// A header or footer of a diff entry: absent (unchanged), null (gone) or a rect.
    package static func change(_ node: JSONNode?, _ path: @autoclosure Path) throws(Failure) -> FrameChange {
        guard let node else { return .unchanged }
        return node.isNull ? .removed : .set(try rect(node, path()))
    }

    /// A header's `pinMaxY` (a horizontal layout's `pinMaxX` or `pinMinX`), when it has one (a pinned header); nil
    /// for an absent or null header.
    package static func pinMaxY(_ header: JSONNode?, _ path: @autoclosure Path) throws(Failure) -> Double? {
        guard let header, !header.isNull else { return nil }
        for key: StaticString in ["pinMaxY", "pinMaxX", "pinMinX"] where header[key] != nil {
            return try number(header, key, path())
        }
        return nil
    }

    /// How a section entry maps to the screen, by its members: a horizontal layout's has `width` for `height`,
    /// and under rtl a pinned header's `pinMinX`.
    package static func screen(of entry: JSONNode) -> ScreenMapping {
        screen(hasWidth: entry["width"] != nil, headerPinsMinX: entry["header"]?["pinMinX"] != nil)
    }

    /// The rule of `screen(of:)` on what an entry has: a `width` (along a horizontal feed), and a header pinned by
    /// its `pinMinX` (right to left).
    package static func screen(hasWidth: Bool, headerPinsMinX: Bool) -> ScreenMapping {
        guard hasWidth else { return .identity }
        return ScreenMapping(axis: .horizontal, direction: headerPinsMinX ? .rtl : .ltr)
    }

    /// A member along the feed: `vertical` (`height`, `dy`), else `horizontal` (`width`, `dx`).
    package static func along(
        _ node: JSONNode, _ vertical: StaticString, _ horizontal: StaticString, _ path: @autoclosure Path
    ) throws(Failure) -> Double {
        try number(node, node[vertical] == nil && node[horizontal] != nil ? horizontal : vertical, path())
    }

    /// A query element's `pinned`: false when absent.
    package static func pinned(_ element: JSONNode, _ path: @autoclosure Path) throws(Failure) -> Bool {
        guard let node = element["pinned"] else { return false }
        guard let value = node.bool else { throw fail("\(path()).pinned", "not a boolean") }
        return value
    }

    /// The mutation result: `{"seq", "contentSize", "diff"?, "anchor"?}`.
    package static func mutation(_ node: JSONNode) throws(Failure) -> MutationResult {
        let diffNode = node["diff"]
        return MutationResult(
            seq: try int(node, "seq", "result"),
            contentSize: try size(member(node, "contentSize", "result"), "contentSize"),
            diff: try diffNode.map { node throws(Failure) in try diff(node, "result.diff") },
            anchor: try anchor(node["anchor"], "result.anchor"))
    }

    /// `{"section", "i", "dy"}` or null; nil when absent.
    package static func anchor(_ node: JSONNode?, _ path: @autoclosure Path) throws(Failure) -> AnchorOutcome? {
        guard let node else { return nil }
        if node.isNull { return .removed }
        let item = ItemPath(section: try int(node, "section", path()), item: try int(node, "i", path()))
        if node["dx"] != nil { return .movedAlongX(item, dx: try number(node, "dx", "result.anchor")) }
        return .moved(item, dy: try number(node, "dy", "result.anchor"))
    }

    /// A diff: `{"sections": [...], "shifts"?: [...]}`.
    package static func diff(_ node: JSONNode, _ path: @autoclosure Path) throws(Failure) -> LayoutDiff {
        var sections: [SectionDiff] = []
        var screen = ScreenMapping.identity
        for (k, entry) in try array(node, "sections", path()).enumerated() {
            let (diff, entryScreen) = try sectionDiff(entry, "\(path()).sections[\(k)]")
            // The first entry tells the axis; any entry's pinned header tells rtl (`pinMinX`).
            if k == 0 {
                screen = entryScreen
            } else if screen.axis == .horizontal, !screen.reversed, entryScreen.reversed {
                screen = ScreenMapping(axis: .horizontal, direction: .rtl)
            }
            sections.append(diff)
        }
        var shifts: [SectionShift] = []
        if node["shifts"] != nil {
            for (k, entry) in try array(node, "shifts", path()).enumerated() {
                func at() -> String { "\(path()).shifts[\(k)]" }
                if entry["dx"] != nil {
                    screen = ScreenMapping(axis: .horizontal, direction: screen.reversed ? .rtl : .ltr)
                }
                shifts.append(
                    SectionShift(
                        from: try int(entry, "from", at()), to: try int(entry, "to", at()),
                        dy: try along(entry, "dy", "dx", at())))
            }
        }
        return LayoutDiff(sections: sections, shifts: shifts, screen: screen)
    }

    /// `layout.get`'s result.
    package static func frames(_ node: JSONNode) throws(Failure) -> LayoutFrames {
        var sections: [SectionFrames] = []
        for (k, entry) in try array(node, "sections", "result").enumerated() {
            func at() -> String { "result.sections[\(k)]" }
            let items = try itemFrames(member(entry, "items", at()), "\(at()).items")
            let header = entry["header"]
            sections.append(
                SectionFrames(
                    section: try int(entry, "section", at()), origin: try number(entry, "origin", at()),
                    height: try along(entry, "height", "width", at()), count: try int(entry, "count", at()),
                    items: items,
                    header: try header.map { node throws(Failure) in try rect(node, "\(at()).header") },
                    pinMaxY: try pinMaxY(header, "\(at()).header"),
                    footer: try entry["footer"].map { node throws(Failure) in try rect(node, "\(at()).footer") },
                    screen: Self.screen(of: entry)))
        }
        return LayoutFrames(
            seq: try int(node, "seq", "result"),
            contentSize: try size(member(node, "contentSize", "result"), "result.contentSize"), sections: sections)
    }

    /// `query`'s result.
    package static func query(_ node: JSONNode) throws(Failure) -> QueryResult {
        var elements: [Element] = []
        for (k, entry) in try array(node, "elements", "result").enumerated() {
            elements.append(try element(entry, "result.elements[\(k)]"))
        }
        return QueryResult(
            seq: try int(node, "seq", "result"),
            contentSize: try size(member(node, "contentSize", "result"), "result.contentSize"), elements: elements)
    }

    /// A `query` element at `at`.
    package static func element(_ entry: JSONNode, _ at: @autoclosure Path) throws(Failure) -> Element {
        let name = try string(entry, "kind", at())
        guard let kind = Element.Kind(rawValue: name) else { throw fail("\(at()).kind", "unknown kind \(name)") }
        return Element(
            kind: kind, section: try int(entry, "section", at()), index: entry["i"]?.int, frame: try rect(entry, at()),
            id: entry["id"]?.string, pinned: try pinned(entry, at()))
    }

    /// `items.neighbors`' result: each side an element or null.
    package static func neighbors(_ node: JSONNode) throws(Failure) -> ItemNeighbors {
        func side(_ key: StaticString) throws(Failure) -> Element? {
            let entry = try member(node, key, "result")
            return entry.isNull ? nil : try element(entry, "result.\(key)")
        }
        return ItemNeighbors(
            above: try side("above"), below: try side("below"), left: try side("left"), right: try side("right"))
    }

    /// `layout.export`'s result, its inputs read by the daemon's own decoder (they are `layout.create`'s params).
    package static func export(_ node: JSONNode) throws(Failure) -> LayoutExport {
        let seq = try int(node, "seq", "result")
        let inputs = try member(node, "layout", "result")
        do throws(ProtocolError) {
            var params = try Params(inputs, path: "result.layout")
            let spec = try CommandDecoding.layoutSpec(&params)
            try params.finish()
            return LayoutExport(seq: seq, spec: spec)
        } catch {
            throw ReplyError(error.message)
        }
    }

    /// The engine commands of an event's `ops`, read by the wire module's decoder as the daemon read them.
    package static func commands(_ node: JSONNode, _ path: @autoclosure Path) throws(Failure) -> [LayoutCommand] {
        guard node.kind == .array else { throw fail(path(), "not an array") }
        do throws(ProtocolError) {
            return try CommandDecoding.appliedOps(node.elements, path())
        } catch {
            throw ReplyError(error.message)
        }
    }

    /// The answer to a scoped `subscribe`: `{"seq", "contentSize", "viewport", "diff"}`.
    package static func viewportSnapshot(_ node: JSONNode) throws(Failure) -> ViewportSnapshot {
        let viewport = try member(node, "viewport", "result")
        return ViewportSnapshot(
            seq: try int(node, "seq", "result"),
            contentSize: try size(member(node, "contentSize", "result"), "result.contentSize"),
            viewport: viewport["x"] != nil
                ? Viewport(
                    y: try number(viewport, "x", "result.viewport"),
                    height: try number(viewport, "w", "result.viewport"),
                    axis: .horizontal)
                : Viewport(
                    y: try number(viewport, "y", "result.viewport"),
                    height: try number(viewport, "h", "result.viewport")),
            diff: try diff(member(node, "diff", "result"), "result.diff"))
    }
}
