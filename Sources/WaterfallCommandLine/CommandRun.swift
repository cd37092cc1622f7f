import WaterfallClient
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// One command being run: what it read from its arguments, then its calls and output.
struct CommandRun: Sendable {
    var invocation: Invocation
    var command: Command
    var terminal: Terminal

    var name: String { invocation.arguments.first ?? "" }

    /// How tables write numbers.
    var numbers: NumberStyle { invocation.exact ? .exact : .readable }

    /// Checks the arguments before connecting, so bad usage is exit 2 whether or not the daemon runs.
    func prepare() async throws {
        _ = try invocation.layoutWidth()
        switch command {
        case .get: _ = try invocation.sections()
        case .query:
            _ = try invocation.rect("--rect")
            _ = try invocation.order()
        case .neighbors: _ = try invocation.item()
        case .watch: _ = try invocation.viewport()
        case .render:
            _ = try invocation.rect("--rect")
            _ = try invocation.imageWidth()
        case .css, .html: _ = try stylesheetOptions()
        case .call: if invocation.arguments.count == 2 && invocation.arguments[1] != "-" { _ = try params() }
        case .declared(let method): _ = try invocation.params(of: method)
        default: break
        }
    }

    func execute(_ client: WaterfallClient) async throws -> WaterfallCtl.ExitStatus {
        switch command {
        case .ping:
            if invocation.json { return try await raw(client, "ping", nil) }
            try await client.ping()
            terminal.write("pong\n")
        case .version:
            if invocation.json { return try await raw(client, "version", nil) }
            let v = try await client.version()
            terminal.write(
                "\(v.server) \(v.version) (protocol \(v.protocolVersion), instance \(v.instance), "
                    + "\(v.durable ? "durable" : "not durable"))\n")
        case .stats:
            if invocation.json { return try await raw(client, "stats", nil) }
            var table = TextTable(header: ["COUNTER", "VALUE"], rightAligned: [1])
            Self.flatten(try await client.stats().values, prefix: "", numbers, into: &table.rows)
            terminal.write(table.text)
        case .metrics:
            if invocation.json { return try await raw(client, "metrics", nil) }
            terminal.write(try await client.metrics())
        case .list:
            if invocation.json { return try await raw(client, "layout.list", nil) }
            if invocation.options["--names"] != nil {
                // For scripts and the completion scripts: nothing but the names.
                terminal.write(try await client.listLayouts().map { $0.layout + "\n" }.joined())
                return .success
            }
            var table = TextTable(header: ["LAYOUT", "SECTIONS", "ITEMS", "SEQ", "WIDTHS"], rightAligned: [1, 2, 3])
            table.rows = try await client.listLayouts().map {
                [
                    $0.layout, "\($0.sections)", "\($0.items)", "\($0.seq)",
                    $0.widths.map { numbers.text($0) }.joined(separator: ","),
                ]
            }
            terminal.write(table.text)
        case .get:
            let sections = try invocation.sections()
            let width = try invocation.layoutWidth()
            if invocation.json {
                var params: [(key: String, value: JSONValue)] = [("layout", .string(name))]
                if let sections { params.append(("sections", .array(sections.map { .integer($0) }))) }
                return try await raw(client, "layout.get", params, width: width)
            }
            let frames = try await client.frames(of: name, sections: sections, width: width)
            terminal.write(FrameListing.frames(frames, numbers))
        case .query:
            let rect = try invocation.rect("--rect")!
            let order = try invocation.order()
            let width = try invocation.layoutWidth()
            if invocation.json {
                var params: [(key: String, value: JSONValue)] = [
                    ("layout", .string(name)), ("rect", CommandEncoding.rect(rect)),
                ]
                if order != .document { params.append(("order", .string(order.rawValue))) }
                return try await raw(client, "query", params, width: width)
            }
            let result = try await client.query(name, rect: rect, order: order, width: width)
            terminal.write(FrameListing.elements(result, numbers))
        case .neighbors:
            let item = try invocation.item()!
            let width = try invocation.layoutWidth()
            if invocation.json {
                let params: [(key: String, value: JSONValue)] = [
                    ("layout", .string(name)), ("section", .integer(item.section)), ("i", .integer(item.item)),
                ]
                return try await raw(client, "items.neighbors", params, width: width)
            }
            let neighbors = try await client.neighbors(of: item, in: name, width: width)
            terminal.write(FrameListing.neighbors(neighbors, numbers))
        case .export:
            let node = try await client.callNode(method: "layout.export", params: ["layout": .string(name)])
            let shown = invocation.json ? node : (node["layout"] ?? node)
            terminal.write(String(decoding: shown.rawBytes, as: UTF8.self) + "\n")
        case .call:
            return try await raw(client, invocation.arguments[0], try await callParams())
        case .describe:
            return try await describe(client)
        case .watch:
            return try await watch(client)
        case .render:
            return try await render(client)
        case .css, .html:
            return try await stylesheet(client)
        case .declared(let method):
            return try await call(client, method)
        case .help, .completion:
            // Both are answered before connecting (`WaterfallCtl.run`).
            terminal.write(command.help)
        }
        return .success
    }

    // MARK: Private

    /// Prints the result of `method` with `params`, and `width` when given, as the daemon wrote it.
    private func raw(
        _ client: WaterfallClient, _ method: String, _ params: [(key: String, value: JSONValue)], width: Double?
    ) async throws -> WaterfallCtl.ExitStatus {
        try await raw(client, method, .object(params + (width.map { [("width", .double($0))] } ?? [])))
    }

    /// Prints a result as the daemon wrote it.
    private func raw(_ client: WaterfallClient, _ method: String, _ params: JSONValue?) async throws
        -> WaterfallCtl.ExitStatus
    {
        let node = try await client.callNode(method: method, params: params)
        terminal.write(String(decoding: node.rawBytes, as: UTF8.self) + "\n")
        return .success
    }

    /// `call`'s params: the argument, standard input for `-`, or none.
    private func callParams() async throws -> JSONValue? {
        guard invocation.arguments.count == 2 else { return nil }
        if invocation.arguments[1] == "-" {
            return try params(from: await terminal.readInput(), what: "standard input")
        }
        return try params()
    }

    private func params() throws(UsageError) -> JSONValue {
        try params(from: invocation.arguments[1], what: "PARAMS")
    }

    private func params(from text: String, what: String) throws(UsageError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text.trimmingNewlines)
        } catch {
            throw UsageError("\(what): not JSON (\(error))", command: .call)
        }
        guard case .object = value else {
            throw UsageError("\(what): must be a JSON object, not \(value)", command: .call)
        }
        return value
    }

    private func watch(_ client: WaterfallClient) async throws -> WaterfallCtl.ExitStatus {
        let events: Subscription
        let scoped: Bool
        let width = try invocation.layoutWidth()
        if let viewport = try invocation.viewport() {
            let snapshot: ViewportSnapshot
            (events, snapshot) = try await client.subscribe(name, viewport: viewport, width: width)
            terminal.write(
                invocation.json
                    ? Self.json(snapshot) + "\n" : FrameListing.viewport(try WindowedModel(snapshot), numbers))
            scoped = true
        } else {
            events = try await client.subscribe(name, width: width)
            scoped = false
        }
        terminal.writeError("watching \(name) on \(client.socketPath); interrupt (Ctrl-C) to stop\n")
        for try await event in events {
            switch event {
            case .changed(let change):
                let line: JSONValue = ["method": "layout.changed", "params": change.json]
                terminal.write(
                    invocation.json ? line.jsonText + "\n" : FrameListing.change(change, numbers, listingFrames: scoped)
                )
            case .dropped(let layout):
                let line: JSONValue = ["method": "layout.dropped", "params": ["layout": .string(layout)]]
                terminal.write(invocation.json ? line.jsonText + "\n" : "layout \(layout) dropped\n")
                return .success
            case .overflow(let layout):
                throw WaterfallClientError(
                    source: .daemon, kind: "overflow",
                    message: "watch of \(layout) fell behind and was unsubscribed by the daemon; watch again")
            }
        }
        // The sequence ends without dropped: the connection ended.
        throw WaterfallClientError(
            source: .connection, kind: "connection_closed", message: "connection to \(client.socketPath) ended",
            socketPath: client.socketPath)
    }

    /// A scoped `watch --json`'s start: the answer to `subscribe`, as one line.
    private static func json(_ snapshot: ViewportSnapshot) -> String {
        let size = snapshot.contentSize
        let head: JSONValue = [
            "seq": .integer(snapshot.seq), "contentSize": ["w": .double(size.width), "h": .double(size.height)],
            "viewport": CommandEncoding.viewport(snapshot.viewport),
        ]
        // The diff as the protocol module writes it, spliced in after the members above.
        let text = head.jsonText
        let diff = String(decoding: ReplyEncoding.encodedDiff(snapshot.diff), as: UTF8.self)
        return #"{"method":"subscribe","result":"# + text.dropLast() + #","diff":"# + diff + "}}"
    }

    private func render(_ client: WaterfallClient) async throws -> WaterfallCtl.ExitStatus {
        let width = try invocation.layoutWidth()
        // An empty rect answers with the content size alone, which the default window needs.
        let size = try await client.query(name, rect: Rect(x: 0, y: 0, width: 0, height: 0), width: width).contentSize
        // A horizontal feed is drawn along x (Geometry, "Horizontal feeds"): its settings say which way.
        let spec = try? await client.export(name).spec
        let screen = spec.map { ScreenMapping(axis: $0.axis, direction: $0.direction) } ?? .identity
        let window = try invocation.rect("--rect") ?? SVGRenderer.defaultWindow(for: size, screen: screen)
        var picture: LayoutPicture
        let whole =
            screen.axis == .horizontal
            ? (screen.reversed
                ? window.x <= -size.width && window.maxX >= 0 : window.x <= 0 && window.maxX >= size.width)
            : window.y <= 0 && window.maxY >= size.height
        if whole {
            picture = try await wholePicture(client, width: width)
        } else {
            picture = try await windowPicture(client, window, width: width)
        }
        picture.alongX = screen.axis == .horizontal
        let svg = SVGRenderer(width: try invocation.imageWidth(), window: window).render(picture)
        if let path = invocation.options["--output"] {
            do {
                try terminal.writeFile(path, svg)
            } catch {
                terminal.writeError("waterfallctl: cannot write \(path): \(error)\n")
                return .daemonError
            }
        } else {
            terminal.write(svg)
        }
        return .success
    }

    /// Every section at `width` (nil: the first), with exact lanes when the daemon can export the layout.
    private func wholePicture(_ client: WaterfallClient, width: Double?) async throws -> LayoutPicture {
        let frames = try await client.frames(of: name, width: width)
        var picture = LayoutPicture(name: name, model: FrameModel(frames))
        if let lanes = try await exportedLanes(client, seq: frames.seq, sections: frames.sections.count, width: width) {
            picture.lanes = lanes
            picture.laneSource = .export
        }
        return picture
    }

    /// Only the sections from the first to the last that has an element in `window` (a query finds them), so
    /// that a window of a thousand-section layout does not fetch them all; lanes inferred. An empty section at the
    /// window's very top or bottom, with no element of its own, is left out.
    private func windowPicture(_ client: WaterfallClient, _ window: Rect, width: Double?) async throws -> LayoutPicture
    {
        let visible = try await client.query(name, rect: window, width: width)
        let shown = visible.elements.map(\.section)
        var frames = LayoutFrames(seq: visible.seq, contentSize: visible.contentSize, sections: [])
        if let first = shown.min(), let last = shown.max() {
            frames = try await client.frames(of: name, sections: Array(first...last), width: width)
        }
        var picture = LayoutPicture(name: name, model: FrameModel(frames))
        picture.firstSection = shown.min() ?? 0
        picture.totalItems = try await client.listLayouts().first { $0.layout == name }?.items
        return picture
    }

    /// The exact lanes, from the layout's inputs laid out by the engine, when the daemon has `layout.export`, the
    /// layout did not change in between and the frames are at its first width (the one the engine's layout of the
    /// inputs gives); nil otherwise (the lanes are then inferred from the frames).
    private func exportedLanes(
        _ client: WaterfallClient, seq: Int, sections: Int, width: Double?
    ) async throws -> [[Rect]]? {
        let export: LayoutExport
        do {
            export = try await client.export(name)
        } catch {
            // A daemon without layout.export: infer the lanes.
            if error.kind == "unknown_method" { return nil }
            throw error
        }
        guard export.seq == seq, width == nil || width == export.spec.widths.first,
            let built = try? await Layout.make(export.spec, allowsParallelism: false),
            built.layout.sectionCount == sections
        else { return nil }
        let screen = built.layout.screen
        return (0..<sections).map { built.layout.columnLanes(ofSection: $0).map(screen.rect) }
    }

    /// Nested counters as `a.b` rows.
    private static func flatten(
        _ value: JSONValue, prefix: String, _ numbers: NumberStyle, into rows: inout [[String]]
    ) {
        switch value {
        case .object(let members):
            for (key, member) in members {
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                if key == "buckets", case .array(let buckets) = member,
                    let bucketRows = LatencyBuckets.rows(buckets, path: path, numbers)
                {
                    rows += bucketRows
                } else {
                    flatten(member, prefix: path, numbers, into: &rows)
                }
            }
        case .int(let n): rows.append([prefix, "\(n)"])
        case .double(let d): rows.append([prefix, numbers.text(d)])
        case .string(let s): rows.append([prefix, s])
        default: rows.append([prefix, value.jsonText])
        }
    }
}

extension String {
    fileprivate var trimmingNewlines: String {
        var s = Substring(self)
        while let last = s.last, last.isWhitespace { s.removeLast() }
        return String(s)
    }
}
