extension ConnectionState {
    /// One transition in progress: the serving data taken out of the phase (uniquely referenced, so its buffers are
    /// mutated in place), where the transition leaves the connection, and the actions it returns.
    struct Transition {
        /// Where a transition leaves an open or draining connection.
        enum Mode {
            case open
            case draining(CloseReason)
            case closing(CloseReason)
        }

        var serving: Serving
        var mode: Mode
        let limits: OutputLimits
        var actions = Actions()

        /// The rules that follow from the state, applied after every transition: held work goes on once the client
        /// has read down to `resumeBytes`, and so do room waiters; a drained connection closes; the read source is on
        /// exactly while the connection is open and no read waits; the write source is armed exactly while output
        /// is unsent.
        mutating func settle() {
            if case .closing = mode { return }
            let belowResume = serving.output.count < limits.resumeBytes
            if belowResume, case .paused(let next) = serving.work { proceed(to: next) }
            if belowResume, !serving.waiters.isEmpty {
                actions.wake = serving.waiters
                actions.room = true
                serving.waiters = []
            }
            if case .draining(let reason) = mode, case .idle = serving.work, serving.output.isEmpty {
                mode = .closing(reason)
                return
            }
            let wantsReading: Bool
            if case .open = mode { wantsReading = serving.work.next == nil } else { wantsReading = false }
            switch (serving.reading, wantsReading) {
            case (.reading, false):
                serving.reading = .suspended
                actions.change(read: .suspend)
            case (.suspended, true):
                serving.reading = .reading
                actions.change(read: .resume)
            default:
                break
            }
            if serving.writeArmed == serving.output.isEmpty {
                serving.writeArmed.toggle()
                actions.change(write: serving.writeArmed ? .resume : .suspend)
            }
        }

        /// With the last work done and room for output: starts `next`, or goes idle.
        mutating func proceed(to next: Work?) {
            if let next {
                serving.work = .running(next: nil)
                actions.start = next
            } else {
                serving.work = .idle
            }
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

        /// Writes unless the write source is armed (the socket was full: what is queued waits for writability).
        mutating func flushUnlessArmed(_ write: Write) {
            if !serving.writeArmed { flush(write) }
        }

        /// Writes what the socket takes; a failed write closes the connection.
        mutating func flush(_ write: Write) {
            guard !serving.output.isEmpty else { return }
            var written = 0
            let result = serving.output.flush(written: &written, write)
            serving.written += written
            actions.written += written
            if case .failed(let error) = result { mode = .closing(.writeFailed(error)) }
        }

        /// Closes: drops the output, the read waiting and the held events, releases room waiters with false, and
        /// leaves both sources resumed for their cancellation (the contract dispatch sources set: no cancel handler
        /// ran for a suspended or never-activated one). Returns the closed phase.
        mutating func close(_ reason: CloseReason) -> Phase {
            switch serving.reading {
            case .inactive: actions.change(read: .activate)
            case .suspended: actions.change(read: .resume)
            case .reading: break
            }
            if !serving.writeArmed { actions.change(write: .resume) }
            // A work this transition would have started does not start; then none runs (one runs at a time).
            let running: Bool
            switch serving.work {
            case .running: running = actions.start == nil
            case .idle, .paused: running = false
            }
            actions.start = nil
            actions.closed = reason
            actions.wake += serving.waiters
            actions.room = false
            actions.closeSession = !running
            serving = Serving()
            return .closed(workRunning: running, cancelledSources: 0)
        }
    }
}
