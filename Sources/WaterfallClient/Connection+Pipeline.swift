import Dispatch
import Synchronization
@_spi(Package) import WaterfallJSON

extension Connection {
    /// Sends `count` requests of `method`, the `k`th with the members `params(k, &writer)` writes, keeping at most
    /// `window` of them unanswered, and returns their results in order: what a pipelining raw client does.
    ///
    /// Unlike `count` concurrent `call`s, there is no task, no continuation and no closure per request: the
    /// requests that fit the window are written in one step under the connection's lock, each recorded as its index
    /// into one `PipelineResults`, the reading thread decodes each reply into it as it reads it, and the caller
    /// suspends only while the window is full (woken once a quarter of it is answered, not at every reply).
    /// Cancelling the caller's task stops the sending; the requests not sent fail with `cancelled`, and those sent
    /// are still waited for. `timeout` bounds each request's wait.
    func pipeline<T: Sendable>(
        _ method: String, count: Int, window: Int, timeout: Duration?,
        decode: @escaping @Sendable (JSONNode) throws(WaterfallClientError) -> T,
        quick: QuickRead<T>? = nil, params: (Int, inout JSONWriter) -> Void
    ) async -> [Result<T, WaterfallClientError>] {
        let results = PipelineResults<T>(count: count)
        // One closure for the whole run, made where `T` is known, so that reading an answer runs code specialized
        // for it: a generic method called through a protocol would look up `T`'s metadata for every answer.
        let take: PipelineTake = { k, answer in results.store(k, Self.decoded(answer, method, decode, quick)) }
        let window = max(1, window)
        var sent = 0
        while sent < count {
            if Task.isCancelled {
                for k in sent..<count { _ = results.store(k, .failure(.cancelled(method))) }
                break
            }
            // Room for at least a quarter of the window before writing more, so that a write carries many requests.
            let answered = await results.wait(untilAnswered: min(count, sent - window + max(1, window / 4)))
            let room = min(count - sent, window - (sent - answered))
            let first = sent
            var ids: [Int64] = []
            if timeout != nil { ids.reserveCapacity(room) }
            let (refusal, flushes) = state.withLock { state -> (WaterfallClientError?, Bool) in
                if let failure = state.failure { return (failure, false) }
                // As for a call: with replies on the way, the reading thread sends these after its next read.
                let replyComes = state.replyComes
                for k in first..<(first + room) {
                    let id = nextID.add(1, ordering: .relaxed).oldValue
                    Self.writeRequest(id: id, method: method, params: { params(k, &$0) }, into: &state.outgoing)
                    state.record(id, method, .pipelined(take, k), quick: quick?.kind)
                    if timeout != nil { ids.append(id) }
                }
                return (nil, state.takesWriter(replyComes: replyComes))
            }
            if let refusal {
                for k in first..<count { _ = results.store(k, .failure(refusal)) }
                break
            }
            sent += room
            if flushes { writer.async { self.flush() } }
            if let timeout { endAfter(timeout, ids, method) }
        }
        _ = await results.wait(untilAnswered: count)
        return results.taken()
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
