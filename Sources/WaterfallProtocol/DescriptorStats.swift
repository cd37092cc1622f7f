import WaterfallWire

/// How the daemon shares its open-file limit and what uses it now, for `stats` and `metrics`.
public struct DescriptorStats: Sendable, Equatable {
    /// The soft open-file limit in force.
    public var limit = 0
    /// Descriptors open now.
    public var open = 0
    /// The shares of the limit: kept for the daemon itself, for connections and for open journals.
    public var reserved = 0
    public var connections = 0
    public var journals = 0
    /// Journal files open now, and how often one was closed to make room and opened again.
    public var journalsOpen = 0
    public var journalEvictions = 0
    public var journalReopens = 0

    public init() {}
}
