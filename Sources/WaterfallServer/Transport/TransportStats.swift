import Synchronization
import WaterfallProtocol
import WaterfallWire

/// The live counters behind `TransportStats`; shared by the server and whoever answers `stats`.
package final class TransportCounters: Sendable {
    // MARK: Lifecycle

    package init() {}

    // MARK: Internal

    /// A consistent-enough copy of every counter (each is read atomically; they are not read together).
    package func snapshot() -> TransportStats {
        var stats = TransportStats()
        stats.connectionsOpen = connectionsOpen.load(ordering: .relaxed)
        stats.connectionsAccepted = connectionsAccepted.load(ordering: .relaxed)
        stats.connectionsForbidden = connectionsForbidden.load(ordering: .relaxed)
        stats.connectionsOverLimit = connectionsOverLimit.load(ordering: .relaxed)
        stats.connectionsClosedSlow = connectionsClosedSlow.load(ordering: .relaxed)
        stats.bytesRead = bytesRead.load(ordering: .relaxed)
        stats.bytesWritten = bytesWritten.load(ordering: .relaxed)
        stats.linesRead = linesRead.load(ordering: .relaxed)
        stats.linesTooLarge = linesTooLarge.load(ordering: .relaxed)
        return stats
    }

    let connectionsOpen = Atomic<Int>(0)
    let connectionsAccepted = Atomic<Int>(0)
    let connectionsForbidden = Atomic<Int>(0)
    let connectionsOverLimit = Atomic<Int>(0)
    let connectionsClosedSlow = Atomic<Int>(0)
    let bytesRead = Atomic<Int>(0)
    let bytesWritten = Atomic<Int>(0)
    let linesRead = Atomic<Int>(0)
    let linesTooLarge = Atomic<Int>(0)
}

extension Atomic where Value == Int {
    /// Adds without caring about the old value; counters only ever grow or are read for display.
    func add(_ delta: Int) {
        wrappingAdd(delta, ordering: .relaxed)
    }
}
