/// A connection's state as a value: every event (a read, a write, work finishing, a close) is a transition that
/// returns what the connection must do, so the rules are tested without sockets, threads or dispatch sources.
///
/// `Work` is the work that answers one read (a closure in the daemon, anything in tests). One read's work runs at a
/// time, in order; while it runs the next read is taken and waits as `pending` with reading suspended, so the daemon
/// never holds more than one read ahead. Unsent output at `pauseBytes` or more pauses reading and pending work until
/// it drains below `resumeBytes`.
struct ConnectionState<Work> {
    // MARK: Internal

    enum Phase: Equatable {
        /// Reading and writing.
        case open
        /// No more reading; closes when the reads taken are answered and all output is written.
        case draining
        /// Closed: output dropped, sources cancelled; the descriptor closes when both cancel handlers have run.
        case closed
    }

    /// What one flush of the output achieved.
    enum Flush: Equatable {
        /// Everything queued was written.
        case drained
        /// The socket is full; the rest waits for writability.
        case wouldBlock
        /// The peer is gone or the socket failed.
        case failed(String)
    }

    /// What the connection must do after a transition, in this order: sources first, then work, then the session.
    struct Actions {
        /// Activate the read source (the first time) or resume it.
        var resumeReading = false
        var suspendReading = false
        var armWriting = false
        var disarmWriting = false
        /// Start this work in a task; when it returns, send its bytes and report `workFinished`.
        var start: Work?
        /// Close: drop unsent output and the framer's partial line, cancel both sources (resuming first any that is
        /// suspended, which dispatch requires) and log the reason.
        var close: (reason: String, resumeRead: Bool, resumeWrite: Bool)?
        /// Close the session (its subscriptions) and forget the connection; happens once.
        var closeSession = false
        /// Both sources are cancelled: close the descriptor.
        var closeDescriptor = false
    }

    /// The output thresholds, from the config.
    struct Limits: Equatable {
        var pauseBytes: Int
        var resumeBytes: Int
    }

    private(set) var phase = Phase.open
    /// Whether the read source is active and resumed.
    private(set) var isReading = false
    /// Whether the write source is resumed, waiting for the socket to take more.
    private(set) var isWriteArmed = false
    /// A task is running a read's work; its reply is not queued yet.
    private(set) var isRunning = false
    /// The next read's work, prepared while the one before runs.
    private(set) var pending: Work?
    /// Reading and pending work are held because unsent output reached `pauseBytes`.
    private(set) var isPaused = false

    /// Reading starts.
    mutating func started() -> Actions {
        var actions = Actions()
        guard phase == .open, !isReading else { return actions }
        isReading = true
        actions.resumeReading = true
        return actions
    }

    /// A read produced `work` for its lines (nil when it had no complete line), and maybe met the end of input.
    mutating func read(_ work: Work?, endOfInput: Bool, unsent: Int) -> Actions {
        var actions = Actions()
        guard phase != .closed else { return actions }
        guard let work else {
            return endOfInput ? drain(reason: "peer closed", unsent: unsent) : actions
        }
        if endOfInput {
            phase = .draining
            suspendReading(&actions)
        }
        if isRunning || isPaused {
            pending = work
            suspendReading(&actions)
        } else {
            isRunning = true
            actions.start = work
        }
        return actions
    }

    /// The running work returned and its bytes were queued; `unsent` bytes are waiting for the socket.
    mutating func workFinished(unsent: Int, limits: Limits) -> Actions {
        var actions = Actions()
        isRunning = false
        switch phase {
        case .open, .draining:
            if unsent >= limits.pauseBytes {
                // A flush goes on once the client has read enough.
                isPaused = true
                return actions
            }
            proceed(unsent: unsent, &actions)
        case .closed:
            closeSession(&actions)
        }
        return actions
    }

    /// Output was flushed (after a send, or when the socket became writable) with `unsent` bytes left.
    mutating func flushed(_ flush: Flush, unsent: Int, limits: Limits) -> Actions {
        var actions = Actions()
        guard phase != .closed else { return actions }
        switch flush {
        case .failed(let reason):
            return close(reason: reason)
        case .wouldBlock:
            if !isWriteArmed {
                isWriteArmed = true
                actions.armWriting = true
            }
        case .drained:
            if isWriteArmed {
                isWriteArmed = false
                actions.disarmWriting = true
            }
        }
        if isPaused, unsent < limits.resumeBytes {
            isPaused = false
            if !isRunning { proceed(unsent: unsent, &actions) }
        }
        if phase == .draining, unsent == 0, !isRunning, pending == nil {
            merge(close(reason: "done"), into: &actions)
        }
        return actions
    }

    /// Stops reading; closes now if nothing is in flight, else once the last reply is written.
    mutating func drain(reason: String, unsent: Int) -> Actions {
        var actions = Actions()
        guard phase == .open else { return actions }
        phase = .draining
        suspendReading(&actions)
        guard !isRunning, pending == nil, unsent == 0 else { return actions }
        merge(close(reason: reason), into: &actions)
        return actions
    }

    /// Closes at once, dropping unsent output and pending work (a failed socket, a stall, shutdown's deadline).
    mutating func close(reason: String) -> Actions {
        var actions = Actions()
        guard phase != .closed else { return actions }
        phase = .closed
        pending = nil
        isPaused = false
        actions.close = (reason, resumeRead: !isReading, resumeWrite: !isWriteArmed)
        isReading = true
        isWriteArmed = true
        if !isRunning { closeSession(&actions) }
        return actions
    }

    /// One of the two sources ran its cancel handler.
    mutating func sourceCancelled() -> Actions {
        var actions = Actions()
        cancelledSources += 1
        actions.closeDescriptor = cancelledSources == 2
        return actions
    }

    // MARK: Private

    private var sessionClosed = false
    private var cancelledSources = 0

    /// With no work running and output not paused: starts the pending work and reads on, or closes a drained
    /// connection.
    private mutating func proceed(unsent: Int, _ actions: inout Actions) {
        if let next = pending.take() {
            isRunning = true
            actions.start = next
        }
        if phase == .open {
            if !isReading {
                isReading = true
                actions.resumeReading = true
            }
        } else if !isRunning && unsent == 0 {
            merge(close(reason: "done"), into: &actions)
        }
    }

    private mutating func suspendReading(_ actions: inout Actions) {
        guard isReading else { return }
        isReading = false
        actions.suspendReading = true
    }

    private mutating func closeSession(_ actions: inout Actions) {
        guard !sessionClosed else { return }
        sessionClosed = true
        actions.closeSession = true
    }

    /// Adds a close's actions to `actions`. Its resumes were decided on the state the earlier actions left, and
    /// the connection applies those first, so the source counts stay balanced.
    private func merge(_ other: Actions, into actions: inout Actions) {
        if let close = other.close { actions.close = close }
        actions.closeSession = actions.closeSession || other.closeSession
    }
}
