import Testing
@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallWire

@testable import WaterfallCommandLine

/// `waterfallctl stats`' latency buckets: a row per bucket with its bound, not a bare array.
@Suite struct LatencyBucketsTests {
    @Test(arguments: [
        (1e-6, "1 µs", "1 µs"), (256e-6, "256 µs", "256 µs"), (1.024e-3, "1.02 ms", "1.024 ms"),
        (262.144e-3, "262.14 ms", "262.144 ms"), (4.194304, "4.19 s", "4.194304 s"),
    ])
    func boundsReadAsDurations(seconds: Double, readable: String, exact: String) {
        #expect(LatencyBuckets.boundText(seconds, .readable) == readable)
        #expect(LatencyBuckets.boundText(seconds, .exact) == exact)
    }

    @Test func rowsRunFromTheFirstBucketUsedToTheLast() {
        var counts = [JSONValue](repeating: 0, count: RequestTally.bucketBounds.count)
        counts[1] = 3
        counts[3] = 1
        #expect(
            LatencyBuckets.rows(counts, path: "methods.ping.buckets", .readable) == [
                ["methods.ping.buckets ≤ 4 µs", "3"], ["methods.ping.buckets ≤ 16 µs", "0"],
                ["methods.ping.buckets ≤ 64 µs", "1"],
            ])
        #expect(LatencyBuckets.rows(Array(counts.prefix(3)), path: "b", .readable) == nil)
        #expect(LatencyBuckets.rows(counts.map { _ in 0 }, path: "b", .readable) == [])
    }
}
