@_spi(Package) import WaterfallJSON
import WaterfallModel
import WaterfallWire

extension WaterfallClient {
    /// `items.update`, pipelined: one request per element of `requests` (each replacing the items it lists in
    /// `section`), at most `window` of them unanswered at a time, and their results in the same order.
    ///
    /// This is how to stream many changes: where concurrent `updateItems` calls cost a task's suspension and a
    /// continuation each, a pipeline writes its first window of requests at once, then the connection's reading
    /// thread decodes each reply into one buffer as it reads it and writes as many new requests as replies came;
    /// the caller suspends once, until the last reply. A failed request does not stop the others (each has its
    /// own result). Cancelling the task stops the sending: the requests not yet sent fail with `cancelled`, and
    /// those sent are waited for.
    public func updateItems(
        pipelining requests: [[ItemUpdate]], inSection section: Int, of layout: String, window: Int = 256,
        options: MutationOptions = .init()
    ) async -> [Result<MutationResult, WaterfallClientError>] {
        await pipelinedMutations(
            ChangeMethod.itemsUpdate.rawValue, count: requests.count, of: layout, window: window, options
        ) { k, w in
            w.member("section", section)
            w.itemsMember(requests[k])
        }
    }

    /// `items.insert`, pipelined as `updateItems(pipelining:)` is: one request per element of `requests`, each
    /// inserting its `items` at its index `at` of `section` (an index in the section as the requests before it
    /// left it), at most `window` unanswered at a time; a bulk load streamed in chunks.
    public func insertItems(
        pipelining requests: [(at: Int, items: [Item])], inSection section: Int, of layout: String,
        window: Int = 256, options: MutationOptions = .init()
    ) async -> [Result<MutationResult, WaterfallClientError>] {
        await pipelinedMutations(
            ChangeMethod.itemsInsert.rawValue, count: requests.count, of: layout, window: window, options
        ) { k, w in
            w.member("section", section)
            w.member("at", requests[k].at)
            w.itemsMember(requests[k].items)
        }
    }

    /// `count` changes of `method` to `layout`, the `k`th's members written by `members(k, &writer)`.
    private func pipelinedMutations(
        _ method: String, count: Int, of layout: String, window: Int, _ options: MutationOptions,
        members: @escaping @Sendable (Int, inout JSONWriter) -> Void
    ) async -> [Result<MutationResult, WaterfallClientError>] {
        await connection.pipeline(
            method, count: count, window: window, timeout: timeout,
            decode: Connection.readMutation, quick: Connection.quickMutation
        ) { k, w in
            Self.writeMutationParams(&w, layout: layout, options) { w in members(k, &w) }
        }
    }
}
