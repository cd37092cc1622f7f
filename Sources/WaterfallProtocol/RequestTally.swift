import WaterfallWire

/// Requests, errors by kind and latency, by method: what a connection counts while it answers one read, added into
/// the daemon's totals once per read (one lock per read, never one per request).
package struct RequestTally: Sendable, Equatable {
    // MARK: Lifecycle

    package init() {
        requests = Array(repeating: 0, count: Self.rows)
        errors = Array(repeating: 0, count: Self.rows * Self.kinds.count)
        buckets = Array(repeating: 0, count: Self.rows * Self.bucketBounds.count)
        seconds = Array(repeating: 0, count: Self.rows)
    }

    // MARK: Package

    /// Upper bounds of the latency buckets, in seconds: powers of four from 1 µs to 4 s (log-spaced, so that a
    /// pipelined update of a few microseconds and a bulk load of a second both land in a bucket of their own).
    package static let bucketBounds: [Double] = (0..<12).map { k in (0..<k).reduce(1e-6) { bound, _ in bound * 4 } }

    /// The error kinds counted, in the order of the Errors article's table.
    package static let kinds: [ErrorCode] = [
        .parseError, .invalidRequest, .unknownMethod, .badParams, .internalError, .notFound, .exists,
        .invalidGeometry, .tooLarge, .limit, .shuttingDown, .forbidden, .storage,
    ]

    /// A row per method (`Method.allCases` order), then one for lines whose method is not known.
    package static let rows = Method.allCases.count + 1

    /// The name of row `row`: a method, or `"unknown"`.
    package static func name(ofRow row: Int) -> String {
        row < Method.allCases.count ? Method.allCases[row].rawValue : "unknown"
    }

    /// The row of `method`; nil is the row of lines with no known method.
    @inline(__always)
    package static func row(of method: Method?) -> Int {
        guard let method else { return rows - 1 }
        return rowByMethod[method] ?? rows - 1
    }

    /// Requests answered, by row.
    package private(set) var requests: [Int]
    /// Errors by row and kind: `errors[row * kinds.count + kind]`.
    package private(set) var errors: [Int]
    /// Latencies by row and bucket (not cumulative): `buckets[row * bucketBounds.count + k]` counts latencies at
    /// most bound k and over bound k − 1; those over the last bound are the requests no bucket counts.
    package private(set) var buckets: [Int]
    /// The sum of latencies, by row.
    package private(set) var seconds: [Double]

    /// Whether nothing was counted.
    package var isEmpty: Bool { requests.allSatisfy { $0 == 0 } }

    /// Counts one request of `row`, its error if it failed, and its latency.
    package mutating func record(_ row: Int, error: ErrorCode?, seconds latency: Double) {
        requests[row] += 1
        if let error, let kind = Self.kinds.firstIndex(of: error) { errors[row * Self.kinds.count + kind] += 1 }
        seconds[row] += latency
        let bounds = Self.bucketBounds
        var k = 0
        while k < bounds.count && latency > bounds[k] { k += 1 }
        if k < bounds.count { buckets[row * bounds.count + k] += 1 }
    }

    /// Adds `other`'s counts into these: only its rows that counted something (a read touches one or two).
    package mutating func add(_ other: RequestTally) {
        let kinds = Self.kinds.count
        let bounds = Self.bucketBounds.count
        for row in other.requests.indices where other.requests[row] > 0 {
            requests[row] += other.requests[row]
            seconds[row] += other.seconds[row]
            for k in row * kinds..<(row + 1) * kinds { errors[k] += other.errors[k] }
            for k in row * bounds..<(row + 1) * bounds { buckets[k] += other.buckets[k] }
        }
    }

    /// Zeroes the rows that counted something, keeping the storage for the next read.
    package mutating func clear() {
        let kinds = Self.kinds.count
        let bounds = Self.bucketBounds.count
        for row in requests.indices where requests[row] > 0 {
            requests[row] = 0
            seconds[row] = 0
            for k in row * kinds..<(row + 1) * kinds { errors[k] = 0 }
            for k in row * bounds..<(row + 1) * bounds { buckets[k] = 0 }
        }
    }

    // MARK: Private

    private static let rowByMethod = Dictionary(
        uniqueKeysWithValues: Method.allCases.enumerated().map { ($0.element, $0.offset) })
}
