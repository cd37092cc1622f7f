import Testing

@testable import WaterfallServer

/// The connection's rules, driven as a value: no socket, thread or dispatch source (the way swift-nio tests its
/// channel handlers on an `EmbeddedChannel`). Work and waiters are numbers, so a test sees which read's work starts
/// and which producer is released; a `FakeSocket` takes what it has room for.
@Suite struct ConnectionStateTests {
    typealias Machine = ConnectionState<Int, Int>

    static let limits = OutputLimits(pauseBytes: 1000, resumeBytes: 500, stallSeconds: 1)

    @Test func startingActivatesReadingOnce() {
        var machine = Machine(limits: Self.limits)
        #expect(machine.start().read == .activate)
        #expect(machine.start().read == nil)
        #expect(machine.isReading)
    }

    @Test func oneReadRunsAndTheNextWaitsWithReadingSuspended() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket()
        _ = machine.start()
        let first = machine.read(1, endOfInput: false)
        #expect(first.start == 1)
        #expect(first.read == nil)
        let second = machine.read(2, endOfInput: false)
        #expect(second.start == nil)
        #expect(second.read == .suspend)
        let finished = machine.workFinished(reply: socket.bytes("a\n")) { socket.write($0) }
        #expect(finished.start == 2)
        #expect(finished.read == .resume)
        #expect(finished.written == 2)
        #expect(socket.text == "a\n")
    }

    @Test func outputOverThePauseHoldsWorkUntilItDrainsBelowTheResume() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        _ = machine.start()
        _ = machine.read(1, endOfInput: false)
        _ = machine.read(2, endOfInput: false)
        let finished = machine.workFinished(reply: [UInt8](repeating: 0x78, count: 1200)) { socket.write($0) }
        #expect(finished.start == nil)
        #expect(finished.write == .resume)
        #expect(!machine.hasRoom)
        socket.room = 700
        let partly = machine.writable { socket.write($0) }
        #expect(partly.start == nil, "500 unsent is not below the resume threshold")
        #expect(partly.write == nil)
        socket.room = 10_000
        let drained = machine.writable { socket.write($0) }
        #expect(drained.write == .suspend)
        #expect(drained.start == 2)
        #expect(drained.read == .resume)
        #expect(socket.delivered.count == 1200)
    }

    @Test func eventsWaitWhileAReplyIsPartlyQueuedAndFollowItsEnd() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket()
        _ = machine.start()
        _ = machine.read(1, endOfInput: false)
        _ = machine.send(socket.bytes("[part"), as: .replyPart) { socket.write($0) }
        _ = machine.send(socket.bytes("event\n"), as: .events) { socket.write($0) }
        #expect(socket.text == "[part")
        #expect(machine.pendingBytes == 6, "the held event counts as pending")
        _ = machine.send(socket.bytes(" end]\n"), as: .replies) { socket.write($0) }
        _ = machine.send(socket.bytes("second\n"), as: .events) { socket.write($0) }
        #expect(socket.text == "[part end]\nevent\nsecond\n")
    }

    @Test func aReplyProducerWaitsUntilTheClientReadsDownToHalfThePause() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        _ = machine.start()
        _ = machine.read(1, endOfInput: false)
        let early = machine.waitForRoom(6)
        #expect(early.wake == [6] && early.room)
        _ = machine.send([UInt8](repeating: 0x78, count: 1000), as: .replyPart) { socket.write($0) }
        #expect(!machine.hasRoom)
        #expect(machine.waitForRoom(7).wake.isEmpty)
        socket.room = 400
        #expect(machine.writable { socket.write($0) }.wake.isEmpty, "600 unsent: not below 500 yet")
        socket.room = 200
        let released = machine.writable { socket.write($0) }
        #expect(released.wake == [7])
        #expect(released.room)
    }

    @Test func aCloseReleasesRoomWaitersWithFalseAndLaterOnesAtOnce() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        _ = machine.start()
        _ = machine.send([UInt8](repeating: 0x78, count: 1000), as: .replyPart) { socket.write($0) }
        _ = machine.waitForRoom(1)
        let closed = machine.close(.aborted("test"))
        #expect(closed.wake == [1] && !closed.room)
        let late = machine.waitForRoom(2)
        #expect(late.wake == [2] && !late.room)
        #expect(machine.pendingBytes == 0)
    }

    @Test func outputWithoutProgressForTheStallTimeCloses() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        let second: UInt64 = 1_000_000_000
        _ = machine.start()
        #expect(machine.checkStall(now: 0) { socket.write($0) }.closed == nil)
        _ = machine.send(socket.bytes("0123456789"), as: .events) { socket.write($0) }
        #expect(
            machine.checkStall(now: 1 * second) { socket.write($0) }.closed == nil,
            "the first check that sees output starts the clock")
        #expect(machine.checkStall(now: second + second / 2) { socket.write($0) }.closed == nil)
        socket.room = 1
        _ = machine.writable { socket.write($0) }
        #expect(machine.checkStall(now: 3 * second) { socket.write($0) }.closed == nil, "a byte written is progress")
        #expect(machine.checkStall(now: 3 * second + second / 2) { socket.write($0) }.closed == nil)
        let stalled = machine.checkStall(now: 4 * second + second / 10) { socket.write($0) }
        #expect(stalled.closed == .stalled(seconds: 1))
        #expect(stalled.closeSession)
    }

    /// A writability event that never comes does not close a client that reads: the stall check offers the socket
    /// the queued output itself, and what it takes is progress (else a reply could be lost).
    @Test func aLostWakeUpCostsACheckNotTheConnection() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        let second: UInt64 = 1_000_000_000
        _ = machine.start()
        _ = machine.send(socket.bytes("0123456789"), as: .replies) { socket.write($0) }
        #expect(machine.pendingBytes == 10)
        // The client reads everything, but no writability event reaches the machine.
        socket.room = 100
        let check = machine.checkStall(now: 1 * second) { socket.write($0) }
        #expect(check.closed == nil)
        #expect(machine.pendingBytes == 0)
        #expect(machine.checkStall(now: 5 * second) { socket.write($0) }.closed == nil)
    }

    @Test func theEndOfInputDrainsTheWorkAndItsOutputThenCloses() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        _ = machine.start()
        let last = machine.read(1, endOfInput: true)
        #expect(last.start == 1)
        #expect(last.read == .suspend)
        let finished = machine.workFinished(reply: socket.bytes("bye\n")) { socket.write($0) }
        #expect(finished.closed == nil)
        #expect(finished.write == .resume)
        socket.room = 100
        let done = machine.writable { socket.write($0) }
        #expect(done.closed == .peerClosed)
        #expect(done.closeSession)
        // The write source stays armed for the cancellation, and the read source is resumed for it.
        #expect(done.write == nil)
        #expect(done.read == .resume)
        #expect(machine.isClosed)
    }

    @Test func aPeerThatClosesWithNothingInFlightClosesAtOnce() {
        var machine = Machine(limits: Self.limits)
        _ = machine.start()
        let actions = machine.read(nil, endOfInput: true)
        // Suspended and resumed again in one transition, for the cancel: no change at all.
        #expect(actions.read == nil)
        #expect(actions.write == .resume)
        #expect(actions.closed == .peerClosed)
        #expect(actions.closeSession)
    }

    @Test func aFailedWriteClosesButTheSessionWaitsForTheRunningWork() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(failure: 32)
        _ = machine.start()
        _ = machine.read(1, endOfInput: false)
        _ = machine.read(2, endOfInput: false)
        let failed = machine.send(socket.bytes("event\n"), as: .events) { socket.write($0) }
        #expect(failed.closed == .writeFailed(32))
        #expect(!failed.closeSession)
        #expect(failed.read == .resume, "the read waiting had suspended reading")
        let finished = machine.workFinished(reply: socket.bytes("late\n")) { socket.write($0) }
        #expect(finished.closeSession)
        #expect(finished.start == nil, "the read waiting is dropped")
        #expect(!machine.close(.aborted("again")).closeSession, "only once")
    }

    @Test func theDescriptorClosesAfterBothSourcesAreCancelled() {
        var machine = Machine(limits: Self.limits)
        _ = machine.start()
        _ = machine.close(.aborted("test"))
        #expect(!machine.sourceCancelled().closeDescriptor)
        #expect(machine.sourceCancelled().closeDescriptor)
    }

    @Test func aCloseResumesOnlySourcesThatAreSuspendedOrInactive() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        _ = machine.start()
        _ = machine.send(socket.bytes("x\n"), as: .events) { socket.write($0) }
        let close = machine.close(.aborted("test"))
        #expect(close.read == nil)
        #expect(close.write == nil)
        var idle = Machine(limits: Self.limits)
        let never = idle.close(.aborted("test"))
        #expect(never.read == .activate)
        #expect(never.write == .resume)
    }

    @Test func aServerCloseWaitsForTheRunningWork() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket()
        _ = machine.start()
        _ = machine.read(1, endOfInput: false)
        let drain = machine.drain()
        #expect(drain.read == .suspend)
        #expect(drain.closed == nil)
        let finished = machine.workFinished(reply: socket.bytes("last\n")) { socket.write($0) }
        #expect(finished.closed == .closedByServer)
        #expect(finished.closeSession)
        #expect(socket.text == "last\n")
    }

    @Test func nothingHappensAfterTheClose() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket()
        _ = machine.start()
        _ = machine.close(.aborted("test"))
        let read = machine.read(1, endOfInput: false)
        #expect(read.start == nil && read.closed == nil)
        let sent = machine.send(socket.bytes("x\n"), as: .events) { socket.write($0) }
        #expect(sent.written == 0 && socket.delivered.isEmpty)
        #expect(machine.writable { socket.write($0) }.write == nil)
        #expect(machine.checkStall(now: .max) { _ in .wouldBlock }.closed == nil)
    }

    @Test func newLimitsApplyAtOnce() {
        var machine = Machine(limits: Self.limits)
        var socket = FakeSocket(room: 0)
        _ = machine.start()
        _ = machine.send([UInt8](repeating: 0x78, count: 600), as: .replyPart) { socket.write($0) }
        #expect(machine.waitForRoom(1).wake == [1])
        _ = machine.apply(OutputLimits(pauseBytes: 500, resumeBytes: 250, stallSeconds: 1))
        #expect(!machine.hasRoom)
        #expect(machine.waitForRoom(2).wake.isEmpty)
        let raised = machine.apply(OutputLimits(pauseBytes: 2000, resumeBytes: 1000, stallSeconds: 1))
        #expect(raised.wake == [2] && raised.room)
    }
}

/// A socket for the state machine: takes up to `room` bytes per write (then would block), or fails with an errno.
struct FakeSocket {
    var room = Int.max
    var failure: Int32?
    private(set) var delivered: [UInt8] = []

    var text: String { String(decoding: delivered, as: UTF8.self) }

    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    mutating func write(_ bytes: UnsafeRawBufferPointer) -> OutputQueue.WriteOutcome {
        if let failure { return .failed(failure) }
        let count = min(room, bytes.count)
        guard count > 0 else { return .wouldBlock }
        if room != .max { room -= count }
        delivered += bytes[..<count]
        return .wrote(count)
    }
}
