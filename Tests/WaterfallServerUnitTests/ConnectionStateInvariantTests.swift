import Testing
import WaterfallTestSupport

@testable import WaterfallServer

/// The connection's rules under seeded random events (reads, writability, events, reply chunks, room requests,
/// finished work, stall checks, closes and cancel handlers, in any order dispatch and a session could produce):
/// the sources are suspended and resumed in balance and resumed before their cancellation, the session closes once
/// and after the last work, no work starts after the close or beside another, no event lands inside a reply, every
/// room waiter is released once, and the bytes arrive in order.
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

/// A `ConnectionState` driven as dispatch and a session would, with a model of its sources that records every rule
/// broken.
struct RandomConnection {
    enum Source {
        case inactive
        case running
        case suspended
        case cancelled
    }

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
        perform(machine.start())
        for _ in 0..<events {
            self.events += 1
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<22 where read == .running && !isClosed:
                // A read: usually complete lines (a work), sometimes only part of one; rarely the end of input.
                let work = Int.random(in: 0..<5, using: &random) == 0 ? nil : nextRead
                if work != nil { nextRead += 1 }
                let endOfInput = nextRead > 50 && Int.random(in: 0..<100, using: &random) == 0
                perform(machine.read(work, endOfInput: endOfInput))
            case 0..<40 where write == .running:
                socket.room = Int.random(in: 0...48, using: &random)
                perform(machine.writable { socket.write($0) })
            case 0..<50:
                perform(machine.send(Array("e\(nextEvent)\n".utf8), as: .events) { socket.write($0) })
                nextEvent += 1
            case 0..<68 where running != nil && blocked == nil:
                let k = running!
                perform(machine.send(Array("r\(k)-".utf8), as: .replyPart) { socket.write($0) })
                if !machine.hasRoom {
                    blocked = nextWaiter
                    waiting.insert(nextWaiter)
                    nextWaiter += 1
                    perform(machine.waitForRoom(blocked!))
                }
            case 0..<86 where running != nil && blocked == nil:
                let k = running!
                running = nil
                perform(machine.workFinished(reply: Array("r\(k).\n".utf8)) { socket.write($0) })
            case 0..<94:
                now += UInt64.random(in: 0...250_000_000, using: &random)
                perform(machine.checkStall(now: now) { socket.write($0) })
            case 0..<97 where cancelsPending > 0:
                cancelsPending -= 1
                perform(machine.sourceCancelled())
            // Rare, so that most runs serve for a while first.
            case 97 where Int.random(in: 0..<20, using: &random) == 0:
                perform(machine.drain())
            case 98 where Int.random(in: 0..<40, using: &random) == 0:
                perform(machine.close(.aborted("random")))
            default:
                break
            }
        }
    }

    /// Ends the run as the shell would: closes, lets the work running finish and the cancel handlers run.
    mutating func finish() {
        if !isClosed { perform(machine.close(.aborted("end of the run"))) }
        if let k = running {
            running = nil
            blocked = nil
            perform(machine.workFinished(reply: Array("r\(k).\n".utf8)) { socket.write($0) })
        }
        while cancelsPending > 0 {
            cancelsPending -= 1
            perform(machine.sourceCancelled())
        }
        check(sessionCloses == 1, "the session closed \(sessionCloses) times")
        check(descriptorCloses == 1, "the descriptor closed \(descriptorCloses) times")
        check(waiting.isEmpty, "room waiters never released: \(waiting)")
        check(read == .cancelled && write == .cancelled, "sources left \(read), \(write)")
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

    private var machine: ConnectionState<Int, Int>
    private var random: SplitMix64
    private var socket = FakeSocket(room: 48)
    private var read = Source.inactive
    private var write = Source.inactive
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
    private var cancelsPending = 0
    private var now: UInt64 = 0

    private mutating func check(_ condition: Bool, _ message: String) {
        if !condition { violations.append(message) }
    }

    /// Does what dispatch and the shell would, checking that each is allowed.
    private mutating func perform(_ actions: ConnectionState<Int, Int>.Actions) {
        switch actions.read {
        case .activate:
            check(read == .inactive, "read source activated while \(read)")
            read = .running
        case .resume:
            check(read == .suspended, "read source resumed while \(read)")
            read = .running
        case .suspend:
            check(read == .running, "read source suspended while \(read)")
            read = .suspended
        case nil:
            break
        }
        switch actions.write {
        case .resume, .activate:
            check(write == .inactive || write == .suspended, "write source resumed while \(write)")
            write = .running
        case .suspend:
            check(write == .running, "write source suspended while \(write)")
            write = .suspended
        case nil:
            break
        }
        if let reason = actions.closed {
            check(!isClosed, "closed twice")
            check(read == .running && write == .running, "cancelled with sources \(read), \(write)")
            closed = (reason, events)
            read = .cancelled
            write = .cancelled
            cancelsPending = 2
        }
        if let work = actions.start {
            check(!isClosed, "work \(work) started after the close")
            check(running == nil, "work \(work) started while \(String(describing: running)) ran")
            check(work == nextStart, "work \(work) started where \(nextStart) was due")
            running = work
            nextStart = work + 1
        }
        for waiter in actions.wake {
            check(waiting.remove(waiter) != nil, "waiter \(waiter) released twice or never waited")
            check(actions.room || isClosed, "waiter \(waiter) refused while open")
            if waiter == blocked { blocked = nil }
        }
        if actions.closeSession {
            check(sessionCloses == 0, "the session closed twice")
            check(running == nil, "the session closed while work \(String(describing: running)) ran")
            sessionCloses += 1
        }
        if actions.closeDescriptor {
            check(read == .cancelled && write == .cancelled && cancelsPending == 0, "descriptor closed early")
            descriptorCloses += 1
        }
    }
}
