@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallWire

/// `stats`' latency buckets as table rows: each bucket's count beside its upper bound (`≤ 16 µs`), rather than a
/// bare array whose bounds the reader must know.
enum LatencyBuckets {
    /// The rows for `buckets`, the counts at `path` (`methods.ping.buckets`), not cumulative and bounded by
    /// `RequestTally.bucketBounds`: one per bucket from the first that holds a request to the last, so the empty
    /// ends are left out and the gaps between kept; nil when they are not one count per bound.
    static func rows(_ buckets: [JSONValue], path: String, _ numbers: NumberStyle) -> [[String]]? {
        let counts = buckets.compactMap { value -> Int64? in if case .int(let n) = value { n } else { nil } }
        guard counts.count == buckets.count, counts.count == RequestTally.bucketBounds.count else { return nil }
        guard let first = counts.firstIndex(where: { $0 > 0 }), let last = counts.lastIndex(where: { $0 > 0 })
        else { return [] }
        return (first...last).map { k in
            ["\(path) ≤ \(boundText(RequestTally.bucketBounds[k], numbers))", "\(counts[k])"]
        }
    }

    /// A bound in seconds as people read a duration: `1 µs`, `1.02 ms`, `4.19 s` (all digits under `--exact`).
    static func boundText(_ seconds: Double, _ numbers: NumberStyle) -> String {
        // The bounds are whole microseconds: counting in them keeps 1.024 ms from reading 1.0240000000000002.
        let micro = (seconds * 1e6).rounded()
        if micro < 1000 { return "\(numbers.text(micro)) µs" }
        if micro < 1_000_000 { return "\(numbers.text(micro / 1000)) ms" }
        return "\(numbers.text(micro / 1_000_000)) s"
    }
}
