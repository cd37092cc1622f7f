import WaterfallLayout
import WaterfallTestSupport

/// The placement kernel under both span rules: full layout of one large section of mixed spans (70% one column,
/// 20% two, 10% three) with `spanPlacement: "lowest"` and `"leastWhitespace"`, in one interleaved run, and the
/// whitespace each leaves: Σ over columns of (the column's lowest item bottom − the heights of the items covering
/// it), the holes between items, in column-points (spacing 0, so nothing else is empty).
enum SpanPlacementBenchmark {
    static func run(items: Int, columns: [Int], runs: Int, table: inout Table) async {
        let mixed = mixedSpans(items)
        for c in columns {
            func layout(_ rule: SpanPlacement) async -> Layout? {
                let properties = SectionProperties(columns: c, columnSpacing: 0, rowSpacing: 0, spanPlacement: rule)
                let spec = LayoutSpec(
                    width: Double(c) * 100, sections: [SectionSpec(properties: properties, items: mixed)])
                return try? await Layout.make(spec, allowsParallelism: false).layout
            }
            guard var lowest = await layout(.lowest), var least = await layout(.leastWhitespace) else { continue }
            let (low, whitespace) = await Measure.interleaved(runs: runs) {
                await lowest.placeEverything()
            } _: {
                await least.placeEverything()
            }
            let (holesLowest, holesLeast) = (holes(lowest, columns: c), holes(least, columns: c))
            table.add(
                "kernel span rules, \(items) items of mixed spans, \(c) columns",
                "lowest \(Format.rate(Double(items) / low)), leastWhitespace \(Format.rate(Double(items) / whitespace));"
                    + " holes \(Int(holesLowest)) vs \(Int(holesLeast)) column-points",
                "leastWhitespace \(Format.ratio(low / whitespace)) of lowest, holes \(Format.ratio(holesLeast / holesLowest))",
                "reported")
        }
    }

    /// `count` items of mixed spans (70% one column, 20% two, 10% three), 50 to 400 high, the same for every run.
    static func mixedSpans(_ count: Int) -> [Item] {
        var random = SplitMix64(seed: 42)
        return (0..<count).map { _ in
            let roll = Int.random(in: 0..<10, using: &random)
            let span = roll < 7 ? 1 : roll < 9 ? 2 : 3
            return Item(height: Double(Int.random(in: 50...400, using: &random)), span: .columns(span))
        }
    }

    /// The holes between the items of `layout`'s section 0, whose columns are 100 wide with no spacing.
    static func holes(_ layout: Layout, columns: Int) -> Double {
        var bottom = [Double](repeating: 0, count: columns)
        var filled = [Double](repeating: 0, count: columns)
        for item in layout.frames(ofSection: 0).items {
            let (first, span) = (Int((item.frame.x / 100).rounded()), Int((item.frame.width / 100).rounded()))
            for k in first..<min(columns, first + span) {
                bottom[k] = max(bottom[k], item.frame.maxY)
                filled[k] += item.frame.height
            }
        }
        return zip(bottom, filled).reduce(0) { $0 + ($1.0 - $1.1) }
    }
}
