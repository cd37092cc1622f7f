import Dispatch
import Synchronization
@_spi(Package) import WaterfallJSON

extension Connection {
    /// Sends `count` requests of `method`, the `k`th with the members `params(k, &writer)` writes, keeping at most
    /// `window` of them unanswered, and returns their results in order: what a pipelining raw client does.
    ///
    /// Unlike `count` concurrent `call`s, there is no task, no continuation and no closure per request, and the
    /// caller suspends once: it writes the first window's requests and sends them; from then on the reading thread,
    /// after each read, decodes each reply into one `PipelineResults` and writes as many new requests as replies
    /// came, sent in the same write as any other call's (`PipelineFeed`), as a raw client's loop does. Cancelling
    /// the caller's task stops the sending; the requests not sent fail with `cancelled`, and those sent are still
    /// waited for. `timeout` bounds each request's wait.
    func pipeline<T: Sendable>(
        _ method: String, count: Int, window: Int, timeout: Duration?,
        decode: @escaping @Sendable (JSONNode) throws(WaterfallClientError) -> T,
        quick: QuickRead<T>? = nil, params: @escaping @Sendable (Int, inout JSONWriter) -> Void
    ) async -> [Result<T, WaterfallClientError>] {
        let results = PipelineResults<T>(count: count)
        // One closure for the whole run, made where `T` is known, so that reading an answer runs code specialized
        // for it: a generic method called through a protocol would look up `T`'s metadata for every answer.
        let take: PipelineTake = { k, answer in results.store(k, Self.decoded(answer, method, decode, quick)) }
        let feed = PipelineFeed(
            method: method, count: count, window: max(1, window), timeout: timeout, quick: quick?.kind, take: take,
            answered: { results.answeredCount }, params: params)
        await withTaskCancellationHandler {
            start(feed)
            _ = await results.wait(untilAnswered: count)
        } onCancel: {
            stop(feed, .cancelled(method))
        }
        return results.taken()
    }

    /// After a read: writes the requests of every pipeline that its replies made room for, to leave in the same
    /// write as the calls' requests.
    func feedPipelines() {
        let timers = state.withLock { state -> [Timer] in
            guard !state.feeds.isEmpty else { return [] }
            var timers: [Timer] = []
            for feed in state.feeds { feed.writeRoom(into: &state, self, &timers) }
            state.feeds.removeAll { $0.sent == $0.count }
            return timers
        }
        for timer in timers { endAfter(timer.timeout, timer.ids, timer.method) }
    }

    /// Ends the sending of the pipelines (the connection is over): their requests not sent fail with `error`.
    func stopPipelines(_ error: WaterfallClientError) {
        for feed in state.withLock({ state in state.feeds }) { stop(feed, error) }
    }

    // MARK: Private

    /// Requests `ids` of `method` end with a timeout error once `timeout` has passed.
    fileprivate struct Timer {
        var timeout: Duration
        var ids: [Int64]
        var method: String
    }

    /// Writes the first window's requests of `feed` and sends them, unless the connection is over or the run
    /// cancelled.
    private func start(_ feed: PipelineFeed) {
        var timers: [Timer] = []
        let refusal = state.withLock { state -> WaterfallClientError? in
            if let failure = state.failure { return failure }
            // Cancelled before it started: `stop` has failed every request.
            guard feed.sent < feed.count else { return nil }
            feed.writeRoom(into: &state, self, &timers)
            if feed.sent < feed.count { state.feeds.append(feed) }
            return nil
        }
        if let refusal { return stop(feed, refusal) }
        for timer in timers { endAfter(timer.timeout, timer.ids, timer.method) }
        // Sent at once, in one write, rather than after the reading thread's next read.
        sendQueued()
    }

    /// Stops the sending of `feed`: its requests not sent fail with `error`.
    private func stop(_ feed: PipelineFeed, _ error: WaterfallClientError) {
        let unsent = state.withLock { state -> Range<Int> in
            state.feeds.removeAll { $0 === feed }
            defer { feed.sent = feed.count }
            return feed.sent..<feed.count
        }
        for k in unsent { feed.take(k, .reply(.failure(error)))?() }
    }
}

/// What a pipelined run still has to send, and how: written into the connection's outgoing bytes as its window
/// has room, by the caller at first and then by the reading thread after each read.
///
/// `sent` changes only under the connection's lock (`Connection.state`).
final class PipelineFeed: @unchecked Sendable {
    let method: String
    let count: Int
    let window: Int
    let timeout: Duration?
    let quick: Connection.QuickKind?
    let take: Connection.PipelineTake
    /// How many requests have their result (`PipelineResults.answeredCount`).
    let answered: @Sendable () -> Int
    let params: @Sendable (Int, inout JSONWriter) -> Void
    /// The requests written so far (all of them once the run is stopped).
    var sent = 0

    init(
        method: String, count: Int, window: Int, timeout: Duration?, quick: Connection.QuickKind?,
        take: @escaping Connection.PipelineTake, answered: @escaping @Sendable () -> Int,
        params: @escaping @Sendable (Int, inout JSONWriter) -> Void
    ) {
        self.method = method
        self.count = count
        self.window = window
        self.timeout = timeout
        self.quick = quick
        self.take = take
        self.answered = answered
        self.params = params
    }

    /// Under the connection's lock: writes the requests that the window has room for into `state.outgoing`, each
    /// recorded as its index, and adds their timer to `timers` when the run has a timeout.
    fileprivate func writeRoom(
        into state: inout Connection.State, _ connection: Connection, _ timers: inout [Connection.Timer]
    ) {
        let room = min(count - sent, window - (sent - answered()))
        guard room > 0 else { return }
        var ids: [Int64] = []
        if timeout != nil { ids.reserveCapacity(room) }
        for k in sent..<(sent + room) {
            let id = connection.nextID.add(1, ordering: .relaxed).oldValue
            Connection.writeRequest(id: id, method: method, params: { params(k, &$0) }, into: &state.outgoing)
            state.record(id, method, .pipelined(take, k), quick: quick)
            if timeout != nil { ids.append(id) }
        }
        sent += room
        if let timeout { timers.append(Connection.Timer(timeout: timeout, ids: ids, method: method)) }
    }
}

/// The results of a pipelined run of requests, stored by the reading thread as their replies are decoded, and the
/// one caller waiting for some number of them.
final class PipelineResults<T: Sendable>: Sendable {
    private struct State {
        /// Each request's result: a placeholder until its answer is stored (`isAnswered`), so that the caller takes
        /// the array as it is, with no copy of each result.
        var results: [Result<T, WaterfallClientError>]
        var isAnswered: [Bool]
        var answered = 0
        var waiter: UnsafeContinuation<Int, Never>?
        var wakeAt = 0
    }

    private let state: Mutex<State>

    init(count: Int) {
        state = Mutex(
            State(
                results: Array(repeating: .failure(.unreadable("no reply")), count: count),
                isAnswered: Array(repeating: false, count: count)))
    }

    /// Stores the result of request `k`; returns what wakes the caller when enough are answered.
    func store(_ k: Int, _ result: Result<T, WaterfallClientError>) -> Connection.Resume? {
        let woken = state.withLock { state -> (UnsafeContinuation<Int, Never>, Int)? in
            guard !state.isAnswered[k] else { return nil }
            state.isAnswered[k] = true
            state.results[k] = result
            state.answered += 1
            guard let waiter = state.waiter, state.answered >= state.wakeAt else { return nil }
            state.waiter = nil
            return (waiter, state.answered)
        }
        guard let (waiter, answered) = woken else { return nil }
        return { waiter.resume(returning: answered) }
    }

    /// How many requests have their result.
    var answeredCount: Int { state.withLock { $0.answered } }

    /// Waits until at least `count` requests are answered; returns how many are.
    func wait(untilAnswered count: Int) async -> Int {
        if let answered = state.withLock({ $0.answered >= count ? $0.answered : nil }) { return answered }
        return await withUnsafeContinuation { continuation in
            let answered = state.withLock { state -> Int? in
                if state.answered >= count { return state.answered }
                state.waiter = continuation
                state.wakeAt = count
                return nil
            }
            if let answered { continuation.resume(returning: answered) }
        }
    }

    /// The results, every request being answered; called once, at the end.
    func taken() -> [Result<T, WaterfallClientError>] {
        state.withLock { state in
            var results: [Result<T, WaterfallClientError>] = []
            swap(&results, &state.results)
            return results
        }
    }
}
