import WaterfallWire

/// The journal's and snapshots' counters of a durable daemon, for `stats` and `metrics`.
package struct StorageStats: Sendable, Equatable {
    /// Bytes appended to journals.
    package var journalBytes = 0
    /// `fdatasync`s of journal segments and snapshot files, and their seconds in all.
    package var syncs = 0
    package var syncSeconds = 0.0
    /// Syncs by latency bucket (`RequestTally.bucketBounds`, not cumulative).
    package var syncBuckets = Array(repeating: 0, count: RequestTally.bucketBounds.count)
    /// Snapshots written, and their seconds in all.
    package var snapshots = 0
    package var snapshotSeconds = 0.0
    /// Seconds the last start took to read the state directory back.
    package var recoverySeconds = 0.0

    package init() {}

    /// Counts one sync of `seconds`.
    package mutating func recordSync(_ seconds: Double) {
        syncs += 1
        syncSeconds += seconds
        if let k = RequestTally.bucketBounds.firstIndex(where: { seconds <= $0 }) { syncBuckets[k] += 1 }
    }
}
