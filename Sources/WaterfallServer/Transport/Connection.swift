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
/// and the daemon never holds more than one read ahead.
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
        /// No more reading; closes when the reads taken are answered and all output is written.
        case draining
        /// Sources cancelled; the fd closes when both cancel handlers have run.
        case closed
    }

    private struct State {
        var phase = Phase.open
        var output = OutputQueue()
        var session: (any Session)?
        var readSuspended = true
        var writeArmed = false
        /// A task is running a read's work; its reply is not queued yet.
        var running = false
        /// The next read's work, prepared while the one before runs; reading stays suspended while it waits.
        var pending: SessionWork?
        /// Reading and pending work stopped because unsent output reached `outputPauseBytes`.
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
    /// Apart from `state`: framing a read takes a while, and replies are sent under `state` from the task that
    /// runs the work meanwhile (a send that waited for it slept in the kernel).
    private let framer: Mutex<LineFramer>

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private func readable() {
        let readingSession = state.withLock { state in
            state.phase != .closed && !state.readSuspended ? state.session : nil
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
        } else if !lines.isEmpty {
            let tooLarge = lines.count { if case .tooLarge = $0 { true } else { false } }
            context.counters.linesRead.add(lines.count)
            context.counters.linesTooLarge.add(tooLarge)
            // Here, on this connection's thread, while the work of the read before may still be running.
            enqueue(session.prepare(lines), endOfInput: endOfInput)
        } else if endOfInput {
            let closing = state.withLock { state in drain(&state, reason: "peer closed") }
            closeSession(closing)
        }
    }

    /// Runs a read's work now, or after the one running; reading waits while work does.
    private func enqueue(_ work: @escaping SessionWork, endOfInput: Bool) {
        state.withLock { state in
            guard state.phase != .closed else { return }
            if endOfInput {
                state.phase = .draining
                suspendRead(&state)
            }
            if state.running || state.paused {
                state.pending = work
                suspendRead(&state)
            } else {
                start(work, &state)
            }
        }
    }

    private func start(_ work: @escaping SessionWork, _ state: inout State) {
        state.running = true
        Task {
            let reply = await work()
            send(reply)
            workDidFinish()
        }
    }

    private func workDidFinish() {
        let limits = context.limits
        let closing = state.withLock { state -> (any Session)? in
            state.running = false
            switch state.phase {
            case .open, .draining:
                if state.output.count >= limits.outputPauseBytes {
                    // `writable` goes on once the client has read enough.
                    state.paused = true
                    return nil
                }
                return proceed(&state)
            case .closed:
                guard !state.sessionCloseStarted else { return nil }
                state.sessionCloseStarted = true
                return state.session
            }
        }
        closeSession(closing)
    }

    /// With no work running and output not paused: starts the pending work and reads on, or finishes a drained
    /// connection.
    private func proceed(_ state: inout State) -> (any Session)? {
        if let next = state.pending.take() { start(next, &state) }
        if state.phase == .open {
            resumeRead(&state)
        } else if !state.running && state.output.isEmpty {
            return finish(&state, reason: "done")
        }
        return nil
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
            if state.paused, state.output.count < limits.outputResumeBytes {
                state.paused = false
                if !state.running { return proceed(&state) }
            }
            if state.phase == .draining, state.output.isEmpty, !state.running, state.pending == nil {
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
        guard !state.running, state.pending == nil, state.output.isEmpty else { return nil }
        return finish(&state, reason: reason)
    }

    /// Cancels both sources (their cancel handlers close the fd) and returns the session if it may close now.
    private func finish(_ state: inout State, reason: String) -> (any Session)? {
        guard state.phase != .closed else { return nil }
        state.phase = .closed
        state.output.removeAll()
        state.pending = nil
        framer.withLock { $0.reset() }
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
        guard !state.running, !state.sessionCloseStarted else { return nil }
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
