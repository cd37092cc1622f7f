@_spi(Package) import WaterfallJSON
import WaterfallModel
import WaterfallWire

/// A typed call for every method of the protocol (the Methods article). Params are written by the wire module's
/// `CommandEncoding`, so a request is spelled the same way here, in the tests and in the benchmark.
extension WaterfallClient {
    // MARK: Daemon

    /// `ping`.
    public func ping() async throws(WaterfallClientError) {
        try await send(PingRequest())
    }

    /// `version`.
    public func version() async throws(WaterfallClientError) -> ServerVersion {
        try await send(VersionRequest())
    }

    /// `stats`.
    public func stats() async throws(WaterfallClientError) -> ServerStats {
        try await send(StatsRequest())
    }

    /// `rpc.discover`: the daemon's OpenRPC document, every method with its params, result, errors and an example.
    public func openRPCDocument() async throws(WaterfallClientError) -> JSONValue {
        try await send(DiscoverRequest())
    }

    /// `metrics`: the daemon's counters in Prometheus' text format 0.0.4.
    public func metrics() async throws(WaterfallClientError) -> String {
        try await send(MetricsRequest())
    }

    // MARK: Layouts

    /// `layout.create`: a layout named `name` from `spec` (at each of `spec.widths`); with `replace`, over an
    /// existing one. The result is at the first width: `options.width` is not sent.
    public func createLayout(
        _ name: String, _ spec: LayoutSpec, replace: Bool = false, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        var members = CommandEncoding.members(of: spec)
        if replace { members.append(("replace", true)) }
        var options = options
        options.width = nil
        return try await mutate("layout.create", layout: name, members, options)
    }

    /// `layout.configure`: `patch.width` or `patch.widths` set the layout's widths. With `options.width`, sent as
    /// a `batch` of this one change, whose `width` picks the width of the result.
    public func configureLayout(
        _ name: String, _ patch: LayoutPatch, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        try await apply(.configureLayout(patch), to: name, options: options)
    }

    /// `layout.drop`.
    public func dropLayout(_ name: String) async throws(WaterfallClientError) {
        try await send(LayoutDropRequest(layout: name))
    }

    /// `layout.list`.
    public func listLayouts() async throws(WaterfallClientError) -> [LayoutSummary] {
        try await send(LayoutListRequest())
    }

    /// `layout.get`: the frames of `sections` (indices), or of every section, at `width` (one of the layout's
    /// widths; nil for the first).
    public func frames(
        of name: String, sections: [Int]? = nil, width: Double? = nil
    ) async throws(WaterfallClientError) -> LayoutFrames {
        try await send(LayoutGetRequest(layout: name, sections: sections, width: width))
    }

    /// `layout.export`: the layout's inputs.
    public func export(_ name: String) async throws(WaterfallClientError) -> LayoutExport {
        try await send(LayoutExportRequest(layout: name))
    }

    // MARK: Changes

    /// `sections.insert`.
    public func insertSections(
        _ sections: [SectionSpec], at index: Int, in layout: String, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        try await apply(.insertSections(at: index, sections: sections), to: layout, options: options)
    }

    /// `sections.delete`, by indices before the delete.
    public func deleteSections(
        _ indices: [Int], in layout: String, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        try await apply(.deleteSections(indices), to: layout, options: options)
    }

    /// `sections.move`; `to` is the position after the section is removed.
    public func moveSection(
        from: Int, to: Int, in layout: String, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        try await apply(.moveSection(from: from, to: to), to: layout, options: options)
    }

    /// `sections.configure`.
    public func configureSection(
        _ section: Int, _ patch: SectionPatch, in layout: String, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        try await apply(.configureSection(section, patch), to: layout, options: options)
    }

    /// `items.insert`.
    public func insertItems(
        _ items: [Item], at index: Int, inSection section: Int, of layout: String, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        try await mutate(ChangeMethod.itemsInsert.rawValue, layout: layout, options) { w in
            w.member("section", section)
            w.member("at", index)
            w.itemsMember(items)
        }
    }

    /// `items.delete`, by indices before the delete.
    public func deleteItems(
        _ indices: [Int], inSection section: Int, of layout: String, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        try await apply(.deleteItems(section: section, indices: indices), to: layout, options: options)
    }

    /// `items.update`: each update replaces the whole item at its index.
    public func updateItems(
        _ updates: [ItemUpdate], inSection section: Int, of layout: String, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        try await mutate(ChangeMethod.itemsUpdate.rawValue, layout: layout, options) { w in
            w.member("section", section)
            w.itemsMember(updates)
        }
    }

    /// `items.move`; `to` is the position after the item is removed.
    public func moveItem(
        from: ItemPath, to: ItemPath, in layout: String, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        try await apply(.moveItem(from: from, to: to), to: layout, options: options)
    }

    /// `batch`: `commands` applied together, all or nothing, with one result.
    public func batch(
        _ commands: [LayoutCommand], in layout: String, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        let ops: [JSONValue] = commands.map { command in
            let request = CommandEncoding.request(command)
            return ["method": .string(request.method.rawValue), "params": request.params]
        }
        return try await mutate("batch", layout: layout, options) { w in
            w.key("ops")
            w.write(.array(ops))
        }
    }

    /// Any one change, by the method that makes it. A `configureLayout` with `options.width` is sent as a `batch`
    /// of it (see `configureLayout`).
    public func apply(
        _ command: LayoutCommand, to layout: String, options: MutationOptions = .init()
    ) async throws(WaterfallClientError) -> MutationResult {
        if case .configureLayout = command, options.width != nil {
            return try await batch([command], in: layout, options: options)
        }
        let request = CommandEncoding.request(command)
        guard case .object(let members) = request.params else { preconditionFailure("params are an object") }
        return try await mutate(request.method.rawValue, layout: layout, members, options)
    }

    // MARK: Reading

    /// `query`: the headers, items and footers in `rect`, in document order or in reading order, at `width` (one
    /// of the layout's widths; nil for the first).
    public func query(
        _ layout: String, rect: Rect, order: ElementOrder = .document, width: Double? = nil
    ) async throws(WaterfallClientError) -> QueryResult {
        try await send(QueryRequest(layout: layout, rect: rect, order: order, width: width))
    }

    /// `items.neighbors`: the items above, below, left and right of the item at `path`, each nil at an edge, at
    /// `width` (one of the layout's widths; nil for the first).
    public func neighbors(
        of path: ItemPath, in layout: String, width: Double? = nil
    ) async throws(WaterfallClientError) -> ItemNeighbors {
        try await send(NeighborsRequest(layout: layout, item: path, width: width))
    }

    /// `subscribe`: the layout's events, from the next change on, until the subscription or the connection ends,
    /// their diffs at `width` (one of the layout's widths; nil for the first). `subscribe(_:viewport:width:)`
    /// scopes them to a viewport.
    public func subscribe(_ layout: String, width: Double? = nil) async throws(WaterfallClientError) -> Subscription {
        try await subscribe(layout, params: Self.subscribeParams(layout, nil, width)).events
    }

    /// `unsubscribe`: ends this connection's subscriptions to `layout`.
    public func unsubscribe(_ layout: String) async throws(WaterfallClientError) {
        try await send(UnsubscribeRequest(layout: layout))
        connection.finishSinks(for: layout)
    }

    // MARK: Private

    /// A change's call whose params are `layout`, `members`, then the options.
    private func mutate(
        _ method: String, layout: String, _ members: [(key: String, value: JSONValue)], _ options: MutationOptions
    ) async throws(WaterfallClientError) -> MutationResult {
        try await mutate(method, layout: layout, options) { w in
            for (key, value) in members {
                w.key(string: key)
                w.write(value)
            }
        }
    }

    /// A change's call, its params written straight into the request (`layout`, what `members` writes, then the
    /// options) and its result decoded as it is read.
    private func mutate(
        _ method: String, layout: String, _ options: MutationOptions, members: (inout JSONWriter) -> Void
    ) async throws(WaterfallClientError) -> MutationResult {
        try await connection.mutation(method, timeout: timeout) { w in
            Self.writeMutationParams(&w, layout: layout, options, members: members)
        }.get()
    }

    /// A change's `params`: `layout`, what `members` writes, then the options.
    static func writeMutationParams(
        _ w: inout JSONWriter, layout: String, _ options: MutationOptions, members: (inout JSONWriter) -> Void
    ) {
        w.key("params")
        w.beginObject()
        w.member("layout", layout)
        members(&w)
        if !options.diff { w.member("diff", false) }
        if let anchor = options.anchor {
            w.key("anchor")
            w.beginObject()
            w.member("section", anchor.section)
            w.member("i", anchor.item)
            w.endObject()
        }
        if let viewport = options.viewport {
            w.key("viewport")
            w.write(CommandEncoding.viewport(viewport))
        }
        if let width = options.width { w.member("width", width) }
        w.endObject()
    }
}
