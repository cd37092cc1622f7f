@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

extension ClientSession {
    /// Runs one request other than a change and writes its result reply (errors are thrown, and written by the
    /// caller); `replying` is false for a notification, whose listing is then not produced at all.
    func run(
        _ call: MethodCall, id: RequestID, replying: Bool, _ out: inout JSONWriter
    ) async throws(ProtocolError) {
        let registry = service.registry
        switch call {
        case .ping:
            ReplyEncoding.pong(&out, id: id)
        case .version:
            ReplyEncoding.version(&out, id: id, service.versionReport)
        case .layoutCreate(let creation):
            let (layout, diff) = try await registry.create(creation, limits: service.limits)
            await stream(
                MutationReply(
                    id: id, seq: layout.seq, contentSize: layout.contentSize,
                    diff: creation.wantsDiff ? layout.screen.diff(diff) : nil),
                &out)
        case .layoutExport(let request):
            let layouts = try await registry.snapshotOfEveryWidth(request.layout)
            ReplyEncoding.layoutExport(&out, id: id, seq: layouts.seq, spec: layouts.spec)
        case .layoutCSS(let request):
            let (sheet, responsive): (ResponsiveStylesheet, ResponsiveLayout)
            switch request.source {
            case .stored(let name):
                let layouts = try await registry.snapshotOfEveryWidth(name)
                (sheet, responsive) = try request.stylesheet(
                    of: layouts.spec, columnLimit: layouts.limits.maxColumns)
            case .inline(let spec):
                (sheet, responsive) = try request.stylesheet(ofInline: spec, limits: service.limits.layout)
            }
            ReplyEncoding.layoutCSS(&out, id: id, sheet, responsive, sections: request.sections)
        case .layoutDrop(let request):
            try await registry.drop(request.layout)
            ReplyEncoding.emptyResult(&out, id: id)
        case .layoutList:
            ReplyEncoding.layoutList(&out, id: id, await registry.summaries())
        case .layoutGet(let listing):
            let layout = try await registry.snapshot(listing.layout, width: listing.width)
            let reply = try SnapshotReply(id: id, layout: layout, sections: listing.sections)
            if replying { await stream(reply, &out) }
        case .query(let query):
            let layout = try await registry.snapshot(query.layout, width: query.width)
            if replying {
                await stream(SnapshotReply(id: id, layout: layout, query: query.rect, order: query.order), &out)
            }
        case .neighbors(let request):
            let layout = try await registry.snapshot(request.layout, width: request.width)
            try SnapshotReply.check(request.item, in: layout)
            ReplyEncoding.neighbors(&out, id: id, seq: layout.seq, layout.neighbors(of: request.item))
        case .itemsGet(let request):
            let layout = try await registry.snapshot(request.layout, width: request.width)
            let reply = SnapshotReply(id: id, layout: layout, listing: try request.elements(of: layout))
            if replying { await stream(reply, &out) }
        case .subscribe(let request):
            let layout = try await registry.subscribe(
                request.layout, ObjectIdentifier(self), output, viewport: request.viewport, width: request.width)
            subscriptions.insert(request.layout)
            if let layout, let viewport = request.viewport {
                ReplyEncoding.scopedSubscription(
                    &out, id: id, seq: layout.seq, contentSize: layout.contentSize, viewport: viewport,
                    diff: layout.screen.diff(layout.scopedSnapshot(viewport)))
            } else {
                ReplyEncoding.emptyResult(&out, id: id)
            }
        case .unsubscribe(let request):
            try registry.unsubscribe(request.layout, ObjectIdentifier(self))
            subscriptions.remove(request.layout)
            ReplyEncoding.emptyResult(&out, id: id)
        case .stats:
            ReplyEncoding.stats(&out, id: id, await service.statsReport())
        case .metrics:
            ReplyEncoding.metrics(&out, id: id, await service.statsReport())
        case .rpcDiscover:
            ReplyEncoding.result(&out, id: id) { $0.raw(OpenRPCDocument.bytes[...]) }
        }
    }

    /// Writes `reply` into `out` a chunk at a time, each sent as the client makes room for it: a reply of any size
    /// costs a few chunks of memory. Stops at the next chunk once the connection closes (the caller then sees it
    /// closed and stops too, and this returns false); the end of the reply stays in `out`, for the replies after it.
    @discardableResult
    func stream(_ reply: some ChunkedReply, _ out: inout JSONWriter) async -> Bool {
        var reply = reply
        while !reply.write(&out, untilByteCount: Self.replyChunkBytes) {
            guard await sendChunk(&out, endingInsideAReply: true) else { return false }
        }
        return true
    }
}
