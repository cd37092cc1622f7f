extension ConnectionState {
    /// One transition in progress: the serving data taken out of the phase (uniquely referenced, so its buffers are
    /// mutated in place) and where the transition leaves the connection.
    struct Step {
        /// Where a transition leaves an open or draining connection.
        enum Mode {
            case open
            case draining(CloseReason)
            case closing(CloseReason)
        }

        var serving: Serving
        var mode: Mode
        let limits: OutputLimits
        /// Whether this step started a work: a close in the same step then knows that it never ran.
        private(set) var started = false

        var isClosing: Bool {
            if case .closing = mode { true } else { false }
        }

        /// Starts `work`: it runs, and nothing waits behind it.
        mutating func start(_ work: Work) -> Work {
            serving.work = .running(next: nil)
            started = true
            return work
        }

        /// The decisions that wait for no write being out, on what the socket took: a stall check that waited,
        /// then the finished work's successor (held when the client has `pauseBytes` unsent), held work and room
        /// waiters once the client is below `resumeBytes`, and a drained connection's close.
        mutating func settle() -> Resumption {
            var resumption = Resumption()
            guard !serving.writeOut, !isClosing else { return resumption }
            if let at = serving.pendingCheck {
                serving.pendingCheck = nil
                checkProgress(at: at)
                if isClosing { return resumption }
            }
            if case .finished(let next) = serving.work {
                if serving.output.count >= limits.pauseBytes {
                    serving.work = .paused(next: next)
                } else {
                    resumption.start = proceed(to: next)
                }
            }
            let belowResume = serving.output.count < limits.resumeBytes
            if belowResume, case .paused(let next) = serving.work { resumption.start = proceed(to: next) }
            closeIfDrained()
            if belowResume, !isClosing, !serving.waiters.isEmpty {
                resumption.waiters = serving.waiters
                serving.waiters = []
            }
            return resumption
        }

        /// A draining connection with nothing in flight closes.
        mutating func closeIfDrained() {
            if case .draining(let reason) = mode, case .idle = serving.work, serving.output.isEmpty {
                mode = .closing(reason)
            }
        }

        /// The stall check at `at`, with no write out: closes when unsent output made no progress since a check
        /// more than `stallSeconds` before.
        mutating func checkProgress(at: UInt64) {
            guard !serving.output.isEmpty else {
                serving.lastCheck = nil
                return
            }
            guard let last = serving.lastCheck, last.written == serving.written else {
                serving.lastCheck = (serving.written, at)
                return
            }
            if Double(at &- last.at) / 1e9 > limits.stallSeconds {
                mode = .closing(.stalled(seconds: limits.stallSeconds))
            }
        }

        /// Hands out the bytes to write next, unless a write is out or nothing is queued; output that waits for
        /// writability is handed out only `whenFull` (writability, a stall check, the rest of a write).
        mutating func startWrite(whenFull: Bool = false) -> OutputQueue.PendingWrite? {
            guard !serving.writeOut, whenFull || !serving.socketFull, let write = serving.output.nextWrite() else {
                return nil
            }
            serving.writeOut = true
            return write
        }

        /// Queues bytes behind what is queued; events wait while a reply is partly queued, and follow its end.
        mutating func queue(_ bytes: [UInt8], as kind: OutputKind) {
            guard !bytes.isEmpty else { return }
            switch (kind, serving.reply) {
            case (.events, .inside(var held, let heldBytes)):
                // Out of the enum first, so that `held` is appended to in place.
                serving.reply = .between
                held.append(bytes)
                serving.reply = .inside(held: held, heldBytes: heldBytes + bytes.count)
            case (.events, .between), (.replies, .between), (.replyPart, .inside):
                serving.output.append(bytes)
            case (.replyPart, .between):
                serving.output.append(bytes)
                serving.reply = .inside(held: [], heldBytes: 0)
            case (.replies, .inside(let held, _)):
                serving.output.append(bytes)
                for event in held { serving.output.append(event) }
                serving.reply = .between
            }
        }

        /// Closes: drops the output, the read waiting and the held events, and releases the room waiters with
        /// false. Returns the closed phase and the action.
        mutating func close(_ reason: CloseReason) -> (Closed, Closing) {
            // A work this step started is dropped unrun; then none runs (one runs at a time).
            var running = false
            if case .running = serving.work { running = !started }
            let closing = Closing(reason: reason, waiters: serving.waiters, closesSession: !running)
            let closed = Closed(workRunning: running, writeOut: serving.writeOut)
            serving = Serving()
            return (closed, closing)
        }

        // MARK: Private

        /// With the last work done and room for output: starts `next`, or goes idle.
        private mutating func proceed(to next: Work?) -> Work? {
            guard let next else {
                serving.work = .idle
                return nil
            }
            return start(next)
        }
    }
}
