import Synchronization
import WaterfallProtocol

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
        transition { $0.start() }
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
        flushAfterRead()
        return text
    }

    // MARK: OutputSink

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        transitionWriting { $0.send(bytes, as: .events, write: $1) }
        return !isClosed
    }

    @discardableResult
    func sendReplies(_ bytes: [UInt8], endingInsideAReply: Bool) -> Bool {
        transitionWriting { $0.send(bytes, as: endingInsideAReply ? .replyPart : .replies, write: $1) }
        return !isClosed
    }

    func waitForRoom() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            transition { $0.waitForRoom(continuation) }
        }
    }

    func close() {
        transition { $0.drain() }
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
        /// A read is being framed and prepared (one at a time, as on a connection's queue).
        var pumping = false
        var running = 0
        var sessionClosed = false

        var isIdle: Bool {
            guard running == 0, !pumping else { return false }
            return !machine.isReading || (inbound.isEmpty && !endOfInput)
        }
    }

    private let state: Mutex<State>

    private func transition(_ body: (inout Machine) -> Machine.Actions) {
        let (actions, session) = state.withLock { state in
            let actions = body(&state.machine)
            if actions.start != nil { state.running += 1 }
            return (actions, actions.closeSession ? state.session : nil)
        }
        perform(actions, session)
    }

    /// A transition that writes: to the fake socket, under the same lock.
    private func transitionWriting(_ body: (inout Machine, Machine.Write) -> Machine.Actions) {
        let (actions, session) = state.withLock { state in
            var socket = state.socket
            let actions = body(&state.machine) { socket.write($0) }
            state.socket = socket
            if actions.start != nil { state.running += 1 }
            return (actions, actions.closeSession ? state.session : nil)
        }
        perform(actions, session)
    }

    private func flushAfterRead() {
        transitionWriting { $0.writable(write: $1) }
    }

    private func perform(_ actions: Machine.Actions, _ session: (any Session)?) {
        for waiter in actions.wake { waiter.resume(returning: actions.room) }
        if actions.closed != nil {
            // No dispatch sources: their cancel handlers "run" at once.
            transition { $0.sourceCancelled() }
            transition { $0.sourceCancelled() }
        }
        if let work = actions.start {
            Task {
                let reply = await work()
                releaseIfIdle()
                transitionWriting { $0.workFinished(reply: reply, write: $1) }
                state.withLock { $0.running -= 1 }
                pump()
            }
        }
        if let session {
            Task {
                await session.close()
                state.withLock { $0.sessionClosed = true }
            }
        }
        if actions.read == .resume { pump() }
    }

    /// As a connection does when a work ends: the framer's spares and the session's bulk buffers go once nothing is
    /// left to do (no read being taken, none waiting, no line partly received).
    private func releaseIfIdle() {
        let session = state.withLock { state -> (any Session)? in
            guard !state.pumping, state.machine.isReading, state.framer.releaseSpares().pooledLines else { return nil }
            return state.session
        }
        session?.clientPaused()
    }

    /// Takes what the client sent as one read, if reading is on and no other read is being taken.
    private func pump() {
        let taken = state.withLock { state -> (any Session, [InputLine], Bool)? in
            guard !state.pumping, state.machine.isReading, let session = state.session,
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
        transition { $0.read(work, endOfInput: endOfInput) }
        state.withLock { $0.pumping = false }
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
