import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol

extension ClientSession {
    /// Runs one method that `PreparedRequest` left to read when it runs, and writes its result reply (errors are
    /// thrown, and written by the caller).
    func run(_ method: Method, _ request: Request, _ out: inout JSONWriter) async throws(ProtocolError) {
        var p = try Params(request.params, path: "params")
        switch method {
        case .ping:
            try p.finish()
            ReplyEncoding.result(&out, id: request.id) { w in
                w.beginObject()
                w.member("pong", true)
                w.endObject()
            }
        case .version:
            try p.finish()
            let config = service.config
            ReplyEncoding.result(&out, id: request.id) { w in Self.version(config, &w) }
        case .layoutCreate:
            try await create(&p, request, &out)
        case .layoutDrop:
            let name = try Self.layoutName(&p)
            try p.finish()
            guard let entry = service.store.remove(name) else { throw Self.missing(name) }
            service.budget.adjust(-entry.weight.withLock { $0 })
            Self.publishDropped(entry)
            ReplyEncoding.result(&out, id: request.id, ReplyEncoding.empty)
        case .layoutList:
            try p.finish()
            try await list(request, &out)
        case .layoutGet:
            try await get(&p, request, &out)
        case .query:
            try await query(&p, request, &out)
        case .subscribe, .unsubscribe:
            let name = try Self.layoutName(&p)
            try p.finish()
            guard let entry = service.store.entry(name) else { throw Self.missing(name) }
            if method == .subscribe {
                // Through the layout's actor, so that a subscription starts between two changes, never inside
                // one: each change decides there whether it needs its item frames for an event.
                let subscribers = entry.subscribers
                let id = ObjectIdentifier(self)
                let sink = output
                _ = await entry.layout.read { _ in subscribers.add(id, sink) }
                subscriptions.insert(name)
            } else {
                entry.subscribers.remove(ObjectIdentifier(self))
                subscriptions.remove(name)
            }
            ReplyEncoding.result(&out, id: request.id, ReplyEncoding.empty)
        case .stats:
            try p.finish()
            let body = await stats()
            ReplyEncoding.result(&out, id: request.id) { $0.raw(body[...]) }
        case .batch, .layoutConfigure, .sectionsInsert, .sectionsDelete, .sectionsMove, .sectionsConfigure,
            .itemsInsert, .itemsDelete, .itemsUpdate, .itemsMove:
            throw ProtocolError(.internalError, "method: \(method.rawValue) was not decoded before it ran")
        }
    }

    // MARK: Private

    private func create(_ p: inout Params, _ request: Request, _ out: inout JSONWriter) async throws(ProtocolError) {
        let name = try Self.layoutName(&p)
        let replace = try p.optionalBool("replace") ?? false
        let wantsDiff = try p.optionalBool("diff") ?? true
        let spec = try CommandDecoding.layoutSpec(&p)
        try p.finish()
        let limits = service.limits
        if !replace, service.store.contains(name) {
            throw ProtocolError(.exists, "params.layout: '\(name)' exists (say \"replace\": true to replace it)")
        }
        // Reserved for its items and sections, settled with its columns once it is built.
        let estimate = LayoutCommand.insertSections(at: 0, sections: spec.sections).addedWeight
        try reserve(estimate, limits)
        let made: (layout: Layout, diff: LayoutDiff)
        do {
            made = try await Layout.make(spec, limits: limits.layout)
        } catch {
            service.budget.adjust(-estimate)
            throw ProtocolError(error)
        }
        let count = made.layout.weight
        service.budget.adjust(count - estimate)
        let entry = LayoutEntry(name: name, layout: LayoutActor(made.layout))
        entry.weight.withLock { $0 = count }
        switch service.store.insert(entry, replace: replace, maxLayouts: limits.maxLayouts) {
        case .exists:
            service.budget.adjust(-count)
            throw ProtocolError(.exists, "params.layout: '\(name)' exists (say \"replace\": true to replace it)")
        case .limit:
            service.budget.adjust(-count)
            throw ProtocolError(.limit, "params.layout: the daemon holds \(limits.maxLayouts) layouts, its limit")
        case .inserted(let replaced):
            if let replaced {
                service.budget.adjust(-replaced.weight.withLock { $0 })
                Self.publishDropped(replaced)
            }
        }
        ReplyEncoding.result(&out, id: request.id) { w in
            ReplyEncoding.mutation(
                &w, seq: made.layout.seq, contentSize: made.layout.contentSize, diff: wantsDiff ? made.diff : nil)
        }
    }

    private func reserve(_ count: Int, _ limits: RequestLimits) throws(ProtocolError) {
        try Self.reserve(count, limits, in: service.budget)
    }

    private func list(_ request: Request, _ out: inout JSONWriter) async throws(ProtocolError) {
        var rows: [(String, Int, Int, Int)] = []
        for entry in service.store.all() {
            let row = await entry.layout.read { ($0.sectionCount, $0.itemCount, $0.seq) }
            rows.append((entry.name, row.0, row.1, row.2))
        }
        ReplyEncoding.result(&out, id: request.id) { w in
            w.beginObject()
            w.key("layouts")
            w.beginArray()
            for (name, sections, items, seq) in rows {
                w.beginObject()
                w.member("layout", name)
                w.member("sections", sections)
                w.member("items", items)
                w.member("seq", seq)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
    }

    private func get(_ p: inout Params, _ request: Request, _ out: inout JSONWriter) async throws(ProtocolError) {
        let name = try Self.layoutName(&p)
        let wanted = p.contains("sections") ? try CommandDecoding.indices(p.array("sections"), "params.sections") : nil
        try p.finish()
        guard let entry = service.store.entry(name) else { throw Self.missing(name) }
        let maxReplyItems = service.limits.maxReplyItems
        let body = await entry.layout.read { layout -> Result<[UInt8], ProtocolError> in
            let sections = wanted ?? Array(0..<layout.sectionCount)
            for (k, s) in sections.enumerated() where s < 0 || s >= layout.sectionCount {
                return .failure(
                    ProtocolError(
                        .notFound, "params.sections[\(k)]: \(s) is not a section (there are \(layout.sectionCount))"))
            }
            let listed = sections.reduce(0) { $0 + layout.itemCount(inSection: $1) }
            guard listed <= maxReplyItems else {
                return .failure(
                    ProtocolError(
                        .limit,
                        "params.sections: the reply would list \(listed) items, over maxReplyItems (\(maxReplyItems)); "
                            + "ask for fewer sections"))
            }
            return .success(
                Self.snapshotResult(layout, listing: "sections") { w in
                    for s in sections { ReplyEncoding.section(layout.frames(ofSection: s), &w) }
                })
        }
        let bytes = try body.get()
        ReplyEncoding.result(&out, id: request.id) { $0.raw(bytes[...]) }
    }

    private func query(_ p: inout Params, _ request: Request, _ out: inout JSONWriter) async throws(ProtocolError) {
        let name = try Self.layoutName(&p)
        guard let rectNode = p.node("rect") else { throw .badParams("params.rect", "missing") }
        var r = try Params(rectNode, path: "params.rect")
        let rect = Rect(x: try r.double("x"), y: try r.double("y"), width: try r.double("w"), height: try r.double("h"))
        try r.finish()
        try p.finish()
        guard rect.width >= 0, rect.height >= 0 else {
            throw .badParams("params.rect", "w and h must be ≥ 0, not \(rect.width) × \(rect.height)")
        }
        guard let entry = service.store.entry(name) else { throw Self.missing(name) }
        let maxReplyItems = service.limits.maxReplyItems
        let body = await entry.layout.read { layout -> Result<[UInt8], ProtocolError> in
            let elements = layout.elements(in: rect, limit: maxReplyItems)
            guard elements.count <= maxReplyItems else {
                return .failure(
                    ProtocolError(
                        .limit, "params.rect: the reply would list more than maxReplyItems (\(maxReplyItems)) elements")
                )
            }
            return .success(
                Self.snapshotResult(layout, listing: "elements") { w in
                    for element in elements { ReplyEncoding.element(element, &w) }
                })
        }
        let bytes = try body.get()
        ReplyEncoding.result(&out, id: request.id) { $0.raw(bytes[...]) }
    }

    /// `{"seq", "contentSize", listing: [...]}`, the shape of `layout.get` and `query` results.
    private static func snapshotResult(
        _ layout: Layout, listing: StaticString, _ elements: (inout JSONWriter) -> Void
    ) -> [UInt8] {
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        w.member("seq", layout.seq)
        w.key("contentSize")
        ReplyEncoding.size(layout.contentSize, &w)
        w.key(listing)
        w.beginArray()
        elements(&w)
        w.endArray()
        w.endObject()
        return w.takeBytes()
    }
}
