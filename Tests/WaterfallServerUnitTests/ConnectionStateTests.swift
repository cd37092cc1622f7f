import Testing

@testable import WaterfallServer

/// The connection's rules, driven as a value: no socket, thread or event loop (the way swift-nio tests its channel
/// handlers on an `EmbeddedChannel`). Each transition is called alone and its action read; work and waiters are
/// numbers, so a test sees which read's work starts and which producer is released, and a `FakeSocket` takes what
/// it has room for when a test writes what a transition handed out.
@Suite struct ConnectionStateTests {
    typealias Machine = ConnectionState<Int, Int>

    static let limits = OutputLimits(pauseBytes: 1000, resumeBytes: 500, stallSeconds: 1)
    static let second: UInt64 = 1_000_000_000

    @Test func aNewConnectionWatchesReadingOnly() {
        let machine = Machine(limits: Self.limits)
        #expect(machine.interest == SocketInterest(reading: true, writing: false))
    }

    @Test func sendHandsOutTheBytesAndTheReportEndsTheWrite() throws {
        var machine = Machine(limits: Self.limits)
        let write = try unwrap(machine.send(bytes("a\n"), as: .events))
        #expect(text(write) == "a\n")
        #expect(machine.send(bytes("b\n"), as: .events) == nil, "one write out at a time")
        #expect(machine.pendingBytes == 4)
        guard case .write(let rest) = machine.wrote(.wrote(2)) else {
            Issue.record("the queued event is handed out next")
            return
        }
        #expect(text(rest) == "b\n")
        guard case .settled(let resumption) = machine.wrote(.wrote(2)) else {
            Issue.record("nothing left to write")
            return
        }
        #expect(resumption.start == nil && resumption.waiters.isEmpty)
        #expect(machine.pendingBytes == 0)
        #expect(machine.interest == SocketInterest(reading: true, writing: false))
    }

    @Test func aPartialWriteHandsOutTheRestOfTheChunk() throws {
        var machine = Machine(limits: Self.limits)
        let write = try unwrap(machine.send(bytes("hello\n"), as: .replies))
        #expect(write.count == 6)
        guard case .write(let rest) = machine.wrote(.wrote(4)) else {
            Issue.record("the rest is handed out")
            return
        }
        #expect(text(rest) == "o\n")
    }

    @Test func aFullSocketIsWatchedForWritabilityUntilTheQueueEmpties() throws {
        var machine = Machine(limits: Self.limits)
        _ = try unwrap(machine.send(bytes("abc\n"), as: .events))
        guard case .settled = machine.wrote(.wouldBlock) else {
            Issue.record("a full socket ends the write")
            return
        }
        #expect(machine.interest.writing)
        #expect(machine.send(bytes("d\n"), as: .events) == nil, "output waits for writability")
        let again = try unwrap(machine.writable())
        #expect(text(again) == "abc\nd\n", "the event merged into the chunk that waits")
        guard case .write(let rest) = machine.wrote(.wrote(1)) else {
            Issue.record("the rest is handed out")
            return
        }
        #expect(machine.interest.writing, "still watched while what waited is written")
        guard case .settled = machine.wrote(.wrote(rest.count)) else {
            Issue.record("the queue is empty")
            return
        }
        #expect(!machine.interest.writing)
    }

    @Test func oneReadRunsAndTheNextWaitsWithReadingOff() throws {
        var machine = Machine(limits: Self.limits)
        guard case .start(1) = machine.read(1, endOfInput: false) else {
            Issue.record("the first read's work starts")
            return
        }
        guard case .none = machine.read(2, endOfInput: false) else {
            Issue.record("the second waits")
            return
        }
        #expect(!machine.interest.reading)
        guard case .write(let write) = machine.workFinished(reply: bytes("a\n")) else {
            Issue.record("the reply is handed out")
            return
        }
        #expect(text(write) == "a\n")
        #expect(!machine.interest.reading, "the next work is decided once the reply is written")
        guard case .settled(let resumption) = machine.wrote(.wrote(2)) else {
            Issue.record("the write ends")
            return
        }
        #expect(resumption.start == 2)
        #expect(machine.interest.reading)
    }

    @Test func outputOverThePauseHoldsWorkUntilItDrainsBelowTheResume() throws {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        _ = machine.read(1, endOfInput: false)
        _ = machine.read(2, endOfInput: false)
        guard case .write(let write) = machine.workFinished(reply: [UInt8](repeating: 0x78, count: 1200)) else {
            Issue.record("the reply is handed out")
            return
        }
        var last = socket.drive(&machine, write)
        #expect(last.start == nil)
        #expect(machine.interest.writing)
        #expect(!machine.hasRoom)
        socket.room = 700
        last = socket.drive(&machine, try unwrap(machine.writable()))
        #expect(last.start == nil, "500 unsent is not below the resume threshold")
        #expect(machine.interest.writing)
        socket.room = 10_000
        last = socket.drive(&machine, try unwrap(machine.writable()))
        #expect(last.start == 2)
        #expect(machine.interest == SocketInterest(reading: true, writing: false))
        #expect(socket.delivered.count == 1200)
    }

    @Test func eventsWaitWhileAReplyIsPartlyQueuedAndFollowItsEnd() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket()
        _ = machine.read(1, endOfInput: false)
        socket.send(&machine, "[part", as: .replyPart)
        socket.send(&machine, "event\n", as: .events)
        #expect(socket.text == "[part")
        #expect(machine.pendingBytes == 6, "the held event counts as pending")
        socket.send(&machine, " end]\n", as: .replies)
        socket.send(&machine, "second\n", as: .events)
        #expect(socket.text == "[part end]\nevent\nsecond\n")
    }

    @Test func aReplyProducerWaitsUntilTheClientReadsDownToHalfThePause() throws {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        _ = machine.read(1, endOfInput: false)
        #expect(machine.waitForRoom(6) == .now(true))
        socket.drive(&machine, try unwrap(machine.send([UInt8](repeating: 0x78, count: 1000), as: .replyPart)))
        #expect(!machine.hasRoom)
        #expect(machine.waitForRoom(7) == .later)
        socket.room = 400
        #expect(socket.drive(&machine, try unwrap(machine.writable())).waiters.isEmpty, "600 unsent: not below 500")
        socket.room = 200
        #expect(socket.drive(&machine, try unwrap(machine.writable())).waiters == [7])
    }

    @Test func aCloseReleasesRoomWaitersWithFalseAndLaterOnesAtOnce() throws {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        socket.drive(&machine, try unwrap(machine.send([UInt8](repeating: 0x78, count: 1000), as: .replyPart)))
        _ = machine.waitForRoom(1)
        let closed = try unwrap(machine.close(.aborted("test")))
        #expect(closed.waiters == [1])
        #expect(closed.closesSession)
        #expect(machine.waitForRoom(2) == .now(false))
        #expect(machine.pendingBytes == 0)
        #expect(machine.interest == .none)
    }

    @Test func outputWithoutProgressForTheStallTimeCloses() throws {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        #expect(socket.check(&machine, now: 0) == nil)
        socket.send(&machine, "0123456789", as: .events)
        #expect(
            socket.check(&machine, now: 1 * Self.second) == nil, "the first check that sees output starts the clock")
        #expect(socket.check(&machine, now: Self.second + Self.second / 2) == nil)
        socket.room = 1
        socket.drive(&machine, try unwrap(machine.writable()))
        #expect(socket.check(&machine, now: 3 * Self.second) == nil, "a byte written is progress")
        #expect(socket.check(&machine, now: 3 * Self.second + Self.second / 2) == nil)
        let stalled = try unwrap(socket.check(&machine, now: 4 * Self.second + Self.second / 10))
        #expect(stalled.reason == .stalled(seconds: 1))
        #expect(stalled.closesSession)
    }

    /// A writability event that never comes does not close a client that reads: the stall check offers the socket
    /// the queued output itself, and what it takes is progress (else a reply could be lost).
    @Test func aLostWakeUpCostsACheckNotTheConnection() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        socket.send(&machine, "0123456789", as: .replies)
        #expect(machine.pendingBytes == 10)
        // The client reads everything, but no writability event reaches the machine.
        socket.room = 100
        #expect(socket.check(&machine, now: 1 * Self.second) == nil)
        #expect(machine.pendingBytes == 0)
        #expect(socket.check(&machine, now: 5 * Self.second) == nil)
    }

    /// A stall check that finds a write out waits for its report, and is decided on what the socket took.
    @Test func aStallCheckDuringAWriteIsDecidedByItsReport() throws {
        var machine = Machine(limits: Self.limits)
        socketFull(&machine, "0123456789")
        guard case .write(let offered) = machine.checkStall(now: 1 * Self.second) else {
            Issue.record("the check offers the socket what waits for writability")
            return
        }
        #expect(offered.count == 10)
        guard case .settled = machine.wrote(.wouldBlock) else {
            Issue.record("nothing taken: the clock starts at the report")
            return
        }
        let write = try unwrap(machine.writable())
        #expect(write.count == 10)
        #expect(machine.checkStall(now: 3 * Self.second).isNone, "waits for the write out")
        guard case .close(let closing) = machine.wrote(.wouldBlock) else {
            Issue.record("nothing taken in two seconds: the check closes at the report")
            return
        }
        #expect(closing.reason == .stalled(seconds: 1))
    }

    @Test func theEndOfInputDrainsTheWorkAndItsOutputThenCloses() throws {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        guard case .start(1) = machine.read(1, endOfInput: true) else {
            Issue.record("the last read's work starts")
            return
        }
        #expect(!machine.interest.reading)
        guard case .write(let write) = machine.workFinished(reply: bytes("bye\n")) else {
            Issue.record("the reply is handed out")
            return
        }
        #expect(socket.drive(&machine, write).closing == nil)
        #expect(machine.interest == SocketInterest(reading: false, writing: true))
        socket.room = 100
        let done = socket.drive(&machine, try unwrap(machine.writable()))
        #expect(done.closing?.reason == .peerClosed)
        #expect(done.closing?.closesSession == true)
        #expect(machine.isClosed)
        #expect(machine.interest == .none)
    }

    @Test func aPeerThatClosesWithNothingInFlightClosesAtOnce() {
        var machine = Machine(limits: Self.limits)
        guard case .close(let closing) = machine.read(nil, endOfInput: true) else {
            Issue.record("closes at once")
            return
        }
        #expect(closing.reason == .peerClosed)
        #expect(closing.closesSession)
    }

    @Test func aFailedWriteClosesButTheSessionWaitsForTheRunningWork() throws {
        var machine = Machine(limits: Self.limits)
        _ = machine.read(1, endOfInput: false)
        _ = machine.read(2, endOfInput: false)
        _ = try unwrap(machine.send(bytes("event\n"), as: .events))
        guard case .close(let closing) = machine.wrote(.failed(32)) else {
            Issue.record("a failed write closes")
            return
        }
        #expect(closing.reason == .writeFailed(32))
        #expect(!closing.closesSession)
        guard case .closeSession = machine.workFinished(reply: bytes("late\n")) else {
            Issue.record("the work's return closes the session; the read waiting is dropped")
            return
        }
        #expect(machine.close(.aborted("again")) == nil, "only once")
    }

    @Test func theDescriptorClosesOnceTheEventsAreCancelled() {
        var machine = Machine(limits: Self.limits)
        _ = machine.close(.aborted("test"))
        let closesDescriptor = machine.eventsCancelled()
        #expect(closesDescriptor)
    }

    /// A write out at the close is the descriptor's last use: it closes at the report, not before.
    @Test func theDescriptorWaitsForTheWriteOut() throws {
        var machine = Machine(limits: Self.limits)
        _ = try unwrap(machine.send(bytes("x\n"), as: .events))
        _ = machine.close(.aborted("test"))
        let closesDescriptor = machine.eventsCancelled()
        #expect(!closesDescriptor)
        guard case .closeDescriptor = machine.wrote(.wrote(2)) else {
            Issue.record("the report closes the descriptor")
            return
        }
    }

    @Test func aServerCloseWaitsForTheRunningWork() throws {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket()
        _ = machine.read(1, endOfInput: false)
        #expect(machine.drain() == nil)
        #expect(!machine.interest.reading)
        guard case .write(let write) = machine.workFinished(reply: bytes("last\n")) else {
            Issue.record("the reply is handed out")
            return
        }
        let finished = socket.drive(&machine, write)
        #expect(finished.closing?.reason == .closedByServer)
        #expect(finished.closing?.closesSession == true)
        #expect(socket.text == "last\n")
    }

    @Test func nothingHappensAfterTheClose() {
        var machine = Machine(limits: Self.limits)
        _ = machine.close(.aborted("test"))
        guard case .none = machine.read(1, endOfInput: false) else {
            Issue.record("no work starts after the close")
            return
        }
        #expect(machine.send(bytes("x\n"), as: .events) == nil)
        #expect(machine.writable() == nil)
        #expect(machine.checkStall(now: .max).isNone)
    }

    @Test func newLimitsApplyAtOnce() throws {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        socket.drive(&machine, try unwrap(machine.send([UInt8](repeating: 0x78, count: 600), as: .replyPart)))
        #expect(machine.waitForRoom(1) == .now(true))
        #expect(machine.apply(OutputLimits(pauseBytes: 500, resumeBytes: 250, stallSeconds: 1)).waiters.isEmpty)
        #expect(!machine.hasRoom)
        #expect(machine.waitForRoom(2) == .later)
        let raised = machine.apply(OutputLimits(pauseBytes: 2000, resumeBytes: 1000, stallSeconds: 1))
        #expect(raised.waiters == [2])
    }

    // MARK: Private

    /// `#require` of a transition's result: the transition mutates, which the macro's closure cannot.
    private func unwrap<T>(_ value: T?, sourceLocation: SourceLocation = #_sourceLocation) throws -> T {
        try #require(value, sourceLocation: sourceLocation)
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    private func text(_ write: OutputQueue.PendingWrite) -> String {
        write.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Queues `text` and leaves the socket full, with nothing out.
    private func socketFull(_ machine: inout Machine, _ text: String) {
        guard let write = machine.send(bytes(text), as: .events) else {
            Issue.record("nothing handed out")
            return
        }
        #expect(write.count == text.utf8.count)
        _ = machine.wrote(.wouldBlock)
    }
}

extension ConnectionState.StallAction {
    var isNone: Bool {
        if case .none = self { true } else { false }
    }
}

/// A socket for the state machine: takes up to `room` bytes per write (then would block), or fails with an errno;
/// it writes what a transition hands out as a connection would, and keeps what the last report asked for.
struct FakeSocket {
    /// What a chain of writes ended with.
    struct Outcome<Work, Waiter> {
        var start: Work?
        var waiters: [Waiter] = []
        var closing: ConnectionState<Work, Waiter>.Closing?
        var closesDescriptor = false
    }

    var room = Int.max
    var failure: Int32?
    private(set) var delivered: [UInt8] = []

    var text: String { String(decoding: delivered, as: UTF8.self) }

    mutating func write(_ bytes: UnsafeRawBufferPointer) -> OutputQueue.WriteOutcome {
        if let failure { return .failed(failure) }
        let count = min(room, bytes.count)
        guard count > 0 else { return .wouldBlock }
        if room != .max { room -= count }
        delivered += bytes[..<count]
        return .wrote(count)
    }

    /// Writes `first` and what the machine hands out after it, reporting each write, until it stops handing out.
    @discardableResult
    mutating func drive<Work, Waiter>(
        _ machine: inout ConnectionState<Work, Waiter>, _ first: OutputQueue.PendingWrite
    ) -> Outcome<Work, Waiter> {
        var write = first
        while true {
            let outcome = write.withBytes { self.write($0) }
            switch machine.wrote(outcome) {
            case .write(let next): write = next
            case .settled(let resumption): return Outcome(start: resumption.start, waiters: resumption.waiters)
            case .close(let closing): return Outcome(closing: closing)
            case .closeDescriptor: return Outcome(closesDescriptor: true)
            }
        }
    }

    /// Sends `text` and writes what that hands out.
    mutating func send<Work, Waiter>(
        _ machine: inout ConnectionState<Work, Waiter>, _ text: String, as kind: OutputKind
    ) {
        if let write = machine.send(Array(text.utf8), as: kind) { drive(&machine, write) }
    }

    /// A stall check, with the write it hands out written; returns its close, if any.
    mutating func check<Work, Waiter>(_ machine: inout ConnectionState<Work, Waiter>, now: UInt64)
        -> ConnectionState<Work, Waiter>.Closing?
    {
        switch machine.checkStall(now: now) {
        case .none: return nil
        case .close(let closing): return closing
        case .write(let write): return drive(&machine, write).closing
        }
    }
}
