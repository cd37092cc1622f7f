import WaterfallWire

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
