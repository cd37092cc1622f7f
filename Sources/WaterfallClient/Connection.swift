import Dispatch
import Synchronization
import WaterfallJSON
import WaterfallProtocol

/// One socket to the daemon: requests in flight matched to their replies by id, and events routed to the
/// subscriptions of their layout.
///
/// No blocking call ever runs on Swift's cooperative pool (on two cores it has two threads, and a blocked one
/// freezes every task): a thread of the connection's own connects and then reads until the end, and a serial
/// dispatch queue writes. Calls only register a continuation and enqueue their bytes.
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

    /// Sends one request and waits for its reply; `timeout` bounds the wait.
    func call(_ method: String, _ params: JSONValue?, timeout: Duration?) async -> Reply {
        let id = state.withLock { state -> Int64 in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let line = Self.requestLine(id: id, method: method, params: params)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
                let (refusal, flushes) = state.withLock { state -> (WaterfallClientError?, Bool) in
                    if let failure = state.failure { return (failure, false) }
                    if state.cancelled.remove(id) != nil { return (.cancelled(method), false) }
                    state.pending[id] = Pending(method: method, continuation: continuation)
                    // Queued in wire order; one flush sends whatever has gathered by the time it runs.
                    state.outgoing.append(contentsOf: line)
                    state.written.append(id)
                    defer { state.isFlushScheduled = true }
                    return (nil, !state.isFlushScheduled)
                }
                if let refusal { return continuation.resume(returning: .failure(refusal)) }
                if flushes { writer.async { self.flush() } }
                if let timeout {
                    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
                    // Weak: a closed connection must not wait for its timers to be released.
                    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
                        self?.complete(id, .failure(.timeout(method, seconds)))
                    }
                }
            }
        } onCancel: {
            let pending = state.withLock { state -> Pending? in
                guard let pending = state.pending.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return pending
            }
            pending?.continuation.resume(returning: .failure(.cancelled(method)))
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

    // MARK: Private

    fileprivate struct Pending {
        var method: String
        var continuation: CheckedContinuation<Reply, Never>
    }

    fileprivate struct State {
        var nextID: Int64 = 1
        var pending: [Int64: Pending] = [:]
        /// Requests cancelled before they were registered.
        var cancelled: Set<Int64> = []
        /// The ids in the order they were written, to match a reply with `"id": null` (a line the daemon could not
        /// read, answered in order) to its request.
        /// Answered from `writtenHead` on: replies come in order, so the front is answered first (amortized O(1)).
        var written: [Int64] = []
        var writtenHead = 0
        var sinks: [String: [EventBuffer]] = [:]
        /// Set once the connection is over: every later call fails with it.
        var failure: WaterfallClientError?
        /// The descriptor is shut down, or closed (then its number may belong to another file).
        var isShutDown = false
        var isDescriptorClosed = false
        /// Request lines not yet handed to the writer, and whether a flush is on its way.
        var outgoing: [UInt8] = []
        var isFlushScheduled = false
    }

    private let fd: Int32
    private let maxReplyBytes: Int
    private let writer: DispatchQueue
    private let state = Mutex(State())

    /// Wakes the reading thread (end of input) and any blocked write, once, and never after the descriptor is
    /// closed: its number may by then be another connection's.
    private func shutDown() {
        state.withLock { state in
            guard !state.isShutDown, !state.isDescriptorClosed else { return }
            state.isShutDown = true
            Socket.shutdown(fd)
        }
    }

    /// A request line and its newline.
    private static func requestLine(id: Int64, method: String, params: JSONValue?) -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [
            ("jsonrpc", "2.0"), ("id", .int(id)), ("method", .string(method)),
        ]
        if let params { members.append(("params", params)) }
        var w = JSONWriter(capacity: 256)
        w.write(.object(members))
        w.newline()
        return w.takeBytes()
    }

    /// On `writer`: sends every request queued since the last flush, in one write when they fit one (calls made
    /// together, as a pipelining client makes them, then cost one system call, not one each).
    private func flush() {
        let (bytes, isClosed) = state.withLock { state -> ([UInt8], Bool) in
            state.isFlushScheduled = false
            var taken: [UInt8] = []
            swap(&taken, &state.outgoing)
            return (taken, state.isDescriptorClosed)
        }
        guard !isClosed, !bytes.isEmpty else { return }
        if let error = bytes.withUnsafeBytes({ Socket.sendAll(fd, $0) }) {
            fail(.connectionClosed(path, "failed: \(error)"))
            shutDown()
        }
    }

    /// On the connection's thread: reads and dispatches lines until the end, then fails what is left.
    private func readUntilEnd() {
        var framer = LineFramer(maxLineBytes: maxReplyBytes)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var reason = "was closed by the daemon"
        while true {
            let count = buffer.withUnsafeMutableBytes { Socket.read(fd, $0) }
            if case .failure(let error) = count {
                reason = "failed: \(error)"
                break
            }
            guard case .success(let n) = count, n > 0 else { break }
            for line in framer.append(buffer[..<n]) {
                switch line {
                case .line(let bytes): dispatch(bytes)
                case .tooLarge: completeOldest(.failure(.unreadable("a line over \(maxReplyBytes) bytes")))
                }
            }
        }
        fail(.connectionClosed(path, reason))
        // Closed on the writer's queue, after every write queued before.
        writer.async {
            self.state.withLock { state in
                state.isDescriptorClosed = true
                Socket.close(self.fd)
            }
        }
    }

    /// Hands one line to its call or its subscriptions.
    private func dispatch(_ bytes: ArraySlice<UInt8>) {
        let root: JSONNode
        do {
            root = try JSONDocument(parsing: bytes).root
        } catch {
            return completeOldest(.failure(.unreadable("not JSON (\(error))")))
        }
        if root["method"] != nil && root["id"] == nil {
            return route(event: root)
        }
        let reply = Self.reply(root)
        if let id = root["id"]?.int64 { complete(id, reply) } else { completeOldest(reply) }
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

    private func complete(_ id: Int64, _ reply: Reply) {
        let pending = state.withLock { state -> Pending? in
            let pending = state.pending.removeValue(forKey: id)
            state.dropAnswered()
            return pending
        }
        guard let pending else { return }
        pending.continuation.resume(
            returning: reply.mapError { $0.source == .reply ? .badReply(pending.method, $0.message) : $0 })
    }

    /// Completes the oldest request written and not yet answered (replies come in the order of requests).
    private func completeOldest(_ reply: Reply) {
        let id = state.withLock { state -> Int64? in
            state.dropAnswered()
            return state.writtenHead < state.written.count ? state.written[state.writtenHead] : nil
        }
        if let id { complete(id, reply) }
    }

    /// Records the end of the connection (the first reason wins) and fails everything waiting.
    private func fail(_ error: WaterfallClientError) {
        let (pending, sinks) = state.withLock { state in
            if state.failure == nil { state.failure = error }
            let pending = Array(state.pending.values)
            let sinks = state.sinks.values.flatMap { $0 }
            state.pending = [:]
            state.sinks = [:]
            return (pending, sinks)
        }
        let failure = state.withLock { $0.failure } ?? error
        for call in pending { call.continuation.resume(returning: .failure(failure)) }
        for sink in sinks { sink.finish() }
    }
}

extension Connection.State {
    /// Drops the answered ids at the front of `written`.
    fileprivate mutating func dropAnswered() {
        while writtenHead < written.count, pending[written[writtenHead]] == nil { writtenHead += 1 }
        if writtenHead > 1024, writtenHead * 2 > written.count {
            written.removeFirst(writtenHead)
            writtenHead = 0
        }
    }
}
