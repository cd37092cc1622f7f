@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallWire

extension ClientSession {
    /// Answers one request that is not part of a visit's run of changes: its reply (if any) goes into `out`.
    func answer(_ request: DecodedRequest, _ out: inout JSONWriter) async {
        switch request {
        case .tooLarge:
            let limit = service.limits.maxLineBytes
            let error = ProtocolError(.tooLarge, "line: longer than the limit of \(limit) bytes")
            fail(error, id: RequestID.none, &out)
            count(nil, error: error.code)
        case .failed(let id, let error, let isNotification, let method):
            fail(error, id: isNotification ? nil : id, &out)
            count(method, error: error.code)
        case .change(let change):
            // `ReadPlan` puts every change of a line in a run; a batch array's element is a run of one.
            await answer(changesTo: change.layout, [change], &out)
        case .call(let id, let isNotification, let call):
            do throws(ProtocolError) {
                if isNotification {
                    var discarded = JSONWriter(capacity: 64)
                    try await run(call, id: id, replying: false, &discarded)
                } else {
                    try await run(call, id: id, replying: true, &out)
                }
                count(call.method)
            } catch {
                fail(error, id: isNotification ? nil : id, &out)
                count(call.method, error: error.code)
            }
        case .array(let elements):
            await answer(array: elements, &out)
        }
    }

    /// Answers a batch array's elements in order, as lines of one read would be, their replies joined into one
    /// array on one line (`[` written before the first reply, so that an array of notifications writes nothing).
    ///
    /// A reply of any size is streamed inside the array as it is alone (`stream`), a chunk at a time with the
    /// client's backpressure: while the array is open, every chunk sent ends inside a reply, so that events wait
    /// for the line's end (never inside it), as they do for one long reply.
    private func answer(array elements: [DecodedRequest], _ out: inout JSONWriter) async {
        var answered = 0
        defer { arrayOpen = false }
        for element in elements {
            if output.isClosed { break }
            if out.byteCount >= Self.replyChunkBytes, !(await sendChunk(&out)) { break }
            if element.isAnswered {
                ReplyEncoding.arrayElement(&out, first: answered == 0)
                arrayOpen = true
                answered += 1
            }
            await answer(element, &out)
        }
        if answered > 0 { ReplyEncoding.endArray(&out) }
    }
}
