import Dispatch
import Glibc
import Synchronization
import WaterfallConcurrency
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// One accepted client: the socket shell around `ConnectionState`, which owns every rule; each event here is one of
/// its transitions, under the lock, and this class does what the transition returns, after the lock: it writes the
/// bytes handed out and reports what the socket took, runs work, releases room waiters and closes.
///
/// Reading and writing run on the thread of an `EventLoop`, and so does the session's `prepare` (parsing,
/// decoding); the work it returns runs in a task, one read's work at a time, in order (a work that finds the next one
/// waiting when it ends runs it in the same task, `run`). While it runs, the next read is taken and prepared, and
/// then waits with reading suspended: a pipelining client has its next requests decoded on the loop's thread while
/// the last ones run, and the daemon never holds more than one read ahead. `@unchecked` only because of the read
/// buffer, used on the event loop's thread only; every other field is immutable or inside a mutex.
final class Connection: OutputSink, SocketEventHandler, @unchecked Sendable {
    // MARK: Lifecycle

    /// Wraps an accepted, non-blocking socket; nothing happens until `start(session:)`.
    init(fd: Int32, peer: PeerCredentials, context: TransportContext) {
        self.fd = fd
        self.peer = peer
        self.context = context
        self.id = context.nextConnectionID()
        let limits = context.limits
        self.state = Mutex(Shell(machine: Machine(limits: limits.output)))
        self.framer = Mutex(LineFramer(maxLineBytes: limits.maxLineBytes))
        self.maxLineBytes = Atomic(limits.maxLineBytes)
        self.readBuffer = .allocate(byteCount: Self.readChunkBytes, alignment: 16)
    }

    deinit { readBuffer.deallocate() }

    // MARK: Internal

    let id: UInt64
    let peer: PeerCredentials

    var pendingBytes: Int { state.withLock { $0.machine.pendingBytes } }

    var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// As of the last transition: a producer asks right after its own `sendReplies`, and a stale answer costs at
    /// most a chunk more before `waitForRoom`, which asks the machine.
    var hasRoom: Bool { room.load(ordering: .acquiring) }

    func waitForRoom() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            if case .now(let room) = transition({ $0.waitForRoom(continuation) }) {
                continuation.resume(returning: room)
            }
        }
    }

    /// Attaches the session and starts reading.
    func start(session: any Session) {
        events.withLock { $0 = EventLoop.next().register(fd, self) }
        reader.withLock { $0 = session }
        // No change to the machine: what a transition does after it, the interest given to the loop first of all.
        transition { _ in () }
    }

    /// Sends notifications (events); while a reply is partly queued they are held, and follow its last chunk.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        if let write = transition({ $0.send(bytes, as: .events) }) { perform(write) }
        return !isClosed
    }

    @discardableResult
    func sendReplies(_ bytes: [UInt8], endingInsideAReply: Bool) -> Bool {
        if let write = transition({ $0.send(bytes, as: endingInsideAReply ? .replyPart : .replies) }) {
            perform(write)
        }
        return !isClosed
    }

    /// Stops reading and closes once the reply in progress and all queued output are written.
    func close() {
        if let closing = transition({ $0.drain() }) { perform(closing) }
    }

    /// Closes at once, dropping unsent output (shutdown past its deadline).
    func abort(reason: String) {
        if let closing = transition({ $0.close(.aborted(reason)) }) { perform(closing) }
    }

    /// The periodic stall check (`ConnectionState.checkStall`).
    func checkStall(now: UInt64) {
        switch transition({ $0.checkStall(now: now) }) {
        case .none: break
        case .write(let write): perform(write)
        case .close(let closing): perform(closing)
        }
    }

    /// Applies reloaded limits.
    func apply(_ limits: TransportLimits) {
        maxLineBytes.store(limits.maxLineBytes, ordering: .relaxed)
        perform(transition { $0.apply(limits.output) })
    }

    // MARK: Private

    private typealias Machine = ConnectionState<SessionWork, CheckedContinuation<Bool, Never>>

    /// The machine, and what the event loop watches: the machine's interest, less reading while a long read is
    /// prepared apart.
    private struct Shell {
        var machine: Machine
        /// Reading held off while a read is prepared on a thread apart (`readable`).
        var readingHeld = false
        /// What the event loop was last given: a transition that leaves the interest as it was (most of them) then
        /// takes no other lock.
        var applied = SocketInterest.none
        /// Whether the socket's events were cancelled (once the machine closed).
        var cancelled = false
        /// How many interests were decided (`interestChange`): the last one's number.
        var interestOrder: UInt64 = 0

        var wanted: SocketInterest {
            var interest = machine.interest
            if readingHeld { interest.reading = false }
            return interest
        }
    }

    /// Under 64 KiB, so that the per-read copy of a chunk comes from the heap: `MemoryTuning` has blocks of 64 KiB
    /// and more mapped fresh, which would cost a page fault per 4 KiB on every read.
    private static let readChunkBytes = 60 * 1024
    /// Complete lines of at least this many bytes in one read are prepared apart from the loop's thread: only a line
    /// that spanned several reads gets there (a read event takes at most `readsPerEvent` chunks, 240 KiB).
    private static let preparedApartBytes = 256 * 1024
    /// Reads per readable event: enough to batch a pipelining client, few enough to stay fair to others.
    private static let readsPerEvent = 4
    /// Works a connection runs in a row on one task before it lets other tasks have the thread.
    private static let worksPerTurn = 4

    private let fd: Int32
    private let context: TransportContext
    /// The socket's interest in its event loop, set by `start`.
    private let events = Mutex<SocketEvents?>(nil)
    private let state: Mutex<Shell>
    /// Set once the connection closes, for work to check between requests without taking the lock.
    private let closed = Atomic<Bool>(false)
    /// Whether the machine's interest had reading after its last transition, and the session (until it is closed) and the line
    /// limit, for the read handler to see without taking `state`: the task that runs the work holds `state` while
    /// it sends, and a read handler that waited for it would sleep in the kernel.
    private let reading = Atomic<Bool>(false)
    /// Set while the read handler takes and prepares a read: the connection is not idle then (`releaseIfIdle`).
    private let preparing = Atomic<Bool>(false)
    private let room = Atomic<Bool>(true)
    private let reader = Mutex<(any Session)?>(nil)
    private let maxLineBytes: Atomic<Int>
    /// Apart from `state`: framing a read takes a while, and replies are sent under `state` from the task that
    /// runs the work meanwhile (a send that waited for it slept in the kernel).
    private let framer: Mutex<LineFramer>
    /// The connection's read buffer, allocated once: used by the read handler only, on the event loop's thread.
    private let readBuffer: UnsafeMutableRawBufferPointer

    /// Runs one transition under the lock, and there decides the event loop's interest (or the cancellation of the
    /// socket's events once it closed), numbered so that the loop ends at the last transition's whatever order the
    /// threads give them in; gives it after the lock, where the `epoll_ctl` holds up no other transition, and the
    /// caller does the rest of what the transition returns.
    private func transition<Action>(_ body: (inout Machine) -> Action) -> Action {
        var change: InterestChange?
        var cancelling: SocketEvents?
        let action = state.withLock { shell -> Action in
            let action = body(&shell.machine)
            reading.store(shell.machine.interest.reading, ordering: .releasing)
            room.store(shell.machine.hasRoom, ordering: .releasing)
            if shell.machine.isClosed {
                if !shell.cancelled {
                    shell.cancelled = true
                    closed.store(true, ordering: .releasing)
                    cancelling = events.withLock { $0 }
                }
            } else {
                change = interestChange(&shell)
            }
            return action
        }
        cancelling?.cancel()
        if let unwatched = change?.apply() { closeUnwatched(unwatched) }
        return action
    }

    /// Writes what the machine handed out, and the rest it hands out as each write is reported, until the socket is
    /// full or the output written; then does what the last report says. A work it starts runs in a new task, unless
    /// `spawnsWork` is false: then it is returned, for the caller (`run`) to run.
    @discardableResult
    private func perform(_ first: OutputQueue.PendingWrite, spawnsWork: Bool = true) -> SessionWork? {
        var write = first
        while true {
            let outcome = write.withBytes(writeToSocket)
            if case .wrote(let count) = outcome { context.counters.bytesWritten.add(count) }
            switch transition({ $0.wrote(outcome) }) {
            case .write(let next):
                write = next
            case .settled(let resumption):
                return perform(resumption, spawnsWork: spawnsWork)
            case .close(let closing):
                perform(closing)
                return nil
            case .closeDescriptor:
                closeDescriptor()
                return nil
            }
        }
    }

    /// Releases the room waiters with true and starts the work, as `perform(_:spawnsWork:)` of a write does.
    @discardableResult
    private func perform(_ resumption: Machine.Resumption, spawnsWork: Bool = true) -> SessionWork? {
        for waiter in resumption.waiters { waiter.resume(returning: true) }
        guard let work = resumption.start else { return nil }
        guard spawnsWork else { return work }
        run(work)
        return nil
    }

    /// The connection closed: the framer's partial line goes, the close is logged, room waiters are released with
    /// false, and the session closes if no work runs.
    private func perform(_ closing: Machine.Closing) {
        framer.withLock { $0.reset() }
        if case .stalled = closing.reason {
            // A client that stops reading is the usual cause, but a lost reply looks the same from the client's
            // side: worth a line at the default level.
            context.counters.connectionsClosedSlow.add(1)
            context.logger.warning("connection \(id) (\(peer)) closed: \(closing.reason)")
        } else {
            context.logger.debug("connection \(id) (\(peer)) closed: \(closing.reason)")
        }
        for waiter in closing.waiters { waiter.resume(returning: false) }
        if closing.closesSession { closeSession() }
    }

    /// Closes the session (its subscriptions), then forgets the connection; once.
    private func closeSession() {
        // Taken out: the session holds this connection as its output.
        guard let session = reader.withLock({ $0.take() }) else { return }
        Task {
            await session.close()
            context.unregister(self)
        }
    }

    /// The events are cancelled and no write is out: nothing uses the descriptor any more.
    private func closeDescriptor() {
        // The loop let go of this connection before it reported the cancellation: no handler runs any more.
        events.withLock { $0 = nil }
        Glibc.close(fd)
    }

    /// Runs `first` in a task, and the works that follow it while the next is waiting when one ends.
    ///
    /// One task runs a pipelining client's works in turn: a task per work would push a job to the global executor
    /// for every read while this thread is still busy, waking another thread for it and putting this one to sleep.
    ///
    /// Each work is let go as soon as it has run, before its reply is written: otherwise its requests (a bulk
    /// load's item arrays, megabytes for the ten lines of a read) would go on using memory after the client had its
    /// last reply, held by the loop's variable until the next work, and the first work by the task's closure until
    /// the task ends.
    private func run(_ first: @escaping SessionWork) {
        let handOff = HandOff<SessionWork?>(first, leaving: nil)
        Task {
            var work = handOff.take()
            var ran = 1
            while let current = work.take() {
                let reply = await Self.perform(consume current)
                releaseIfIdle()
                let next: SessionWork?
                switch transition({ $0.workFinished(reply: reply) }) {
                case .write(let write):
                    next = perform(write, spawnsWork: false)
                case .proceed(let resumption):
                    next = perform(resumption, spawnsWork: false)
                case .close(let closing):
                    perform(closing)
                    next = nil
                case .closeSession:
                    closeSession()
                    next = nil
                }
                guard let next else { return }
                work = next
                ran &+= 1
                // Other connections' work waits for a thread while this one runs on.
                if ran % Self.worksPerTurn == 0 { await Task.yield() }
            }
        }
    }

    /// Lets go of what a bulk load's lines grew (the framer's line buffers, the decoder's item arrays, the session's
    /// parse buffers) once the connection has nothing left to do: no read being taken or prepared, none waiting,
    /// no line partly received. Called as a work ends, before its reply is written, so that a client that reads its
    /// last reply finds them gone; never blocking this pool thread (the framer is skipped while a read holds it, and
    /// the session skips its parse buffers while a prepare holds them).
    private func releaseIfIdle() {
        guard !preparing.load(ordering: .acquiring), reading.load(ordering: .acquiring),
            let released = framer.withLockIfAvailable({ $0.releaseSpares() })
        else { return }
        // The buffers are freed when `released` goes, here, outside the framer's lock.
        guard released.pooledLines, let session = reader.withLock({ $0 }) else { return }
        session.clientPaused()
    }

    /// Runs `work`, which is released when this returns (its parameter is owned here).
    private static func perform(_ work: consuming @escaping SessionWork) async -> [UInt8] {
        await work()
    }

    /// One non-blocking `send(2)` of bytes the machine handed out.
    private func writeToSocket(_ bytes: UnsafeRawBufferPointer) -> OutputQueue.WriteOutcome {
        while true {
            let sent = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            if sent > 0 { return .wrote(sent) }
            if sent == 0 { return .wouldBlock }
            let error = errno
            if error == EINTR { continue }
            return error == EAGAIN || error == EWOULDBLOCK ? .wouldBlock : .failed(error)
        }
    }

    func readable() {
        guard reading.load(ordering: .acquiring), let session = reader.withLock({ $0 }) else { return }
        preparing.store(true, ordering: .releasing)
        let maxLineBytes = maxLineBytes.load(ordering: .relaxed)
        var lines: [InputLine] = []
        var endOfInput = false
        var failure: Int32?
        var total = 0
        framer.withLock { framer in
            framer.maxLineBytes = maxLineBytes
            for _ in 0..<Self.readsPerEvent {
                let count = Glibc.read(fd, readBuffer.baseAddress, readBuffer.count)
                if count > 0 {
                    total += count
                    let framed = framer.append(Array(UnsafeRawBufferPointer(rebasing: readBuffer[..<count])))
                    if lines.isEmpty { lines = framed } else { lines += framed }
                    // A long line being carried: the loop's other connections get their turn after each chunk (its
                    // copy and page faults would hold them up); the rest is read next round.
                    if framer.bufferedByteCount >= Self.readChunkBytes { break }
                    // No early stop on a short read: data and end-of-file can arrive in one event, and reading on
                    // until EAGAIN finds the end in this round rather than a later one.
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
            preparing.store(false, ordering: .releasing)
            if let closing = transition({ $0.close(.readFailed(failure)) }) { perform(closing) }
            return
        }
        var lineBytes = 0
        for case .line(let bytes) in lines { lineBytes += bytes.count }
        guard lineBytes >= Self.preparedApartBytes else {
            // Here, on the loop's thread, while the work of the read before may still be running.
            prepare(lines, endOfInput: endOfInput, session)
            return
        }
        // A long line's parse would hold the loop's other connections for milliseconds: it runs on a thread of its
        // own, with this socket's reading held off meanwhile, so that the loop neither reads on nor sees it readable
        // again.
        holdReading(true)
        DispatchQueue.global().async { [self, lines, endOfInput] in
            prepare(lines, endOfInput: endOfInput, session)
            holdReading(false)
        }
    }

    /// Counts and prepares a read's `lines` (none when it brought only the end of input) and hands its work to the
    /// machine; the read is no longer being prepared once the machine has it (not before: a work ending meanwhile
    /// would take the connection for idle and let its buffers go, `releaseIfIdle`).
    private func prepare(_ lines: [InputLine], endOfInput: Bool, _ session: any Session) {
        defer { preparing.store(false, ordering: .releasing) }
        var work: SessionWork?
        if !lines.isEmpty {
            let tooLarge = lines.count { if case .tooLarge = $0 { true } else { false } }
            context.counters.linesRead.add(lines.count)
            if tooLarge > 0 { context.counters.linesTooLarge.add(tooLarge) }
            work = session.prepare(lines)
        }
        guard work != nil || endOfInput else { return }
        switch transition({ $0.read(work, endOfInput: endOfInput) }) {
        case .none: break
        case .start(let work): run(work)
        case .close(let closing): perform(closing)
        }
    }

    /// Holds the socket's reading off (or lets it go back to what the machine says) while a read is prepared apart.
    private func holdReading(_ hold: Bool) {
        let change = state.withLock { shell -> InterestChange? in
            shell.readingHeld = hold
            return interestChange(&shell)
        }
        if let unwatched = change?.apply() { closeUnwatched(unwatched) }
    }

    /// An interest for the event loop, numbered in the order the transitions decided it.
    private struct InterestChange {
        let events: SocketEvents
        let interest: SocketInterest
        let order: UInt64

        /// Gives it to the loop; the errno when the kernel refuses it.
        func apply() -> Int32? { events.setInterest(interest, order: order) }
    }

    /// The interest `shell` asks for, if it changed (and the socket is registered, `start`), taken as given.
    private func interestChange(_ shell: inout Shell) -> InterestChange? {
        let wanted = shell.wanted
        guard wanted != shell.applied, let events = events.withLock({ $0 }) else { return nil }
        shell.applied = wanted
        shell.interestOrder += 1
        return InterestChange(events: events, interest: wanted, order: shell.interestOrder)
    }

    /// Without events the connection would wait forever: it closes, as after a failed read.
    private func closeUnwatched(_ error: Int32) {
        let reason = CloseReason.aborted("cannot watch the socket: \(String(cString: strerror(error)))")
        if let closing = transition({ $0.close(reason) }) { perform(closing) }
    }

    func writable() {
        if let write = transition({ $0.writable() }) { perform(write) }
    }

    func eventsCancelled() {
        if transition({ $0.eventsCancelled() }) { closeDescriptor() }
    }
}
