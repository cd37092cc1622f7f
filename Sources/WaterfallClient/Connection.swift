import Dispatch
import Synchronization
@_spi(Package) import WaterfallJSON
import WaterfallWire

/// One socket to the daemon: requests in flight matched to their replies by id, and events routed to the
/// subscriptions of their layout.
///
/// No blocking call ever runs on Swift's cooperative pool (on two cores it has two threads, and a blocked one
/// freezes every task): a thread of the connection's own connects and then reads until the end, sending after each
/// read, without blocking, the requests made meanwhile; a call that no reply on its way would send (the first after
/// a quiet spell, a pipeline's batch) sends its bytes itself without blocking; a serial dispatch queue writes what a
/// full socket did not take (`Connection+Sending`). Calls only write their bytes and register a continuation.
final class Connection: Sendable {
    /// What a call waits for: the `result` node of its reply, or an error.
    typealias Reply = Result<JSONNode, WaterfallClientError>

    // MARK: Lifecycle

    /// Connects to `path` on a new thread, which then reads the connection until it ends.
    static func open(path: String, maxReplyBytes: Int) async throws(WaterfallClientError) -> Connection {
        let opened: Result<Connection, WaterfallClientError> = await withCheckedContinuation { continuation in
            let failure = Socket.startThread {
                switch Socket.connect(path) {
                case .failure(let error):
                    continuation.resume(returning: .failure(error))
                case .success(let fd):
                    let connection = Connection(path: path, fd: fd, maxReplyBytes: maxReplyBytes)
                    continuation.resume(returning: .success(connection))
                    connection.readUntilEnd()
                }
            }
            if let failure { continuation.resume(returning: .failure(.cannotConnect(path, failure.description))) }
        }
        return try opened.get()
    }

    private init(path: String, fd: Int32, maxReplyBytes: Int) {
        self.path = path
        self.fd = fd
        self.maxReplyBytes = maxReplyBytes
        writer = DispatchQueue(label: "waterfall-client.writer")
    }

    // MARK: Internal

    let path: String

    /// Sends one request, with the members after `method` that `params` writes (`"params": {...}`, or none), and
    /// waits for its reply: its `result` read by `decode` on the connection's thread, from the bytes just read, so
    /// that no reply is parsed into a document of its own. `timeout` bounds the wait.
    ///
    /// The request is written straight into the connection's outgoing bytes (no tree of values, no line of its
    /// own), and the call waits on one continuation; there is no task per call.
    ///
    /// `quick` takes the result of a reply read in one pass: a change's (`QuickReply`), `layout.get`'s
    /// (`FramesStream`).
    func call<T: Sendable>(
        _ method: String, timeout: Duration?, params: (inout JSONWriter) -> Void,
        decode: @escaping @Sendable (JSONNode) throws(WaterfallClientError) -> T,
        quick: QuickRead<T>? = nil
    ) async -> Result<T, WaterfallClientError> {
        await request(method, timeout: timeout, quick: quick?.kind, params: params) { continuation in
            .call { answer in
                let decoded = Self.decoded(answer, method, decode, quick)
                return .resume { continuation.resume(returning: decoded) }
            }
        }
    }

    /// A change's call, as `call` makes it, with its result read in one pass (`QuickReply`) or decoded from the
    /// reply, and its continuation resumed with no closure made for it: most calls of a client that streams
    /// changes are these.
    func mutation(
        _ method: String, timeout: Duration?, params: (inout JSONWriter) -> Void
    ) async -> Result<MutationResult, WaterfallClientError> {
        await request(method, timeout: timeout, quick: .mutation, params: params) { .mutation($0) }
    }

    /// Sends one request with `params` (none when nil) and waits for the `result` node of its reply.
    func call(_ method: String, _ params: JSONValue?, timeout: Duration?) async -> Reply {
        await call(method, timeout: timeout) { w in
            if let params {
                w.key("params")
                w.write(params)
            }
        } decode: { node in
            node
        }
    }

    /// Routes the events of `layout` to `buffer` until the buffer or the connection ends.
    func addSink(_ buffer: EventBuffer, for layout: String) -> Bool {
        state.withLock { state in
            guard state.failure == nil else { return false }
            state.sinks[layout, default: []].append(buffer)
            return true
        }
    }

    /// Stops routing events to `buffer`.
    func removeSink(_ buffer: EventBuffer, for layout: String) {
        state.withLock { $0.sinks[layout]?.removeAll { $0 === buffer } }
    }

    /// Ends the subscriptions to `layout` (after `unsubscribe`, or when the layout is gone).
    func finishSinks(for layout: String) {
        let sinks = state.withLock { $0.sinks.removeValue(forKey: layout) ?? [] }
        for sink in sinks { sink.finish() }
    }

    /// Closes the connection: calls in flight fail, subscriptions end.
    func close() {
        fail(.connectionClosed(path, "was closed by the client"))
        shutDown()
    }

    // MARK: Shared with the pipeline (`Connection+Pipeline`)

    /// What a call does with its reply: run once, on the connection's thread for a reply, or where the call ends
    /// otherwise (cancelled, timed out, the connection over). It decodes the reply and returns what resumes the call,
    /// which the reading thread runs once the read's replies are decoded, or before an event that follows them:
    /// resumed one by one as decoded, the calls' tasks found the pool's queue empty at each resume, and each resume
    /// woke a thread of the pool.
    typealias Completion = @Sendable (Answer) -> Wake
    typealias Resume = @Sendable () -> Void

    /// What resumes a call once its answer is read: a closure, or a change's continuation and its result (the
    /// commonest case, with nothing allocated for it).
    enum Wake: Sendable {
        case resume(Resume)
        case mutation(
            UnsafeContinuation<Result<MutationResult, WaterfallClientError>, Never>,
            Result<MutationResult, WaterfallClientError>)

        func run() {
            switch self {
            case .resume(let resume): resume()
            case .mutation(let continuation, let result): continuation.resume(returning: result)
            }
        }
    }

    /// What ends a call: its reply (or an error in its place), or a result read in one pass, for a call that takes
    /// it so.
    enum Answer: Sendable {
        case reply(Reply)
        /// A change's result, read by `QuickReply`.
        case mutation(MutationResult)
        /// `layout.get`'s result, read by `FramesStream` as the reply came.
        case frames(LayoutFrames)
    }

    /// How a call takes a result read in one pass: a change's call takes a `MutationResult` as
    /// `ReplyDecoding.mutation` reads it, `layout.get`'s the `LayoutFrames` that `ReplyDecoding.frames` reads.
    enum QuickRead<T>: Sendable {
        case mutation(@Sendable (MutationResult) -> T)
        case frames(@Sendable (LayoutFrames) -> T)

        var kind: QuickKind {
            switch self {
            case .mutation: .mutation
            case .frames: .frames
            }
        }
    }

    enum QuickKind { case mutation, frames }

    /// Who takes the answer of a request: a call of its own, or one request of a pipeline, by its index, whose
    /// results share one buffer (no closure per request).
    enum Taker {
        case call(Completion)
        /// A change's call (`mutation`), resumed with its result.
        case mutation(UnsafeContinuation<Result<MutationResult, WaterfallClientError>, Never>)
        case pipelined(PipelineTake, Int)
    }

    /// Takes the answer of a pipeline's request `k`; returns what wakes the pipeline's caller, if anything.
    typealias PipelineTake = @Sendable (_ k: Int, Answer) -> Resume?

    struct Pending {
        var method: String
        var taker: Taker
        /// The result read in one pass that the call takes, if any.
        var quick: QuickKind?

        /// Hands `answer` to the call; returns what resumes it, nil when nothing waits for this answer alone.
        func complete(_ answer: Answer) -> Wake? {
            switch taker {
            case .call(let completion): completion(answer)
            case .mutation(let continuation):
                .mutation(
                    continuation, Connection.decoded(answer, method, Connection.readMutation, Connection.quickMutation))
            case .pipelined(let take, let k): take(k, answer).map(Wake.resume)
            }
        }
    }

    struct State {
        /// The requests written and not yet answered, in wire order.
        var inFlight = InFlightCalls<Pending>()
        /// The pipelines that have requests to send (`Connection+Pipeline`).
        var feeds: [PipelineFeed] = []
        /// Requests cancelled before they were registered.
        var cancelled: Set<Int64> = []
        var sinks: [String: [EventBuffer]] = [:]
        /// Set once the connection is over: every later call fails with it.
        var failure: WaterfallClientError?
        /// The descriptor is shut down, or closed (then its number may belong to another file).
        var isShutDown = false
        var isDescriptorClosed = false
        /// Request lines not yet sent, and how many.
        var outgoing = JSONWriter(capacity: 4_096)
        var queued = 0
        /// A sender holds the connection's sending buffer (`sendQueued`, or the writer's queue, which has a flush on
        /// its way or is sending): `outgoing` is then left to it, and sent in order.
        var isSending = false
        /// The connection is over and its descriptor waits for the sender to let go before it is closed.
        var closesAfterSending = false

        /// A request is sent and not answered: its reply will wake the reading thread, which then sends what has
        /// gathered after its read (no hop to the writer's thread for each batch).
        var replyComes: Bool { inFlight.count > queued }

        /// Records the call of request `id`, just written into `outgoing` (in wire order: one flush sends whatever
        /// has gathered by the time it runs).
        mutating func record(_ id: Int64, _ method: String, _ taker: Taker, quick: QuickKind? = nil) {
            inFlight.append(id: id, Pending(method: method, taker: taker, quick: quick))
            queued += 1
        }

        /// The sender lets go of the sending buffer, closing the descriptor if the connection ended meanwhile.
        mutating func stopSending(_ fd: Int32) {
            isSending = false
            if closesAfterSending { closeDescriptor(fd) }
        }

        mutating func closeDescriptor(_ fd: Int32) {
            guard !isDescriptorClosed else { return }
            isDescriptorClosed = true
            Socket.close(fd)
        }

        /// Moves the requests queued into `buffer` (empty), leaving it `outgoing` for the next ones; false when there
        /// are none to send, or the descriptor is closed.
        mutating func takeOutgoing(into buffer: inout JSONWriter) -> Bool {
            guard outgoing.byteCount > 0, !isDescriptorClosed else { return false }
            swap(&outgoing, &buffer)
            queued = 0
            return true
        }
    }

    let writer: DispatchQueue
    let fd: Int32
    /// The bytes being sent, held by one sender at a time (`State.isSending`).
    let sending = SendBuffer()
    let nextID = Atomic<Int64>(1)
    let state = Mutex(State())

    /// Ends the call of request `id` before its reply (a timeout); its reply, when it comes, is dropped.
    func end(_ id: Int64, _ error: WaterfallClientError) {
        let pending = state.withLock { $0.inFlight.end(id) }
        pending?.complete(.reply(.failure(error)))?.run()
    }

    /// Ends the calls of requests `ids` with a timeout error once `timeout` has passed without their replies.
    func endAfter(_ timeout: Duration, _ ids: [Int64], _ method: String) {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        // Weak: a closed connection must not wait for its timers to be released.
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            guard let self else { return }
            for id in ids { end(id, .timeout(method, seconds)) }
            // The ended requests of a pipeline leave room in its window that no read may come to fill.
            feedPipelines()
            sendQueued()
        }
    }

    /// The result of a call that `answer` ends: its reply decoded, or a result read in one pass taken by `quick`.
    static func decoded<T>(
        _ answer: Answer, _ method: String, _ decode: (JSONNode) throws(WaterfallClientError) -> T,
        _ quick: QuickRead<T>?
    ) -> Result<T, WaterfallClientError> {
        switch answer {
        case .reply(let reply):
            return reply.flatMap { node in Result { () throws(WaterfallClientError) in try decode(node) } }
                .mapError { $0.naming(method) }
        case .mutation(let result):
            // Only a call recorded as taking a mutation's result gets one (`Pending.quick`).
            guard case .mutation(let take) = quick else {
                return .failure(.badReply(method, "a change's result for a call that reads another"))
            }
            return .success(take(result))
        case .frames(let frames):
            guard case .frames(let take) = quick else {
                return .failure(.badReply(method, "layout.get's result for a call that reads another"))
            }
            return .success(take(frames))
        }
    }

    /// How a change's call reads its reply: any reply by `ReplyDecoding.mutation`, and one that `QuickReply` reads
    /// as it is.
    static let readMutation = ReplyDecoding.client(ReplyDecoding.mutation)
    static let quickMutation = QuickRead<MutationResult>.mutation { $0 }

    // MARK: Private

    /// Writes one request into the outgoing bytes, records its call (`taker` made of the call's continuation) and
    /// waits on that continuation: the body of `call` and of `mutation`.
    private func request<T: Sendable>(
        _ method: String, timeout: Duration?, quick: QuickKind?, params: (inout JSONWriter) -> Void,
        taker: (UnsafeContinuation<Result<T, WaterfallClientError>, Never>) -> Taker
    ) async -> Result<T, WaterfallClientError> {
        let id = nextID.add(1, ordering: .relaxed).oldValue
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Result<T, WaterfallClientError>, Never>) in
                let (refusal, sends) = state.withLock { state -> (WaterfallClientError?, Bool) in
                    if let failure = state.failure { return (failure, false) }
                    if state.cancelled.remove(id) != nil { return (.cancelled(method), false) }
                    let replyComes = state.replyComes
                    Self.writeRequest(id: id, method: method, params: params, into: &state.outgoing)
                    state.record(id, method, taker(continuation), quick: quick)
                    return (nil, !replyComes && !state.isSending)
                }
                if let refusal { return continuation.resume(returning: .failure(refusal)) }
                // No reply on its way will wake the reading thread to send this: the call sends it.
                if sends { sendQueued() }
                if let timeout { endAfter(timeout, [id], method) }
            }
        } onCancel: {
            let pending = state.withLock { state -> Pending? in
                guard let pending = state.inFlight.end(id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return pending
            }
            pending?.complete(.reply(.failure(.cancelled(method))))?.run()
        }
    }

    private let maxReplyBytes: Int

    /// Wakes the reading thread (end of input) and any blocked write, once, and never after the descriptor is
    /// closed: its number may by then be another connection's.
    private func shutDown() {
        state.withLock { state in
            guard !state.isShutDown, !state.isDescriptorClosed else { return }
            state.isShutDown = true
            Socket.shutdown(fd)
        }
    }

    /// A write failed: the connection is over.
    func failed(_ failure: SocketError) {
        fail(.connectionClosed(path, "failed: \(failure)"))
        shutDown()
    }

    /// On the connection's thread: reads and dispatches lines until the end, then fails what is left.
    private func readUntilEnd() {
        var framer = LineFramer(maxLineBytes: maxReplyBytes)
        // One reader for every line: its buffers are reused while no reply's node outlives its call's decoding.
        var reader = JSONReader()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var resumes: [Wake] = []
        var changes: [QuickChange] = []
        var stream = LineStream.none
        var reason = "was closed by the daemon"
        while true {
            let count = buffer.withUnsafeMutableBytes { Socket.read(fd, $0) }
            if case .failure(let error) = count {
                reason = "failed: \(error)"
                break
            }
            guard case .success(let n) = count, n > 0 else { break }
            for line in framer.append(buffer[..<n]) {
                // Only the first line a read ends is the one read on so far.
                let read = stream
                stream = .none
                switch line {
                case .line(let bytes):
                    // A change's result, read in one pass, for a call that takes it so; any other line is read in
                    // full, after the results before it are handed over.
                    if case .reading(var frames) = read {
                        settle(&changes, &reader, &resumes)
                        if finish(&frames, bytes, &resumes) { continue }
                    } else if let (id, result) = QuickReply.mutation(bytes) {
                        changes.append(QuickChange(bytes: bytes, id: id, result: result))
                        continue
                    }
                    settle(&changes, &reader, &resumes)
                    dispatch(bytes, &reader, &resumes)
                case .tooLarge:
                    settle(&changes, &reader, &resumes)
                    answer(nil, .failure(.unreadable("a line over \(maxReplyBytes) bytes")), &resumes)
                }
            }
            settle(&changes, &reader, &resumes)
            readOn(&stream, framer)
            Self.resumeAll(&resumes)
            feedPipelines()
            sendQueued()
        }
        fail(.connectionClosed(path, reason))
        // Closed on the writer's queue, after every write queued before, or by the sender that holds the buffer
        // when it lets go: a send must never meet the number of a descriptor closed and opened again.
        writer.async {
            self.state.withLock { state in
                if state.isSending {
                    state.closesAfterSending = true
                } else {
                    state.closeDescriptor(self.fd)
                }
            }
        }
    }

    /// A reply line that `QuickReply` read as a change's result.
    private struct QuickChange {
        var bytes: ArraySlice<UInt8>
        var id: Int64
        var result: MutationResult
    }

    /// Hands the changes' results read in one pass to their calls, matched under one lock for the whole run of
    /// them (taken at every reply, the lock was contended with the calls writing their requests, and a contended
    /// lock sleeps); a reply whose call does not take it so is read in full.
    private func settle(_ changes: inout [QuickChange], _ reader: inout JSONReader, _ resumes: inout [Wake]) {
        guard !changes.isEmpty else { return }
        let calls = state.withLock { state in
            changes.map { change in state.inFlight.answer(change.id, ifItsCall: { $0.quick == .mutation })?.call }
        }
        for (change, call) in zip(changes, calls) {
            guard let call else {
                dispatch(change.bytes, &reader, &resumes)
                continue
            }
            if let wake = call.complete(.mutation(change.result)) { resumes.append(wake) }
        }
        changes.removeAll(keepingCapacity: true)
    }

    /// Hands one line, read in full, to its call or its subscriptions.
    private func dispatch(_ bytes: ArraySlice<UInt8>, _ reader: inout JSONReader, _ resumes: inout [Wake]) {
        let root: JSONNode
        do {
            root = try reader.parse(bytes).root
        } catch {
            return answer(nil, .failure(.unreadable("not JSON (\(error))")), &resumes)
        }
        if root["method"] != nil && root["id"] == nil {
            // The calls whose replies came before the event resume before it is routed, in the wire's order.
            Self.resumeAll(&resumes)
            return route(event: root)
        }
        // A reply with `"id": null` (a line the daemon could not read) answers the oldest request.
        answer(root["id"]?.int64, Self.reply(root), &resumes)
    }

    /// Resumes the calls answered so far, in the order their replies came.
    private static func resumeAll(_ resumes: inout [Wake]) {
        for wake in resumes { wake.run() }
        resumes.removeAll(keepingCapacity: true)
    }

    /// The result or error of a reply line.
    private static func reply(_ root: JSONNode) -> Reply {
        if let error = root["error"] {
            let message = error["message"]?.string ?? "(no message)"
            return .failure(
                WaterfallClientError(
                    source: .daemon, kind: error["data"]?["kind"]?.string ?? "unknown", code: error["code"]?.int ?? 0,
                    message: message))
        }
        guard let result = root["result"] else { return .failure(.unreadable("neither result nor error")) }
        return .success(result)
    }

    private func route(event root: JSONNode) {
        // A notification this client does not know (a later daemon's) is not an error: it is skipped.
        guard let method = root["method"], LayoutEvent.methods.contains(where: { method.isEqual(to: $0) }) else {
            return
        }
        let event = Result { () throws(WaterfallClientError) in try LayoutEvent(notification: root) }
        guard let layout = root["params"]?["layout"]?.string else { return }
        let sinks = state.withLock { $0.sinks[layout] ?? [] }
        for sink in sinks { sink.push(event) }
        switch event {
        case .success(.dropped), .success(.overflow):
            // The daemon has ended the subscription: so do its sequences.
            finishSinks(for: layout)
        default:
            break
        }
    }

    /// Decodes the reply of the call it answers (the request `id`, or the oldest one when the reply has no id), and
    /// adds what resumes that call to `resumes`.
    private func answer(_ id: Int64?, _ reply: Reply, _ resumes: inout [Wake]) {
        let pending = state.withLock { state in
            (id.map { state.inFlight.answer($0) } ?? state.inFlight.answerOldest())?.call
        }
        if let resume = pending?.complete(.reply(reply)) { resumes.append(resume) }
    }

    /// Records the end of the connection (the first reason wins) and fails everything waiting.
    private func fail(_ error: WaterfallClientError) {
        let (failure, pending, sinks) = state.withLock { state in
            if state.failure == nil { state.failure = error }
            let sinks = state.sinks.values.flatMap { $0 }
            state.sinks = [:]
            return (state.failure ?? error, state.inFlight.removeAll(), sinks)
        }
        for call in pending { call.complete(.reply(.failure(failure)))?.run() }
        stopPipelines(failure)
        for sink in sinks { sink.finish() }
    }
}
