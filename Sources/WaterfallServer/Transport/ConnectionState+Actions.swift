/// What each transition of `ConnectionState` returns: an action type per transition that lists only what that
/// transition can ask for. The connection does what it says, outside its lock; a `PendingWrite` is written and its
/// outcome reported with `wrote`.
extension ConnectionState {
    /// What a read asks for.
    enum ReadAction {
        case none
        /// Run this work; when it returns, report `workFinished` with its bytes.
        case start(Work)
        case close(Closing)
    }

    /// What a finished work asks for.
    enum WorkFinishedAction {
        /// Write these bytes (the reply, or what was queued before it); the next work's start is decided once the
        /// writer reports the end.
        case write(OutputQueue.PendingWrite)
        /// The reply waits for a write that is out, or for writability; maybe the next work starts.
        case proceed(Resumption)
        case close(Closing)
        /// The connection had closed while the work ran: close the session now.
        case closeSession
    }

    /// What a write's report asks for.
    enum WroteAction {
        /// Write these bytes too: the rest of the chunk, or the next one.
        case write(OutputQueue.PendingWrite)
        /// Nothing is being written any more: the socket is full or the output all written.
        case settled(Resumption)
        case close(Closing)
        /// The write was the last use of the descriptor of a closed connection whose events are cancelled.
        case closeDescriptor
    }

    /// The answer to a reply producer's room request.
    enum RoomAnswer: Equatable {
        /// Resume the producer at once: true when there is room, false when the connection is closed.
        case now(Bool)
        /// The producer is kept, and released by a later `Resumption` (true) or `Closing` (false).
        case later
    }

    /// What a stall check asks for.
    enum StallAction {
        case none
        /// Offer the socket these bytes; the check is decided once the writer reports the end.
        case write(OutputQueue.PendingWrite)
        case close(Closing)
    }

    /// What goes on once the client has read enough (or the limits rose): the work to start and the room waiters
    /// to release with true.
    struct Resumption {
        /// Run this work; when it returns, report `workFinished` with its bytes.
        var start: Work?
        var waiters: [Waiter] = []
    }

    /// The connection closed in this transition (once): the connection drops the framer's partial line, logs the
    /// reason (and counts a stall), releases `waiters` with false, and closes the session when `closesSession`
    /// (else the running work's `workFinished` says so). Its socket's interest is nothing from now on: the events
    /// are cancelled.
    struct Closing {
        var reason: CloseReason
        var waiters: [Waiter]
        /// No work runs: the session closes now.
        var closesSession: Bool
    }
}

extension ConnectionState.ReadAction: Sendable where Work: Sendable, Waiter: Sendable {}
extension ConnectionState.WorkFinishedAction: Sendable where Work: Sendable, Waiter: Sendable {}
extension ConnectionState.WroteAction: Sendable where Work: Sendable, Waiter: Sendable {}
extension ConnectionState.StallAction: Sendable where Work: Sendable, Waiter: Sendable {}
extension ConnectionState.Resumption: Sendable where Work: Sendable, Waiter: Sendable {}
extension ConnectionState.Closing: Sendable where Work: Sendable, Waiter: Sendable {}
