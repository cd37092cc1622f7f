import WaterfallWire

/// How the daemon shares its open-file limit and what uses it now, for `stats` and `metrics`.
package struct DescriptorStats: Sendable, Equatable {
    /// The soft open-file limit in force.
    package var limit = 0
    /// Descriptors open now.
    package var open = 0
    /// The shares of the limit: kept for the daemon itself, for connections and for open journals.
    package var reserved = 0
    package var connections = 0
    package var journals = 0
    /// Journal files open now, and how often one was closed to make room and opened again.
    package var journalsOpen = 0
    package var journalEvictions = 0
    package var journalReopens = 0

    package init() {}
}
