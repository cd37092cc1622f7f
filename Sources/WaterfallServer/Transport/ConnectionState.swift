/// A connection's state as one value that owns every rule of the connection. Each event (a read, output to send,
/// bytes written, work finishing, writability, a room request, a stall check, a close, the events' cancellation)
/// is a transition that does no I/O and returns what the connection must do, in an action of that transition's
/// own (`ConnectionState+Actions`), the way swift-nio's state machines answer; the bytes to write are part of it.
/// What the socket is watched for is one value, `interest`, read after every transition.
///
/// The rules, each kept in one place:
/// - **Work in order, one read ahead.** One read's work runs at a time; the read taken meanwhile waits as the next
///   work, with reading off, so the daemon never holds more than one read ahead.
/// - **Reading.** The socket is watched for reading exactly while the connection is open and no read waits.
/// - **Writing.** One write at a time: output queued is handed out (`PendingWrite`) unless a write is out or the
///   socket was full; the writer reports what the socket took (`wrote`), and gets the rest until the queue is empty
///   or the socket full. A full socket is watched for writability until the queue empties.
/// - **Decisions after the write.** What depends on unsent output (the next work's start, held work and room
///   waiters going on, a drained connection closing, a stall check) is decided once no write is out, on what the
///   socket took.
/// - **Event holding.** Events sent while a reply is partly queued wait, and follow the reply's last chunk: never
///   inside a reply.
/// - **Room.** Work that finishes with `pauseBytes` unsent holds the next read's work until the client has read
///   down to `resumeBytes`; a reply's producer that asks for room then waits for the same.
/// - **Stalls.** Unsent output that makes no progress for `stallSeconds` closes the connection.
/// - **Close.** Once: output is dropped, room waiters are released with false, the socket's events are cancelled
///   (`interest` is nothing), no work starts after it, the session closes once the work running (if any) has
///   returned, and the descriptor once the events are cancelled and no write is out.
///
/// `Work` is the work that answers one read (a closure in the daemon, a number in tests); `Waiter` is a reply
/// producer waiting for room (a continuation in the daemon).
struct ConnectionState<Work, Waiter> {
    // MARK: Lifecycle

    /// An open connection, to be watched for reading.
    init(limits: OutputLimits) {
        self.limits = limits
    }

    // MARK: Internal

    /// Where the connection is in its life; each phase carries the data that exists in it.
    enum Phase {
        /// Reading and answering.
        case open(Serving)
        /// No more reading; closes with the reason once the reads taken are answered and all output is written.
        case draining(Serving, CloseReason)
        /// Closed: nothing is read, queued or started any more.
        case closed(Closed)
        /// Only inside a transition, so that the serving data taken out is uniquely referenced and its buffers are
        /// mutated in place (swift-nio's `.modifying`).
        case modifying
    }

    /// What an open or draining connection holds.
    struct Serving {
        var work = WorkState.idle
        var output = OutputQueue()
        var reply = ReplyState.between
        /// A write is handed out and its writer has not reported yet.
        var writeOut = false
        /// The last write found the socket full: output waits for writability, until the queue empties.
        var socketFull = false
        /// Reply producers waiting for the client to read (`waitForRoom`).
        var waiters: [Waiter] = []
        /// Bytes written since the connection opened: the stall check's measure of progress.
        var written = 0
        /// What the last stall check saw while output was unsent: the bytes written then and its time.
        var lastCheck: (written: Int, at: UInt64)?
        /// The time of a stall check that waits for the write that is out.
        var pendingCheck: UInt64?
    }

    /// What a closed connection waits for before the session, then the descriptor, can go.
    struct Closed {
        /// The work running at the close, whose return closes the session.
        var workRunning: Bool
        /// A write handed out before the close: the descriptor stays open until its writer reports.
        var writeOut: Bool
        var eventsCancelled = false
    }

    /// The work of reads.
    enum WorkState {
        /// No work runs.
        case idle
        /// A read's work runs; `next` is the read taken meanwhile, waiting for it.
        case running(next: Work?)
        /// The work returned and its reply is being written: whether `next` starts is decided once no write is out.
        case finished(next: Work?)
        /// The last work finished with `pauseBytes` unsent: `next` waits until the client reads down to
        /// `resumeBytes`.
        case paused(next: Work?)

        var next: Work? {
            switch self {
            case .idle: nil
            case .running(let next), .finished(let next), .paused(let next): next
            }
        }
    }

    /// Whether a reply is partly queued, and the events held meanwhile.
    enum ReplyState {
        case between
        case inside(held: [[UInt8]], heldBytes: Int)
    }

    private(set) var phase = Phase.open(Serving())
    private(set) var limits: OutputLimits

    var isClosed: Bool {
        if case .closed = phase { true } else { false }
    }

    /// What the socket's event loop is to watch: reading while open with no read waiting, writing while the
    /// socket is full; nothing once closed (the events are then cancelled).
    var interest: SocketInterest {
        switch phase {
        case .open(let serving): SocketInterest(reading: serving.work.next == nil, writing: serving.socketFull)
        case .draining(let serving, _): SocketInterest(reading: false, writing: serving.socketFull)
        case .closed, .modifying: .none
        }
    }

    /// Bytes queued or held and not yet written.
    var pendingBytes: Int {
        guard let serving else { return 0 }
        if case .inside(_, let held) = serving.reply { return serving.output.count + held }
        return serving.output.count
    }

    /// Whether the client has less than `pauseBytes` unsent (a reply's producer need not wait).
    var hasRoom: Bool { (serving?.output.count ?? 0) < limits.pauseBytes }

    // MARK: Transitions

    /// A read produced `work` for its lines (nil when it had no complete line), and maybe met the end of input.
    mutating func read(_ work: Work?, endOfInput: Bool) -> ReadAction {
        serve(closed: .none) { t in
            var action = ReadAction.none
            if let work {
                switch t.serving.work {
                case .idle:
                    action = .start(t.start(work))
                case .running(nil):
                    t.serving.work = .running(next: work)
                case .finished(nil):
                    t.serving.work = .finished(next: work)
                case .paused(nil):
                    t.serving.work = .paused(next: work)
                case .running(.some), .finished(.some), .paused(.some):
                    // Reading is off while a read waits, so a second cannot come; were it to, closing is the safe
                    // answer (holding two would break the bound, dropping one would lose replies).
                    assertionFailure("a read came while another one waited")
                    t.mode = .closing(.aborted("internal error: a read came while another one waited"))
                }
            }
            if endOfInput, case .open = t.mode { t.mode = .draining(.peerClosed) }
            t.closeIfDrained()
            return action
        } closing: {
            .close($0)
        }
    }

    /// Queues output (events, replies or the first part of a reply); returns the bytes to write when the socket
    /// may be written now.
    mutating func send(_ bytes: [UInt8], as kind: OutputKind) -> OutputQueue.PendingWrite? {
        serve(closed: nil) { t in
            t.queue(bytes, as: kind)
            return t.startWrite()
        } closing: { _ in
            assertionFailure("queueing output closed the connection")
            return nil
        }
    }

    /// The running work returned `reply`, the rest of its replies: queues it, and lets the next read's work start
    /// once it is written, unless the client then has `pauseBytes` unsent.
    mutating func workFinished(reply: [UInt8]) -> WorkFinishedAction {
        if case .closed(var closed) = phase, closed.workRunning {
            closed.workRunning = false
            phase = .closed(closed)
            return .closeSession
        }
        return serve(closed: .proceed(Resumption())) { t in
            t.queue(reply, as: .replies)
            guard case .running(let next) = t.serving.work else {
                assertionFailure("work finished while none ran")
                return .proceed(Resumption())
            }
            t.serving.work = .finished(next: next)
            if let write = t.startWrite() { return .write(write) }
            return .proceed(t.settle())
        } closing: {
            .close($0)
        }
    }

    /// The socket became writable: returns the bytes to write when output waits for it.
    mutating func writable() -> OutputQueue.PendingWrite? {
        serve(closed: nil) { t in
            t.serving.socketFull ? t.startWrite(whenFull: true) : nil
        } closing: { _ in
            assertionFailure("writability closed the connection")
            return nil
        }
    }

    /// The writer of the bytes handed out reports what the socket did with them.
    mutating func wrote(_ outcome: OutputQueue.WriteOutcome) -> WroteAction {
        if case .closed(var closed) = phase {
            closed.writeOut = false
            phase = .closed(closed)
            return closed.eventsCancelled ? .closeDescriptor : .settled(Resumption())
        }
        return serve(closed: .settled(Resumption())) { t in
            guard t.serving.writeOut else {
                assertionFailure("a write reported while none was out")
                return .settled(Resumption())
            }
            t.serving.writeOut = false
            switch outcome {
            case .wrote(let count):
                t.serving.output.wrote(count)
                t.serving.written += count
                if t.serving.output.isEmpty {
                    t.serving.socketFull = false
                } else if let write = t.startWrite(whenFull: true) {
                    return .write(write)
                }
            case .wouldBlock:
                t.serving.output.wrote(0)
                t.serving.socketFull = true
            case .failed(let error):
                t.mode = .closing(.writeFailed(error))
            }
            return .settled(t.settle())
        } closing: {
            .close($0)
        }
    }

    /// A reply's producer asks for room: answered at once when the client has less than `pauseBytes` unsent (true)
    /// or the connection is closed (false), else `waiter` is kept until the client has read down to `resumeBytes`
    /// (a `Resumption` releases it) or the connection closes (a `Closing` does).
    mutating func waitForRoom(_ waiter: Waiter) -> RoomAnswer {
        serve(closed: .now(false)) { t in
            if t.serving.output.count < t.limits.pauseBytes { return .now(true) }
            t.serving.waiters.append(waiter)
            return .later
        } closing: { _ in
            assertionFailure("a room request closed the connection")
            return .now(false)
        }
    }

    /// Stops reading; closes once what was read is answered and written (at once if nothing is in flight).
    mutating func drain() -> Closing? {
        serve(closed: nil) { t in
            if case .open = t.mode { t.mode = .draining(.closedByServer) }
            t.closeIfDrained()
            return nil
        } closing: {
            $0
        }
    }

    /// Closes at once, dropping unsent output and the read waiting (a failed socket, shutdown's deadline).
    mutating func close(_ reason: CloseReason) -> Closing? {
        serve(closed: nil) { t in
            t.mode = .closing(reason)
            return nil
        } closing: {
            $0
        }
    }

    /// The periodic stall check: closes the connection if its unsent output made no progress for `stallSeconds`
    /// (measured from the first check that saw it unsent, so never early; late by at most a check's period).
    ///
    /// Each check first offers the socket what waits for writability, as a writability event would, and is decided
    /// once that write is reported: a wake-up that never came (seen once in millions of requests: a client
    /// reading, output queued, nothing written until the stall time closed the connection, its reply lost) then
    /// costs a check's period, not the connection. A check that finds a write out waits for its report likewise.
    mutating func checkStall(now: UInt64) -> StallAction {
        serve(closed: .none) { t in
            if let write = t.startWrite(whenFull: true) {
                t.serving.pendingCheck = now
                return .write(write)
            }
            if t.serving.writeOut {
                t.serving.pendingCheck = now
            } else {
                t.checkProgress(at: now)
            }
            return .none
        } closing: {
            .close($0)
        }
    }

    /// New limits (a reload): they apply from this transition on.
    mutating func apply(_ limits: OutputLimits) -> Resumption {
        self.limits = limits
        return serve(closed: Resumption()) { t in
            t.settle()
        } closing: { _ in
            assertionFailure("new limits closed the connection")
            return Resumption()
        }
    }

    /// The socket's events were cancelled (after the close): returns whether the descriptor may be closed now;
    /// else the write that is out is its last use, and its report says so (`WroteAction.closeDescriptor`).
    mutating func eventsCancelled() -> Bool {
        guard case .closed(var closed) = phase, !closed.eventsCancelled else {
            assertionFailure("events cancelled before the close, or twice")
            return false
        }
        closed.eventsCancelled = true
        phase = .closed(closed)
        return !closed.writeOut
    }

    // MARK: Private

    private var serving: Serving? {
        switch phase {
        case .open(let serving), .draining(let serving, _): serving
        case .closed, .modifying: nil
        }
    }

    /// Runs a transition's `body` on an open or draining connection's data and stores the new phase; `closing`
    /// turns a close the body decided (directly or through `Step.settle`) into the transition's action, and
    /// `closed` is the action on a closed connection, where nothing happens.
    private mutating func serve<Action>(
        closed: Action, _ body: (inout Step) -> Action, closing: (Closing) -> Action
    ) -> Action {
        var t: Step
        switch phase {
        case .open(let serving):
            t = Step(serving: serving, mode: .open, limits: limits)
        case .draining(let serving, let reason):
            t = Step(serving: serving, mode: .draining(reason), limits: limits)
        case .closed, .modifying:
            return closed
        }
        phase = .modifying
        let action = body(&t)
        switch t.mode {
        case .open:
            phase = .open(t.serving)
            return action
        case .draining(let reason):
            phase = .draining(t.serving, reason)
            return action
        case .closing(let reason):
            let (closedPhase, closingAction) = t.close(reason)
            phase = .closed(closedPhase)
            return closing(closingAction)
        }
    }
}
