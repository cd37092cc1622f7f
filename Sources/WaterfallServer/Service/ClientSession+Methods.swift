import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol

extension ClientSession {
    /// Runs one request other than a change and writes its result reply (errors are thrown, and written by the
    /// caller).
    func run(_ call: MethodCall, id: RequestID, _ out: inout JSONWriter) async throws(ProtocolError) {
        let registry = service.registry
        switch call {
        case .ping:
            ReplyEncoding.pong(&out, id: id)
        case .version:
            ReplyEncoding.version(&out, id: id, service.versionReport)
        case .layoutCreate(let creation):
            let (layout, diff) = try await registry.create(creation, limits: service.limits)
            ReplyEncoding.mutationResult(
                &out, id: id, seq: layout.seq, contentSize: layout.contentSize, encodedDiff: nil,
                diff: creation.wantsDiff ? diff : nil)
        case .layoutDrop(let name):
            try registry.drop(name)
            ReplyEncoding.emptyResult(&out, id: id)
        case .layoutList:
            ReplyEncoding.layoutList(&out, id: id, await registry.summaries())
        case .layoutGet(let listing):
            let layout = try await registry.snapshot(listing.layout)
            var reply = try SnapshotReply(id: id, layout: layout, sections: listing.sections)
            try checkReplySize(listing, layout)
            reply.write(&out, untilByteCount: .max)
        case .query(let query):
            let layout = try await registry.snapshot(query.layout)
            let maxReplyItems = service.limits.maxReplyItems
            guard layout.elements(in: query.rect, limit: maxReplyItems).count <= maxReplyItems else {
                throw ProtocolError(
                    .limit, "params.rect: the reply would list more than maxReplyItems (\(maxReplyItems)) elements")
            }
            var reply = SnapshotReply(id: id, layout: layout, query: query.rect)
            reply.write(&out, untilByteCount: .max)
        case .subscribe(let name):
            try await registry.subscribe(name, ObjectIdentifier(self), output)
            subscriptions.insert(name)
            ReplyEncoding.emptyResult(&out, id: id)
        case .unsubscribe(let name):
            try registry.unsubscribe(name, ObjectIdentifier(self))
            subscriptions.remove(name)
            ReplyEncoding.emptyResult(&out, id: id)
        case .stats:
            ReplyEncoding.stats(&out, id: id, await service.statsReport())
        case .change(let change):
            // `handle` answers changes in runs; one reaching here is a run of one.
            await answer(changesTo: change.layout, [.change(change)], &out)
        }
    }

    // MARK: Private

    /// Refuses a `layout.get` that would list more than `maxReplyItems` items.
    private func checkReplySize(_ listing: LayoutListing, _ layout: Layout) throws(ProtocolError) {
        let maxReplyItems = service.limits.maxReplyItems
        let sections = listing.sections ?? Array(0..<layout.sectionCount)
        let listed = sections.reduce(0) { $0 + layout.itemCount(inSection: $1) }
        guard listed <= maxReplyItems else {
            throw ProtocolError(
                .limit,
                "params.sections: the reply would list \(listed) items, over maxReplyItems (\(maxReplyItems)); "
                    + "ask for fewer sections")
        }
    }
}
