import Dispatch
import Glibc
import Synchronization
import WaterfallProtocol

/// One accepted client: reads and frames its requests, hands them to its session, writes the replies in order.
///
/// Reading and writing run on dispatch sources on the connection's own serial queue, and so does the session's
/// `prepare` (parsing, decoding); the work it returns runs in a task. One read's work runs at a time, in order,
/// which keeps replies in request order; while it runs, the next read is taken and prepared, and then waits with
/// reading suspended. So a pipelining client has its next requests decoded on this thread while the last ones run,
/// and the daemon never holds more than one read ahead. The rules of all this are `ConnectionState`'s: each event
/// here is one of its transitions, under the lock, and this class does what the transition returns. A reply's
/// producer waits (`waitForRoom`) while the client has `outputPauseBytes` unsent, and every waiter is released, with
/// false, when the connection closes, so that work for a departed client stops at its next chunk.
/// `@unchecked` only because Dispatch does not mark its sources Sendable; libdispatch documents them as
/// thread-safe, and every other field is immutable or inside the mutex.
final class Connection: OutputSink, @unchecked Sendable {
    // MARK: Lifecycle

    /// Wraps an accepted, non-blocking socket; nothing happens until `start(session:)`.
    init(fd: Int32, peer: PeerCredentials, context: TransportContext) {
        self.fd = fd
        self.peer = peer
        self.context = context
        self.id = context.nextConnectionID()
        let queue = DispatchQueue(label: "waterfalld.connection.\(id)")
        self.readSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        self.writeSource = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
        self.state = Mutex(State())
        self.framer = Mutex(LineFramer(maxLineBytes: context.limits.maxLineBytes))
    }

    // MARK: Internal

    let id: UInt64
    let peer: PeerCredentials

    var pendingBytes: Int { state.withLock { $0.output.count + $0.heldBytes } }

    var isClosed: Bool { closed.load(ordering: .acquiring) }

    var hasRoom: Bool {
        let pauseBytes = context.limits.outputPauseBytes
        return state.withLock { $0.output.count < pauseBytes }
    }

    func waitForRoom() async -> Bool {
        let pauseBytes = context.limits.outputPauseBytes
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let now = state.withLock { state -> Bool? in
                if state.machine.phase == .closed { return false }
                if state.output.count < pauseBytes { return true }
                state.roomWaiters.append(continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Attaches the session and starts reading.
    func start(session: any Session) {
        readSource.setEventHandler { [self] in readable() }
        writeSource.setEventHandler { [self] in writable() }
        readSource.setCancelHandler { [self] in sourceDidCancel() }
        writeSource.setCancelHandler { [self] in sourceDidCancel() }
        transition { state in
            state.session = session
            return state.machine.started()
        }
    }

    /// Sends notifications (events); while a reply is being produced they are held, and follow its last chunk.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        queue(bytes, from: .event)
    }

    @discardableResult
    func sendReplies(_ bytes: [UInt8], endingInsideAReply: Bool) -> Bool {
        queue(bytes, from: endingInsideAReply ? .replyPart : .replies)
    }

    /// Stops reading and closes once the reply in progress and all queued output are written.
    func close() {
        transition { state in state.machine.drain(reason: "closed by the server", unsent: state.output.count) }
    }

    /// Closes at once, dropping unsent output (shutdown past its deadline).
    func abort(reason: String) {
        transition { state in state.machine.close(reason: reason) }
    }

    /// Closes the connection if its pending output has made no progress for `outputStallSeconds`.
    func closeIfStalled(now: UInt64, stallSeconds: Double) {
        transition { state in
            guard state.machine.phase != .closed, !state.output.isEmpty,
                Double(now &- state.lastProgress) / 1e9 > stallSeconds
            else { return Actions() }
            context.counters.connectionsClosedSlow.add(1)
            return state.machine.close(reason: "no output progress for \(stallSeconds) s")
        }
    }

    // MARK: Private

    private typealias Actions = ConnectionState<SessionWork>.Actions

    /// What a send carries.
    private enum Output {
        /// Whole notification lines.
        case event
        /// Whole reply lines.
        case replies
        /// Reply lines, the last of them unfinished.
        case replyPart
    }

    /// Queues bytes and writes what the socket takes. Events that come while a reply is unfinished wait behind it.
    private func queue(_ bytes: [UInt8], from source: Output) -> Bool {
        let limits = context.limits
        var accepted = true
        transition { state in
            guard state.machine.phase != .closed else {
                accepted = false
                return Actions()
            }
            guard !bytes.isEmpty else { return Actions() }
            switch source {
            case .event where state.replyOpen:
                state.held.append(bytes)
                state.heldBytes += bytes.count
                return Actions()
            case .event:
                break
            case .replies:
                state.replyOpen = false
            case .replyPart:
                state.replyOpen = true
            }
            if state.output.isEmpty { state.lastProgress = Self.now() }
            // No limit here on what is queued: a reply's producer waits for room (`waitForRoom`) and events have
            // the subscriber's limit, so a client that reads is never closed, however large its replies; one that
            // stops reading is paused, then closed by the stall check.
            state.output.append(bytes)
            if !state.replyOpen, !state.held.isEmpty {
                for event in state.held { state.output.append(event) }
                state.held = []
                state.heldBytes = 0
            }
            guard !state.machine.isWriteArmed else { return Actions() }
            let actions = state.machine.flushed(flush(&state), unsent: state.output.count, limits: limits.output)
            if actions.close != nil { accepted = false }
            return actions
        }
        return accepted
    }

    private struct State {
        var machine = ConnectionState<SessionWork>()
        var output = OutputQueue()
        var session: (any Session)?
        var lastProgress: UInt64 = 0
        /// The read source starts inactive: its first resume is an `activate()`.
        var readActivated = false
        /// A reply is partly queued: events wait in `held` until its end is.
        var replyOpen = false
        var held: [[UInt8]] = []
        var heldBytes = 0
        /// Producers of replies waiting for the client to read (`waitForRoom`).
        var roomWaiters: [CheckedContinuation<Bool, Never>] = []
    }

    /// Under 64 KiB with the array's header, so that the per-read copy comes from the heap: `MemoryTuning` has
    /// blocks of 64 KiB and more mapped fresh, which would cost a page fault per 4 KiB on every read.
    private static let readChunkBytes = 60 * 1024
    /// Reads per readable event: enough to batch a pipelining client, few enough to stay fair to others.
    private static let readsPerEvent = 4

    private let fd: Int32
    private let context: TransportContext
    private let readSource: any DispatchSourceRead
    private let writeSource: any DispatchSourceWrite
    private let state: Mutex<State>
    /// Set once the connection closes, for work to check between requests without taking the lock.
    private let closed = Atomic<Bool>(false)
    /// Apart from `state`: framing a read takes a while, and replies are sent under `state` from the task that
    /// runs the work meanwhile (a send that waited for it slept in the kernel).
    private let framer: Mutex<LineFramer>

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Runs one transition of the state machine under the lock and does what it says: the sources' calls under the
    /// lock (so they stay in the order of the transitions), the session's close after it.
    private func transition(_ body: (inout State) -> Actions) {
        let (session, waiters, room) = state.withLock {
            state -> ((any Session)?, [CheckedContinuation<Bool, Never>], Bool) in
            let actions = body(&state)
            perform(actions, &state)
            let session = actions.closeSession ? state.session : nil
            // A producer waiting for room goes on once the client has read down to the resume threshold, and stops
            // when the connection closes. (The limits' lock only when someone waits: taken on every transition, by
            // both threads, it was contended.)
            guard !state.roomWaiters.isEmpty else { return (session, [], false) }
            let isClosed = state.machine.phase == .closed
            guard isClosed || state.output.count < context.limits.outputResumeBytes else {
                return (session, [], false)
            }
            defer { state.roomWaiters = [] }
            return (session, state.roomWaiters, !isClosed)
        }
        for waiter in waiters { waiter.resume(returning: room) }
        if let session {
            Task {
                await session.close()
                context.unregister(self)
            }
        }
    }

    private func perform(_ actions: Actions, _ state: inout State) {
        if actions.resumeReading {
            if state.readActivated {
                readSource.resume()
            } else {
                state.readActivated = true
                readSource.activate()
            }
        }
        if actions.suspendReading { readSource.suspend() }
        if actions.armWriting { writeSource.resume() }
        if actions.disarmWriting { writeSource.suspend() }
        if let work = actions.start {
            Task {
                let reply = await work()
                sendReplies(reply, endingInsideAReply: false)
                workDidFinish()
            }
        }
        if let close = actions.close {
            closed.store(true, ordering: .releasing)
            state.output.removeAll()
            state.held = []
            state.heldBytes = 0
            framer.withLock { $0.reset() }
            readSource.cancel()
            writeSource.cancel()
            // A suspended or never-activated source neither runs its cancel handler nor may be released.
            if close.resumeRead {
                if state.readActivated {
                    readSource.resume()
                } else {
                    state.readActivated = true
                    readSource.activate()
                }
            }
            if close.resumeWrite { writeSource.resume() }
            context.logger.debug("connection \(id) (\(peer)) closed: \(close.reason)")
        }
        if actions.closeDescriptor {
            // Dropping the handlers breaks the connection → source → handler → connection cycle.
            readSource.setEventHandler(handler: nil)
            writeSource.setEventHandler(handler: nil)
            Glibc.close(fd)
        }
    }

    private func readable() {
        let readingSession = state.withLock { state in
            state.machine.phase != .closed && state.machine.isReading ? state.session : nil
        }
        guard let session = readingSession else { return }
        var lines: [InputLine] = []
        var endOfInput = false
        var failure: Int32?
        var total = 0
        withUnsafeTemporaryAllocation(byteCount: Self.readChunkBytes, alignment: 16) { buffer in
            for _ in 0..<Self.readsPerEvent {
                let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
                if count > 0 {
                    total += count
                    let chunk = Array(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                    let maxLineBytes = context.limits.maxLineBytes
                    lines += framer.withLock { framer in
                        framer.maxLineBytes = maxLineBytes
                        return framer.append(chunk)
                    }
                    // No early stop on a short read: data and end-of-file can arrive in one event, and libdispatch
                    // does not report the end-of-file again, so only reading on until EAGAIN sees it.
                } else if count == 0 {
                    endOfInput = true
                    break
                } else if errno == EINTR {
                    continue
                } else {
                    if errno != EAGAIN && errno != EWOULDBLOCK { failure = errno }
                    break
                }
            }
        }
        context.counters.bytesRead.add(total)
        if let failure {
            abort(reason: "read failed: \(String(cString: strerror(failure)))")
            return
        }
        var work: SessionWork?
        if !lines.isEmpty {
            let tooLarge = lines.count { if case .tooLarge = $0 { true } else { false } }
            context.counters.linesRead.add(lines.count)
            context.counters.linesTooLarge.add(tooLarge)
            // Here, on this connection's thread, while the work of the read before may still be running.
            work = session.prepare(lines)
        }
        guard work != nil || endOfInput else { return }
        transition { state in state.machine.read(work, endOfInput: endOfInput, unsent: state.output.count) }
    }

    private func workDidFinish() {
        let limits = context.limits.output
        transition { state in state.machine.workFinished(unsent: state.output.count, limits: limits) }
    }

    private func writable() {
        let limits = context.limits.output
        transition { state in
            guard state.machine.phase != .closed, state.machine.isWriteArmed else { return Actions() }
            return state.machine.flushed(flush(&state), unsent: state.output.count, limits: limits)
        }
    }

    /// Writes what the socket takes.
    private func flush(_ state: inout State) -> ConnectionState<SessionWork>.Flush {
        var written = 0
        let result = state.output.flush(to: fd, written: &written)
        if written > 0 {
            context.counters.bytesWritten.add(written)
            state.lastProgress = Self.now()
        }
        switch result {
        case .drained: return .drained
        case .wouldBlock: return .wouldBlock
        case .failed(let error): return .failed("write failed: \(String(cString: strerror(error)))")
        }
    }

    private func sourceDidCancel() {
        transition { state in state.machine.sourceCancelled() }
    }
}
