@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

extension ClientSession {
    /// Answers `changes`, consecutive changes to layout `name`, made in one visit to the layout (see `ChangeVisit`):
    /// each gets its own reply, in order.
    func answer(changesTo name: String, _ changes: [LayoutChange], _ out: inout JSONWriter) async {
        let steps = await service.registry.apply(changes, to: name, limits: service.limits)
        // The replies of one visit are written at almost the same moment: the clock is read once for their
        // latency rather than per request, and again only after a chunk went out, which may have waited for the
        // client.
        var answered = MonotonicClock.now
        // By index, field by field: a change or a step taken whole is a copy (a retain and a release of each of its
        // strings and arrays).
        for k in steps.indices {
            let isNotification = changes[k].isNotification
            let id = changes[k].id
            defer { count(changes[k].ops.method, error: steps[k].outcome.failureCode, at: answered) }
            if out.byteCount >= Self.replyChunkBytes {
                guard await sendChunk(&out) else { return }
                answered = MonotonicClock.now
            }
            switch steps[k].outcome {
            case .success(let outcome):
                // A notification runs and gets no reply (JSON-RPC).
                guard !isNotification else { continue }
                if let encoded = outcome.encoded {
                    // Shared with the event: written whole (subscribers hold it whole anyway).
                    ReplyEncoding.mutationResult(
                        &out, id: id, seq: outcome.seq, contentSize: outcome.size, encodedDiff: encoded,
                        diff: nil, anchor: outcome.anchor)
                } else {
                    var reply = MutationReply(
                        id: id, seq: outcome.seq, contentSize: outcome.size, diff: outcome.diff,
                        anchor: outcome.anchor)
                    // Most replies fit in the chunk being filled: written here, without a suspension point.
                    if !reply.write(&out, untilByteCount: Self.replyChunkBytes) {
                        let sent = chunksSent
                        guard await stream(reply, &out) else { return }
                        if chunksSent != sent { answered = MonotonicClock.now }
                    }
                }
            case .failure(let error):
                fail(error, id: isNotification ? nil : id, &out)
            }
        }
    }
}

extension Result where Failure == ProtocolError {
    /// The error's code, if this is a failure.
    var failureCode: ErrorCode? {
        if case .failure(let error) = self { error.code } else { nil }
    }
}
