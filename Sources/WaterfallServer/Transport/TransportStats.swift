import Synchronization

/// A snapshot of the transport's counters, for the `stats` method.
public struct TransportStats: Sendable, Equatable {
    /// Connections open now.
    public var connectionsOpen = 0
    /// Connections accepted since start, including those refused afterwards.
    public var connectionsAccepted = 0
    /// Connections refused for their credentials (`forbidden`).
    public var connectionsForbidden = 0
    /// Connections refused because `maxConnections` were open (`limit`).
    public var connectionsOverLimit = 0
    /// Connections closed for holding too much unsent output or making no progress.
    public var connectionsClosedSlow = 0
    /// Bytes read from clients.
    public var bytesRead = 0
    /// Bytes written to clients.
    public var bytesWritten = 0
    /// Non-empty lines read (including those over the limit).
    public var linesRead = 0
    /// Lines discarded for being over `maxLineBytes`.
    public var linesTooLarge = 0

    public init() {}
}

/// The live counters behind `TransportStats`; shared by the server and whoever answers `stats`.
public final class TransportCounters: Sendable {
    // MARK: Lifecycle

    public init() {}

    // MARK: Internal

    /// A consistent-enough copy of every counter (each is read atomically; they are not read together).
    public func snapshot() -> TransportStats {
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
