import Testing
import WaterfallTestSupport

@testable import WaterfallServer

/// The connection's rules under seeded random events (reads, writability, events, reply chunks, room requests,
/// finished work, writes reported late as another thread's would be, stall checks, closes and the events'
/// cancellation, in any order an event loop, a session and concurrent writers could produce): one write out at a
/// time and none after the close, reading watched only while no read waits, the session closed once and after the
/// last work, the descriptor closed once and after the cancellation and the last write, no work started after the
/// close or beside another, no event inside a reply, every room waiter released once, and the bytes in order.
@Suite struct ConnectionStateInvariantTests {
    @Test(arguments: 1...32 as ClosedRange<UInt64>)
    func randomEventsKeepEveryRule(seed: UInt64) {
        var run = RandomConnection(seed: seed)
        run.play(events: 4_000)
        run.finish()
        run.checkDelivered()
        let violations = Array(run.violations.prefix(5))
        #expect(violations.isEmpty, "seed \(seed)")
        #expect(run.repliesDelivered > 0, "seed \(seed): nothing answered before \(String(describing: run.closed))")
    }
}

/// A `ConnectionState` driven as a connection, its event loop and its session would, whose writes are reported
/// at a random later event (as a writer on another thread would), recording every rule broken.
struct RandomConnection {
    private(set) var violations: [String] = []
    private(set) var repliesDelivered = 0
    /// Why the connection closed, and after how many events.
    private(set) var closed: (reason: CloseReason, after: Int)?

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        // Small thresholds, so that pauses and room waits happen all the time.
        machine = ConnectionState(limits: OutputLimits(pauseBytes: 64, resumeBytes: 32, stallSeconds: 1))
    }

    mutating func play(events: Int) {
        for _ in 0..<events {
            self.events += 1
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<20 where machine.interest.reading:
                // A read: usually complete lines (a work), sometimes only part of one; rarely the end of input.
                let work = Int.random(in: 0..<5, using: &random) == 0 ? nil : nextRead
                if work != nil { nextRead += 1 }
                let endOfInput = nextRead > 50 && Int.random(in: 0..<100, using: &random) == 0
                switch machine.read(work, endOfInput: endOfInput) {
                case .none: break
                case .start(let work): start(work)
                case .close(let closing): close(closing)
                }
            case 0..<32 where machine.interest.writing:
                // Writability: the client read some.
                socket.room = Int.random(in: 1...48, using: &random)
                handOut(machine.writable())
            case 0..<50 where out != nil:
                report()
            case 0..<58:
                handOut(machine.send(Array("e\(nextEvent)\n".utf8), as: .events))
                nextEvent += 1
            case 0..<72 where running != nil && blocked == nil:
                let k = running!
                handOut(machine.send(Array("r\(k)-".utf8), as: .replyPart))
                if !machine.hasRoom {
                    let waiter = nextWaiter
                    nextWaiter += 1
                    switch machine.waitForRoom(waiter) {
                    case .now(let room): check(room || isClosed, "waiter \(waiter) refused while open")
                    case .later:
                        blocked = waiter
                        waiting.insert(waiter)
                    }
                }
            case 0..<86 where running != nil && blocked == nil:
                finishWork()
            case 0..<94:
                now += UInt64.random(in: 0...250_000_000, using: &random)
                switch machine.checkStall(now: now) {
                case .none: break
                case .write(let write): handOut(write)
                case .close(let closing): close(closing)
                }
            case 0..<97 where cancelPending:
                cancel()
            // Rare, so that most runs serve for a while first.
            case 97 where Int.random(in: 0..<20, using: &random) == 0:
                if let closing = machine.drain() { close(closing) }
            case 98 where Int.random(in: 0..<40, using: &random) == 0:
                if let closing = machine.close(.aborted("random")) { close(closing) }
            default:
                break
            }
            check(!isClosed || machine.interest == .none, "a closed connection still watched")
        }
    }

    /// Ends the run as the connection would: closes, lets the work running finish, the write out be reported and
    /// the events' cancellation come.
    mutating func finish() {
        if !isClosed, let closing = machine.close(.aborted("end of the run")) { close(closing) }
        if running != nil { finishWork() }
        while out != nil { report() }
        if cancelPending { cancel() }
        check(sessionCloses == 1, "the session closed \(sessionCloses) times")
        check(descriptorCloses == 1, "the descriptor closed \(descriptorCloses) times")
        check(waiting.isEmpty, "room waiters never released: \(waiting)")
    }

    /// The bytes delivered: whole lines, each an event or one reply's chunks; replies and events each in order.
    mutating func checkDelivered() {
        var lines = socket.delivered.split(separator: 0x0A, omittingEmptySubsequences: false)
        lines.removeLast()  // after the last newline: a line cut by the close, or nothing
        var nextReply = 0
        var nextEventSeen = 0
        for raw in lines {
            let line = String(decoding: raw, as: UTF8.self)
            if line.hasPrefix("e") {
                check(line == "e\(nextEventSeen)", "event \(line) where e\(nextEventSeen) was due")
                nextEventSeen += 1
            } else {
                let k = nextReply
                let expected =
                    line.hasSuffix("r\(k).")
                    && line.dropLast("r\(k).".count).split(separator: "-").allSatisfy {
                        $0 == "r\(k)"
                    }
                check(expected, "reply line \(line) where reply \(k) was due")
                nextReply += 1
            }
        }
        repliesDelivered = nextReply
    }

    // MARK: Private

    private typealias Machine = ConnectionState<Int, Int>

    private var machine: Machine
    private var random: SplitMix64
    private var socket = FakeSocket(room: 48)
    /// The write handed out and not yet reported.
    private var out: OutputQueue.PendingWrite?
    private var events = 0
    private var isClosed: Bool { closed != nil }
    /// The work running, and the waiter its producer is blocked on.
    private var running: Int?
    private var blocked: Int?
    private var nextRead = 0
    private var nextStart = 0
    private var nextEvent = 0
    private var nextWaiter = 0
    private var waiting: Set<Int> = []
    private var sessionCloses = 0
    private var descriptorCloses = 0
    private var cancelPending = false
    private var now: UInt64 = 0

    private mutating func check(_ condition: Bool, _ message: String) {
        if !condition { violations.append(message) }
    }

    private mutating func handOut(_ write: OutputQueue.PendingWrite?) {
        guard let write else { return }
        check(out == nil, "a write handed out while another was out")
        check(!isClosed, "a write handed out after the close")
        out = write
    }

    /// The writer of the write out writes it and reports.
    private mutating func report() {
        guard let write = out else { return }
        out = nil
        if Int.random(in: 0..<3, using: &random) == 0 { socket.room = Int.random(in: 0...48, using: &random) }
        let outcome = write.withBytes { socket.write($0) }
        switch machine.wrote(outcome) {
        case .write(let next): handOut(next)
        case .settled(let resumption): resume(resumption)
        case .close(let closing): close(closing)
        case .closeDescriptor: closeDescriptor()
        }
    }

    private mutating func finishWork() {
        guard let k = running else { return }
        running = nil
        blocked = nil
        switch machine.workFinished(reply: Array("r\(k).\n".utf8)) {
        case .write(let write): handOut(write)
        case .proceed(let resumption): resume(resumption)
        case .close(let closing): close(closing)
        case .closeSession: closeSession()
        }
    }

    private mutating func cancel() {
        cancelPending = false
        if machine.eventsCancelled() { closeDescriptor() }
    }

    private mutating func start(_ work: Int) {
        check(!isClosed, "work \(work) started after the close")
        check(running == nil, "work \(work) started while \(String(describing: running)) ran")
        check(work == nextStart, "work \(work) started where \(nextStart) was due")
        running = work
        nextStart = work + 1
    }

    private mutating func release(_ waiter: Int) {
        check(waiting.remove(waiter) != nil, "waiter \(waiter) released twice or never waited")
        if waiter == blocked { blocked = nil }
    }

    private mutating func resume(_ resumption: Machine.Resumption) {
        for waiter in resumption.waiters {
            check(!isClosed, "waiter \(waiter) given room after the close")
            release(waiter)
        }
        if let work = resumption.start { start(work) }
    }

    private mutating func close(_ closing: Machine.Closing) {
        check(!isClosed, "closed twice")
        closed = (closing.reason, events)
        cancelPending = true
        for waiter in closing.waiters { release(waiter) }
        if closing.closesSession { closeSession() }
    }

    private mutating func closeSession() {
        check(sessionCloses == 0, "the session closed twice")
        check(running == nil, "the session closed while work \(String(describing: running)) ran")
        sessionCloses += 1
    }

    private mutating func closeDescriptor() {
        check(isClosed && !cancelPending, "the descriptor closed before the cancellation")
        check(out == nil, "the descriptor closed while a write was out")
        descriptorCloses += 1
    }
}
