import Glibc
import WaterfallLayout
import WaterfallTestSupport

/// The layouts the engine scenarios share: seeded, so every run and every scenario sees the same heights.
enum BenchLayouts {
    /// Seeded item heights between 50 and 400 points.
    static func heights(_ count: Int, seed: UInt64 = 42) -> [Double] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in Double(Int.random(in: 50...400, using: &random)) }
    }

    /// A layout 1000 points wide of `sections` sections of `items` items each, `columns` columns, 4-point spacing.
    static func make(
        sections: Int, items: Int, columns: Int = 3, allowsParallelism: Bool = false
    ) async -> Layout? {
        let section = SectionSpec(items: heights(items).map { Item(height: $0) })
        var spec = LayoutSpec(
            width: 1000, defaults: SectionProperties(columns: columns, columnSpacing: 4, rowSpacing: 4))
        spec.sections = Array(repeating: section, count: sections)
        return try? await Layout.make(spec, allowsParallelism: allowsParallelism).layout
    }
}

/// Collects individually timed samples and reports their median.
struct Samples {
    private(set) var values: [Double] = []

    init(capacity: Int = 0) {
        values.reserveCapacity(capacity)
    }

    mutating func append(_ seconds: Double) { values.append(seconds) }

    var median: Double { quantile(0.5) }

    /// The value at quantile `q` (0…1) by nearest rank; 0 when empty.
    func quantile(_ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.down)))]
    }
}

/// The monotonic clock in nanoseconds, for timing single short operations.
@inline(__always)
func nanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
