import Testing

@testable import WaterfallServer

/// The connection's rules, driven as a value: no socket, thread or dispatch source (the way swift-nio tests its
/// channel handlers on an `EmbeddedChannel`). Work is a number, so a test sees which read's work starts.
@Suite struct ConnectionStateTests {
    typealias Machine = ConnectionState<Int>

    let limits = Machine.Limits(pauseBytes: 1000, resumeBytes: 500)

    @Test func startingReadsOnce() {
        var machine = Machine()
        #expect(machine.started().resumeReading)
        #expect(!machine.started().resumeReading)
        #expect(machine.isReading)
    }

    @Test func oneReadRunsAndTheNextWaitsWithReadingSuspended() {
        var machine = Machine()
        _ = machine.started()
        let first = machine.read(1, endOfInput: false, unsent: 0)
        #expect(first.start == 1)
        #expect(!first.suspendReading)
        let second = machine.read(2, endOfInput: false, unsent: 0)
        #expect(second.start == nil)
        #expect(second.suspendReading)
        #expect(machine.pending == 2)
        let finished = machine.workFinished(unsent: 0, limits: limits)
        #expect(finished.start == 2)
        #expect(finished.resumeReading)
        #expect(machine.isRunning)
    }

    @Test func outputOverThePauseHoldsWorkUntilItDrainsBelowTheResume() {
        var machine = Machine()
        _ = machine.started()
        _ = machine.read(1, endOfInput: false, unsent: 0)
        _ = machine.read(2, endOfInput: false, unsent: 0)
        let finished = machine.workFinished(unsent: 1200, limits: limits)
        #expect(finished.start == nil)
        #expect(machine.isPaused)
        let partly = machine.flushed(.wouldBlock, unsent: 700, limits: limits)
        #expect(partly.armWriting)
        #expect(partly.start == nil)
        let drained = machine.flushed(.drained, unsent: 0, limits: limits)
        #expect(drained.disarmWriting)
        #expect(drained.start == 2)
        #expect(drained.resumeReading)
        #expect(!machine.isPaused)
    }

    @Test func theEndOfInputDrainsTheWorkAndItsOutputThenCloses() {
        var machine = Machine()
        _ = machine.started()
        let last = machine.read(1, endOfInput: true, unsent: 0)
        #expect(last.start == 1)
        #expect(last.suspendReading)
        #expect(machine.phase == .draining)
        let finished = machine.workFinished(unsent: 300, limits: limits)
        #expect(finished.close == nil)
        let blocked = machine.flushed(.wouldBlock, unsent: 300, limits: limits)
        #expect(blocked.armWriting && blocked.close == nil)
        let done = machine.flushed(.drained, unsent: 0, limits: limits)
        #expect(done.close?.reason == "done")
        #expect(done.closeSession)
        #expect(machine.phase == .closed)
    }

    @Test func aPeerThatClosesWithNothingInFlightClosesAtOnce() {
        var machine = Machine()
        _ = machine.started()
        let actions = machine.read(nil, endOfInput: true, unsent: 0)
        #expect(actions.suspendReading)
        #expect(actions.close?.reason == "peer closed")
        // Suspended by this same transition: the close resumes it again, as dispatch requires before a cancel.
        #expect(actions.close?.resumeRead == true)
        #expect(actions.closeSession)
    }

    @Test func aFailedWriteClosesButTheSessionWaitsForTheRunningWork() {
        var machine = Machine()
        _ = machine.started()
        _ = machine.read(1, endOfInput: false, unsent: 0)
        _ = machine.read(2, endOfInput: false, unsent: 0)
        let failed = machine.flushed(.failed("write failed: Broken pipe"), unsent: 10, limits: limits)
        #expect(failed.close?.reason == "write failed: Broken pipe")
        #expect(!failed.closeSession)
        #expect(machine.pending == nil)
        let finished = machine.workFinished(unsent: 0, limits: limits)
        #expect(finished.closeSession)
        #expect(finished.start == nil)
        // Only once.
        #expect(!machine.close(reason: "again").closeSession)
    }

    @Test func theDescriptorClosesAfterBothSourcesAreCancelled() {
        var machine = Machine()
        _ = machine.started()
        _ = machine.close(reason: "test")
        #expect(!machine.sourceCancelled().closeDescriptor)
        #expect(machine.sourceCancelled().closeDescriptor)
    }

    @Test func aCloseResumesOnlySourcesThatAreSuspended() {
        var machine = Machine()
        _ = machine.started()
        _ = machine.flushed(.wouldBlock, unsent: 10, limits: limits)
        let close = machine.close(reason: "test").close
        #expect(close?.resumeRead == false)
        #expect(close?.resumeWrite == false)
        var idle = Machine()
        let never = idle.close(reason: "test").close
        #expect(never?.resumeRead == true)
        #expect(never?.resumeWrite == true)
    }

    @Test func aServerCloseWaitsForTheRunningWork() {
        var machine = Machine()
        _ = machine.started()
        _ = machine.read(1, endOfInput: false, unsent: 0)
        let drain = machine.drain(reason: "closed by the server", unsent: 0)
        #expect(drain.suspendReading)
        #expect(drain.close == nil)
        let finished = machine.workFinished(unsent: 0, limits: limits)
        #expect(finished.close?.reason == "done")
        #expect(finished.closeSession)
    }

    @Test func nothingHappensAfterTheClose() {
        var machine = Machine()
        _ = machine.started()
        _ = machine.close(reason: "test")
        let read = machine.read(1, endOfInput: false, unsent: 0)
        #expect(read.start == nil && read.close == nil)
        let flushed = machine.flushed(.drained, unsent: 0, limits: limits)
        #expect(flushed.close == nil && !flushed.disarmWriting)
    }
}
