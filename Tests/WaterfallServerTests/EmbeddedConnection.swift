import Synchronization
import WaterfallProtocol
import WaterfallWire

@testable import WaterfallServer

/// A connection without a socket, for driving a `Session` in tests (swift-nio's `EmbeddedChannel`): the daemon's
/// `ConnectionState` and `LineFramer`, a fake socket whose room the test controls, and the work of reads run in
/// tasks, in order, as `Connection` runs them. It is the session's `OutputSink`.
///
///     let connection = EmbeddedConnection()
///     connection.attach(service.openSession(peer: connection.peer, output: connection))
///     connection.receive(#"{"id":1,"method":"ping"}"# + "\n")
///     await connection.idle()
///     connection.readOutput()  // the reply line
final class EmbeddedConnection: OutputSink, Sendable {
    // MARK: Lifecycle

    /// A connection with the default limits (`Config()`), or others; `socketRoom` is what the fake socket takes
    /// before the client reads (`readOutput`).
    init(limits: OutputLimits? = nil, maxLineBytes: Int = Config().maxLineBytes, socketRoom: Int = .max) {
        let config = Config()
        let limits =
            limits
            ?? OutputLimits(
                pauseBytes: config.outputPauseBytes, resumeBytes: config.outputPauseBytes / 2,
                stallSeconds: config.outputStallSeconds)
        state = Mutex(
            State(
                machine: Machine(limits: limits), framer: LineFramer(maxLineBytes: maxLineBytes),
                socket: FakeSocket(room: socketRoom)))
    }

    // MARK: Internal

    let peer = PeerCredentials(pid: 1, uid: 0, gid: 0)

    /// Whether the session's `close` has returned.
    var sessionClosed: Bool { state.withLock { $0.sessionClosed } }

    var pendingBytes: Int { state.withLock { $0.machine.pendingBytes } }
    var isClosed: Bool { state.withLock { $0.machine.isClosed } }
    var hasRoom: Bool { state.withLock { $0.machine.hasRoom } }

    /// Attaches the session and starts reading.
    func attach(_ session: any Session) {
        state.withLock { $0.session = session }
        pump()
    }

    /// The client sends `text`: it is read once reading is on (at once, unless a read waits for the work before).
    func receive(_ text: String) {
        state.withLock { $0.inbound += text.utf8 }
        pump()
    }

    /// The client closes its end.
    func receiveEndOfInput() {
        state.withLock { $0.endOfInput = true }
        pump()
    }

    /// Returns once no work runs and no read waits that could run (work held for room waits for `readOutput`).
    func idle() async {
        while state.withLock({ !$0.isIdle }) { await Task.yield() }
    }

    /// What the client reads: everything the fake socket took; then it takes `room` more bytes (a client that
    /// reads makes room), and what was waiting is written.
    func readOutput(room: Int = .max) -> String {
        let text = state.withLock { state in
            defer { state.socket = FakeSocket(room: room) }
            return state.socket.text
        }
        if let write = transition({ $0.writable() }) { perform(write) }
        return text
    }

    // MARK: OutputSink

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

    func waitForRoom() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            if case .now(let room) = transition({ $0.waitForRoom(continuation) }) {
                continuation.resume(returning: room)
            }
        }
    }

    func close() {
        if let closing = transition({ $0.drain() }) { perform(closing) }
    }

    // MARK: Private

    private typealias Machine = ConnectionState<SessionWork, CheckedContinuation<Bool, Never>>

    private struct State {
        var machine: Machine
        var framer: LineFramer
        var socket: FakeSocket
        var session: (any Session)?
        var inbound: [UInt8] = []
        var endOfInput = false
        /// A read is being framed and prepared (one at a time, as on a connection's event loop).
        var pumping = false
        var running = 0
        var sessionClosed = false

        var isIdle: Bool {
            guard running == 0, !pumping, !workStarted else { return false }
            return !machine.interest.reading || (inbound.isEmpty && !endOfInput)
        }

        /// Whether the machine started a work (or has its reply out) that `running` does not count yet.
        var workStarted: Bool {
            switch machine.phase {
            case .open(let serving), .draining(let serving, _):
                switch serving.work {
                case .running, .finished: true
                case .idle, .paused: false
                }
            case .closed(let closed): closed.workRunning
            case .modifying: false
            }
        }
    }

    private let state: Mutex<State>

    /// Runs one transition under the lock; a closed machine's events are cancelled at once (no event loop).
    private func transition<Action>(_ body: (inout Machine) -> Action) -> Action {
        var cancelled = false
        let action = state.withLock { state -> Action in
            let wasClosed = state.machine.isClosed
            let action = body(&state.machine)
            cancelled = !wasClosed && state.machine.isClosed
            return action
        }
        if cancelled { _ = transition { $0.eventsCancelled() } }
        return action
    }

    /// Writes to the fake socket what the machine hands out, as `Connection` writes to its socket.
    private func perform(_ first: OutputQueue.PendingWrite) {
        var write = first
        while true {
            let outcome = state.withLock { state in write.withBytes { state.socket.write($0) } }
            switch transition({ $0.wrote(outcome) }) {
            case .write(let next):
                write = next
            case .settled(let resumption):
                perform(resumption)
                return
            case .close(let closing):
                perform(closing)
                return
            case .closeDescriptor:
                return
            }
        }
    }

    private func perform(_ resumption: Machine.Resumption) {
        for waiter in resumption.waiters { waiter.resume(returning: true) }
        if let work = resumption.start { run(work) }
        // Reading may be back on: what the client sent meanwhile is read.
        pump()
    }

    private func perform(_ closing: Machine.Closing) {
        for waiter in closing.waiters { waiter.resume(returning: false) }
        if closing.closesSession { closeSession() }
    }

    private func closeSession() {
        guard let session = state.withLock({ $0.session }) else { return }
        Task {
            await session.close()
            state.withLock { $0.sessionClosed = true }
        }
    }

    /// Runs a read's work in a task, then reports its reply and does what that asks.
    private func run(_ work: @escaping SessionWork) {
        state.withLock { $0.running += 1 }
        Task {
            let reply = await work()
            releaseIfIdle()
            let finished = transition { $0.workFinished(reply: reply) }
            state.withLock { $0.running -= 1 }
            switch finished {
            case .write(let write): perform(write)
            case .proceed(let resumption): perform(resumption)
            case .close(let closing): perform(closing)
            case .closeSession: closeSession()
            }
            pump()
        }
    }

    /// As a connection does when a work ends: the framer's spares and the session's bulk buffers go once nothing is
    /// left to do (no read being taken, none waiting, no line partly received).
    private func releaseIfIdle() {
        let session = state.withLock { state -> (any Session)? in
            guard !state.pumping, state.machine.interest.reading, state.framer.releaseSpares().pooledLines else {
                return nil
            }
            return state.session
        }
        session?.clientPaused()
    }

    /// Takes what the client sent as one read, if reading is on and no other read is being taken.
    private func pump() {
        let taken = state.withLock { state -> (any Session, [InputLine], Bool)? in
            guard !state.pumping, state.machine.interest.reading, let session = state.session,
                !state.inbound.isEmpty || state.endOfInput
            else { return nil }
            state.pumping = true
            let lines = state.framer.append(state.inbound)
            state.inbound = []
            defer { state.endOfInput = false }
            return (session, lines, state.endOfInput)
        }
        guard let (session, lines, endOfInput) = taken else { return }
        let work = lines.isEmpty ? nil : session.prepare(lines)
        let action = transition { $0.read(work, endOfInput: endOfInput) }
        state.withLock { $0.pumping = false }
        switch action {
        case .none: break
        case .start(let work): run(work)
        case .close(let closing): perform(closing)
        }
        pump()
    }
}

/// The fake socket of an `EmbeddedConnection`: takes up to `room` bytes per write, then would block. (The unit tests'
/// `FakeSocket` also fails on demand; test targets share no internal types, so this keeps only what is used here.)
private struct FakeSocket {
    var room = Int.max
    private(set) var delivered: [UInt8] = []

    var text: String { String(decoding: delivered, as: UTF8.self) }

    mutating func write(_ bytes: UnsafeRawBufferPointer) -> OutputQueue.WriteOutcome {
        let count = min(room, bytes.count)
        guard count > 0 else { return .wouldBlock }
        if room != .max { room -= count }
        delivered += bytes[..<count]
        return .wrote(count)
    }
}
