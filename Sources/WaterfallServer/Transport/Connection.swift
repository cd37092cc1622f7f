import Dispatch
import Glibc
import Synchronization
import WaterfallProtocol

/// One accepted client: reads and frames its requests, hands them to its session, writes the replies in order.
///
/// Reading and writing run on dispatch sources on the connection's own serial queue; `handle` runs in a task.
/// While a task handles a batch the read source is suspended, which is what keeps replies in request order.
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
        self.state = Mutex(State(framer: LineFramer(maxLineBytes: context.limits.maxLineBytes)))
    }

    // MARK: Internal

    let id: UInt64
    let peer: PeerCredentials

    var pendingBytes: Int { state.withLock { $0.output.count } }

    /// Attaches the session and starts reading.
    func start(session: any Session) {
        readSource.setEventHandler { [self] in readable() }
        writeSource.setEventHandler { [self] in writable() }
        readSource.setCancelHandler { [self] in sourceDidCancel() }
        writeSource.setCancelHandler { [self] in sourceDidCancel() }
        state.withLock { state in
            state.session = session
            state.readSuspended = false
            readSource.activate()
        }
    }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        let limits = context.limits
        var closing: (any Session)?
        let accepted = state.withLock { state -> Bool in
            guard state.phase != .closed else { return false }
            guard !bytes.isEmpty else { return true }
            if state.output.isEmpty { state.lastProgress = Self.now() }
            // Only output queued before this send counts against the limit: one large reply (a `layout.get` of a
            // million items) to a client that reads is fine; a client that stopped reading is closed at its next
            // reply or event.
            let backlog = state.output.count
            state.output.append(bytes)
            if !state.writeArmed, case .failed(let error) = flush(&state) {
                closing = finish(&state, reason: "write failed: \(String(cString: strerror(error)))")
                return false
            }
            if backlog > limits.outputCloseBytes && state.output.count > limits.outputCloseBytes {
                context.counters.connectionsClosedSlow.add(1)
                closing = finish(&state, reason: "\(state.output.count) bytes of unsent output, over outputCloseBytes")
                return false
            }
            return true
        }
        closeSession(closing)
        return accepted
    }

    /// Stops reading and closes once the reply in progress and all queued output are written.
    func close() {
        let closing = state.withLock { state in drain(&state, reason: "closed by the server") }
        closeSession(closing)
    }

    /// Closes at once, dropping unsent output (shutdown past its deadline).
    func abort(reason: String) {
        let closing = state.withLock { state in finish(&state, reason: reason) }
        closeSession(closing)
    }

    /// Closes the connection if its pending output has made no progress for `outputStallSeconds`.
    func closeIfStalled(now: UInt64, stallSeconds: Double) {
        let closing = state.withLock { state -> (any Session)? in
            guard state.phase != .closed, !state.output.isEmpty,
                Double(now &- state.lastProgress) / 1e9 > stallSeconds
            else { return nil }
            context.counters.connectionsClosedSlow.add(1)
            return finish(&state, reason: "no output progress for \(stallSeconds) s")
        }
        closeSession(closing)
    }

    // MARK: Private

    private enum Phase {
        /// Reading and writing.
        case open
        /// No more reading; closes when the batch in progress is answered and all output is written.
        case draining
        /// Sources cancelled; the fd closes when both cancel handlers have run.
        case closed
    }

    private struct State {
        var framer: LineFramer
        var phase = Phase.open
        var output = OutputQueue()
        var session: (any Session)?
        var readSuspended = true
        var writeArmed = false
        /// A task is running `handle`; reading stays suspended until it returns.
        var handling = false
        /// Reading stopped because unsent output reached `outputPauseBytes`.
        var paused = false
        var lastProgress: UInt64 = 0
        var sessionCloseStarted = false
        var cancelledSources = 0
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

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private func readable() {
        guard state.withLock({ $0.phase != .closed && !$0.readSuspended }) else { return }
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
                    lines += state.withLock { state in
                        state.framer.maxLineBytes = maxLineBytes
                        return state.framer.append(chunk)
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
        } else if !lines.isEmpty {
            dispatch(lines, endOfInput: endOfInput)
        } else if endOfInput {
            let closing = state.withLock { state in drain(&state, reason: "peer closed") }
            closeSession(closing)
        }
    }

    /// Hands one read's lines to the session in a task, with reading suspended until the reply is queued.
    private func dispatch(_ lines: [InputLine], endOfInput: Bool) {
        let tooLarge = lines.count { if case .tooLarge = $0 { true } else { false } }
        context.counters.linesRead.add(lines.count)
        context.counters.linesTooLarge.add(tooLarge)
        let session = state.withLock { state -> (any Session)? in
            guard state.phase != .closed else { return nil }
            state.handling = true
            suspendRead(&state)
            if endOfInput { state.phase = .draining }
            return state.session
        }
        guard let session else { return }
        Task {
            let reply = await session.handle(lines)
            send(reply)
            handleDidFinish()
        }
    }

    private func handleDidFinish() {
        let limits = context.limits
        let closing = state.withLock { state -> (any Session)? in
            state.handling = false
            switch state.phase {
            case .open:
                if state.output.count < limits.outputPauseBytes {
                    resumeRead(&state)
                } else {
                    state.paused = true
                }
                return nil
            case .draining:
                return state.output.isEmpty ? finish(&state, reason: "done") : nil
            case .closed:
                guard !state.sessionCloseStarted else { return nil }
                state.sessionCloseStarted = true
                return state.session
            }
        }
        closeSession(closing)
    }

    private func writable() {
        let limits = context.limits
        let closing = state.withLock { state -> (any Session)? in
            guard state.phase != .closed, state.writeArmed else { return nil }
            switch flush(&state) {
            case .failed(let error):
                return finish(&state, reason: "write failed: \(String(cString: strerror(error)))")
            case .wouldBlock:
                break
            case .drained:
                writeSource.suspend()
                state.writeArmed = false
            }
            if state.paused, state.phase == .open, state.output.count < limits.outputResumeBytes {
                state.paused = false
                resumeRead(&state)
            }
            if state.phase == .draining, state.output.isEmpty, !state.handling {
                return finish(&state, reason: "done")
            }
            return nil
        }
        closeSession(closing)
    }

    /// Writes what the socket takes and arms the write source if some is left.
    private func flush(_ state: inout State) -> OutputQueue.FlushResult {
        var written = 0
        let result = state.output.flush(to: fd, written: &written)
        if written > 0 {
            context.counters.bytesWritten.add(written)
            state.lastProgress = Self.now()
        }
        if result == .wouldBlock && !state.writeArmed {
            state.writeArmed = true
            writeSource.resume()
        }
        return result
    }

    /// Stops reading; finishes now if nothing is in flight, else when the last reply is written.
    private func drain(_ state: inout State, reason: String) -> (any Session)? {
        guard state.phase == .open else { return nil }
        state.phase = .draining
        suspendRead(&state)
        guard !state.handling, state.output.isEmpty else { return nil }
        return finish(&state, reason: reason)
    }

    /// Cancels both sources (their cancel handlers close the fd) and returns the session if it may close now.
    private func finish(_ state: inout State, reason: String) -> (any Session)? {
        guard state.phase != .closed else { return nil }
        state.phase = .closed
        state.output.removeAll()
        state.framer.reset()
        readSource.cancel()
        writeSource.cancel()
        // A suspended or never-activated source neither runs its cancel handler nor may be released.
        if state.readSuspended {
            state.readSuspended = false
            readSource.resume()
        }
        if !state.writeArmed {
            state.writeArmed = true
            writeSource.resume()
        }
        context.logger.debug("connection \(id) (\(peer)) closed: \(reason)")
        guard !state.handling, !state.sessionCloseStarted else { return nil }
        state.sessionCloseStarted = true
        return state.session
    }

    private func suspendRead(_ state: inout State) {
        guard !state.readSuspended else { return }
        state.readSuspended = true
        readSource.suspend()
    }

    private func resumeRead(_ state: inout State) {
        guard state.readSuspended, state.phase == .open else { return }
        state.readSuspended = false
        readSource.resume()
    }

    /// Closes the session outside the lock, then forgets the connection; runs once per connection.
    private func closeSession(_ session: (any Session)?) {
        guard let session else { return }
        Task {
            await session.close()
            context.unregister(self)
        }
    }

    private func sourceDidCancel() {
        let bothDone = state.withLock { state in
            state.cancelledSources += 1
            return state.cancelledSources == 2
        }
        guard bothDone else { return }
        // Dropping the handlers breaks the connection → source → handler → connection cycle.
        readSource.setEventHandler(handler: nil)
        writeSource.setEventHandler(handler: nil)
        Glibc.close(fd)
    }
}
