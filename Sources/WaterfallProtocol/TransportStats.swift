import WaterfallWire

/// A snapshot of the transport's counters, for the `stats` method.
package struct TransportStats: Sendable, Equatable {
    /// Connections open now.
    package var connectionsOpen = 0
    /// Connections accepted since start, including those refused afterwards.
    package var connectionsAccepted = 0
    /// Connections refused for their credentials (`forbidden`).
    package var connectionsForbidden = 0
    /// Connections refused because `maxConnections` were open (`limit`).
    package var connectionsOverLimit = 0
    /// Connections closed for holding too much unsent output or making no progress.
    package var connectionsClosedSlow = 0
    /// Bytes read from clients.
    package var bytesRead = 0
    /// Bytes written to clients.
    package var bytesWritten = 0
    /// Non-empty lines read (including those over the limit).
    package var linesRead = 0
    /// Lines discarded for being over `maxLineBytes`.
    package var linesTooLarge = 0

    package init() {}
}
