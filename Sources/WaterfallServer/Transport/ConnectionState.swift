/// A connection's state as one value that owns every rule of the connection; each event (a read, a send, work
/// finishing, writability, a room request, a stall check, a close) is a transition that returns what the connection
/// must do (`Actions`, the way swift-nio's state machines answer), so the rules are tested without sockets, threads
/// or event loops.
///
/// The rules, each kept in one place:
/// - **Work in order, one read ahead.** One read's work runs at a time; the read taken meanwhile waits as the next
///   work, with reading suspended, so the daemon never holds more than one read ahead.
/// - **Read activation.** The read source is on exactly while the connection is open and no read waits (`settle`):
///   activated once by `start`, then suspended and resumed in balance, and resumed before it is cancelled.
/// - **Writing.** Output is written as it is queued; what the socket does not take waits with the write source
///   armed, which it is exactly while output is unsent.
/// - **Event holding.** Events sent while a reply is partly queued wait, and follow the reply's last chunk: never
///   inside a reply.
/// - **Room.** Work that finishes with `pauseBytes` unsent holds the next read's work until the client has read
///   down to `resumeBytes`; a reply's producer that asks for room then waits for the same.
/// - **Stalls.** Unsent output that makes no progress for `stallSeconds` closes the connection.
/// - **Close.** Once: output is dropped, room waiters are released with false, both sources are cancelled, no work
///   starts after it, and the session closes once the work running (if any) has returned.
///
/// `Work` is the work that answers one read (a closure in the daemon, a number in tests); `Waiter` is a reply
/// producer waiting for room (a continuation in the daemon).
struct ConnectionState<Work, Waiter> {
    // MARK: Lifecycle

    init(limits: OutputLimits) {
        self.limits = limits
    }

    // MARK: Internal

    /// Where the connection is in its life; each phase carries the data that exists in it.
    enum Phase {
        /// Reading (once started) and answering.
        case open(Serving)
        /// No more reading; closes with the reason once the reads taken are answered and all output is written.
        case draining(Serving, CloseReason)
        /// Closed: nothing is read, written or started any more. The session closes when no work runs; the
        /// descriptor once both sources have run their cancel handlers.
        case closed(workRunning: Bool, cancelledSources: Int)
        /// Only inside a transition, so that the serving data taken out is uniquely referenced and its buffers are
        /// mutated in place (swift-nio's `.modifying`).
        case modifying
    }

    /// What an open or draining connection holds.
    struct Serving {
        var reading = ReadSource.inactive
        var writeArmed = false
        var work = WorkState.idle
        var output = OutputQueue()
        var reply = ReplyState.between
        /// Reply producers waiting for the client to read (`waitForRoom`).
        var waiters: [Waiter] = []
        /// Bytes written since the connection opened: the stall check's measure of progress.
        var written = 0
        /// What the last stall check saw while output was unsent: the bytes written then and its time.
        var lastCheck: (written: Int, at: UInt64)?
    }

    /// The read source's state: suspensions and resumptions balance, and a source is resumed (or activated) before
    /// it is cancelled. Dispatch sources required it; the machine keeps it as its contract, and `Connection` turns
    /// each change into the socket's interest in its event loop.
    enum ReadSource: Equatable {
        /// Never activated: `start` activates it.
        case inactive
        case reading
        case suspended
    }

    /// The work of reads.
    enum WorkState {
        /// No work runs.
        case idle
        /// A read's work runs; `next` is the read taken meanwhile, waiting for it.
        case running(next: Work?)
        /// The last work finished with `pauseBytes` unsent: `next` waits until the client reads down to
        /// `resumeBytes`.
        case paused(next: Work?)

        var next: Work? {
            switch self {
            case .idle: nil
            case .running(let next), .paused(let next): next
            }
        }
    }

    /// Whether a reply is partly queued, and the events held meanwhile.
    enum ReplyState {
        case between
        case inside(held: [[UInt8]], heldBytes: Int)
    }

    /// What the connection must do after a transition, in this order: the sources' changes and cancellation (under
    /// the connection's lock, so they stay in the order of the transitions), then the rest.
    struct Actions {
        enum SourceChange: Equatable {
            case activate
            case resume
            case suspend
        }

        /// How the read source changes.
        var read: SourceChange?
        /// How the write source changes (only `resume` and `suspend`; resuming a source never resumed activates it).
        var write: SourceChange?
        /// The connection closed: cancel both sources (after the changes above, which leave both resumed), drop the
        /// framer's partial line, log the reason (and count a stall).
        var closed: CloseReason?
        /// Start this work; when it returns, report `workFinished` with its bytes.
        var start: Work?
        /// Room waiters to resume, with `room` (false: the connection closed).
        var wake: [Waiter] = []
        var room = false
        /// Close the session (its subscriptions) and forget the connection; happens once.
        var closeSession = false
        /// Both sources are cancelled: close the descriptor.
        var closeDescriptor = false
        /// Bytes written to the socket in this transition, for the counters.
        var written = 0

        /// Records a change of the read source, cancelling out a suspension and a resumption in one transition.
        mutating func change(read change: SourceChange) {
            read = Self.combine(read, change)
        }

        mutating func change(write change: SourceChange) {
            write = Self.combine(write, change)
        }

        private static func combine(_ earlier: SourceChange?, _ later: SourceChange) -> SourceChange? {
            switch (earlier, later) {
            case (nil, _):
                return later
            case (.suspend, .resume), (.resume, .suspend):
                return nil
            default:
                // No transition makes any other pair: activation happens alone, at the start or at a close.
                assertionFailure("source changes \(String(describing: earlier)) then \(later) in one transition")
                return later
            }
        }
    }

    /// The write function the connection gives to transitions that write: `send(2)` in the daemon.
    typealias Write = (UnsafeRawBufferPointer) -> OutputQueue.WriteOutcome

    private(set) var phase = Phase.open(Serving())
    private(set) var limits: OutputLimits

    var isClosed: Bool {
        if case .closed = phase { true } else { false }
    }

    /// Whether the read source is on: a read event is taken only then.
    var isReading: Bool { serving?.reading == .reading }

    /// Whether the write source is on (armed): output is unsent and waits for writability.
    var isWriteArmed: Bool { serving?.writeArmed ?? false }

    /// Bytes queued or held and not yet written.
    var pendingBytes: Int {
        guard let serving else { return 0 }
        if case .inside(_, let held) = serving.reply { return serving.output.count + held }
        return serving.output.count
    }

    /// Whether the client has less than `pauseBytes` unsent (a reply's producer need not wait).
    var hasRoom: Bool { (serving?.output.count ?? 0) < limits.pauseBytes }

    // MARK: Transitions

    /// Reading starts.
    mutating func start() -> Actions {
        serve { t in
            guard t.serving.reading == .inactive else { return }
            t.serving.reading = .reading
            t.actions.change(read: .activate)
        }
    }

    /// A read produced `work` for its lines (nil when it had no complete line), and maybe met the end of input.
    mutating func read(_ work: Work?, endOfInput: Bool) -> Actions {
        serve { t in
            if let work {
                switch t.serving.work {
                case .idle:
                    t.serving.work = .running(next: nil)
                    t.actions.start = work
                case .running(nil):
                    t.serving.work = .running(next: work)
                case .paused(nil):
                    t.serving.work = .paused(next: work)
                case .running(.some), .paused(.some):
                    // Reading is suspended while a read waits, so a second cannot come; were it to, closing is the
                    // safe answer (holding two would break the bound, dropping one would lose replies).
                    assertionFailure("a read came while another one waited")
                    t.mode = .closing(.aborted("internal error: a read came while another one waited"))
                    return
                }
            }
            if endOfInput, case .open = t.mode { t.mode = .draining(.peerClosed) }
        }
    }

    /// Queues output (events, replies or the first part of a reply) and writes what the socket takes.
    mutating func send(_ bytes: [UInt8], as kind: OutputKind, write: Write) -> Actions {
        serve { t in
            t.queue(bytes, as: kind)
            t.flushUnlessArmed(write)
        }
    }

    /// The running work returned `reply`, the rest of its replies: queues and writes it, then lets the next read's
    /// work start, unless the client has too much unsent.
    mutating func workFinished(reply: [UInt8], write: Write) -> Actions {
        if case .closed(workRunning: true, let cancelled) = phase {
            phase = .closed(workRunning: false, cancelledSources: cancelled)
            var actions = Actions()
            actions.closeSession = true
            return actions
        }
        return serve { t in
            t.queue(reply, as: .replies)
            t.flushUnlessArmed(write)
            guard case .running(let next) = t.serving.work else {
                assertionFailure("work finished while none ran")
                return
            }
            if t.serving.output.count >= t.limits.pauseBytes {
                t.serving.work = .paused(next: next)
            } else {
                t.proceed(to: next)
            }
        }
    }

    /// The socket became writable.
    mutating func writable(write: Write) -> Actions {
        serve { t in
            guard t.serving.writeArmed else { return }
            t.flush(write)
        }
    }

    /// A reply's producer asks for room: answered at once when the client has less than `pauseBytes` unsent (true)
    /// or the connection is closed (false), else once it has read down to `resumeBytes` or closes.
    mutating func waitForRoom(_ waiter: Waiter) -> Actions {
        guard serving != nil else {
            var actions = Actions()
            actions.wake = [waiter]
            return actions
        }
        return serve { t in
            if t.serving.output.count < t.limits.pauseBytes {
                t.actions.wake = [waiter]
                t.actions.room = true
            } else {
                t.serving.waiters.append(waiter)
            }
        }
    }

    /// Stops reading; closes once what was read is answered and written (at once if nothing is in flight).
    mutating func drain() -> Actions {
        serve { t in
            if case .open = t.mode { t.mode = .draining(.closedByServer) }
        }
    }

    /// Closes at once, dropping unsent output and the read waiting (a failed socket, shutdown's deadline).
    mutating func close(_ reason: CloseReason) -> Actions {
        serve { t in t.mode = .closing(reason) }
    }

    /// The periodic stall check: closes the connection if its unsent output made no progress for `stallSeconds`
    /// (measured from the first check that saw it unsent, so never early; late by at most a check's period).
    ///
    /// Each check first offers the socket what is queued, as a writability event would: a wake-up that never came
    /// (seen once in millions of requests: a client reading, output queued, nothing written until the stall time
    /// closed the connection, its reply lost) then costs a check's period, not the connection.
    mutating func checkStall(now: UInt64, write: Write) -> Actions {
        serve { t in
            if t.serving.writeArmed { t.flush(write) }
            guard !t.serving.output.isEmpty else {
                t.serving.lastCheck = nil
                return
            }
            guard let last = t.serving.lastCheck, last.written == t.serving.written else {
                t.serving.lastCheck = (t.serving.written, now)
                return
            }
            if Double(now &- last.at) / 1e9 > t.limits.stallSeconds {
                t.mode = .closing(.stalled(seconds: t.limits.stallSeconds))
            }
        }
    }

    /// New limits (a reload): they apply from this transition on.
    mutating func apply(_ limits: OutputLimits) -> Actions {
        self.limits = limits
        return serve { _ in }
    }

    /// One of the two sources ran its cancel handler.
    mutating func sourceCancelled() -> Actions {
        var actions = Actions()
        guard case .closed(let running, let cancelled) = phase else {
            assertionFailure("a source was cancelled before the close")
            return actions
        }
        phase = .closed(workRunning: running, cancelledSources: cancelled + 1)
        actions.closeDescriptor = cancelled + 1 == 2
        return actions
    }

    // MARK: Private

    private var serving: Serving? {
        switch phase {
        case .open(let serving), .draining(let serving, _): serving
        case .closed, .modifying: nil
        }
    }

    /// Runs a transition's `body` on an open or draining connection's data, then applies the rules that follow from
    /// any change (`Transition.settle`) and stores the new phase; nothing happens on a closed connection.
    private mutating func serve(_ body: (inout Transition) -> Void) -> Actions {
        var t: Transition
        switch phase {
        case .open(let serving):
            t = Transition(serving: serving, mode: .open, limits: limits)
        case .draining(let serving, let reason):
            t = Transition(serving: serving, mode: .draining(reason), limits: limits)
        case .closed, .modifying:
            return Actions()
        }
        phase = .modifying
        body(&t)
        t.settle()
        switch t.mode {
        case .open: phase = .open(t.serving)
        case .draining(let reason): phase = .draining(t.serving, reason)
        case .closing(let reason): phase = t.close(reason)
        }
        return t.actions
    }
}

extension ConnectionState.Actions: Sendable where Work: Sendable, Waiter: Sendable {}
