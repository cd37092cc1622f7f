import WaterfallWire

/// The journal's and snapshots' counters of a durable daemon, for `stats` and `metrics`.
public struct StorageStats: Sendable, Equatable {
    /// Bytes appended to journals.
    public var journalBytes = 0
    /// `fdatasync`s of journal segments and snapshot files, and their seconds in all.
    public var syncs = 0
    public var syncSeconds = 0.0
    /// Syncs by latency bucket (`RequestTally.bucketBounds`, not cumulative).
    public var syncBuckets = Array(repeating: 0, count: RequestTally.bucketBounds.count)
    /// Snapshots written, and their seconds in all.
    public var snapshots = 0
    public var snapshotSeconds = 0.0
    /// Seconds the last start took to read the state directory back.
    public var recoverySeconds = 0.0

    public init() {}

    /// Counts one sync of `seconds`.
    public mutating func recordSync(_ seconds: Double) {
        syncs += 1
        syncSeconds += seconds
        if let k = RequestTally.bucketBounds.firstIndex(where: { seconds <= $0 }) { syncBuckets[k] += 1 }
    }
}
