import WaterfallLayout
import WaterfallTestSupport

/// Lookahead against the plain kernel: full layout of one section of the `spans` scenario's mixed spans, with and
/// without `lookahead` of 5 items and 120 orders (every order of a window), in one interleaved run; and the holes
/// that `spanPlacement` and lookahead leave, as the `spans` scenario counts them, each as a share of `lowest`'s.
enum LookaheadBenchmark {
    static let lookahead = Lookahead(items: 5, limit: 120)

    static func run(items: Int, columns: [Int], runs: Int, table: inout Table) async {
        let mixed = SpanPlacementBenchmark.mixedSpans(items)
        for c in columns {
            func layout(_ rule: SpanPlacement, _ lookahead: Lookahead?) async -> Layout? {
                let properties = SectionProperties(
                    columns: c, columnSpacing: 0, rowSpacing: 0, spanPlacement: rule, lookahead: lookahead)
                let spec = LayoutSpec(
                    width: Double(c) * 100, sections: [SectionSpec(properties: properties, items: mixed)])
                return try? await Layout.make(spec, allowsParallelism: false).layout
            }
            guard var plain = await layout(.lowest, nil), var ahead = await layout(.lowest, lookahead),
                let least = await layout(.leastWhitespace, nil),
                let leastAhead = await layout(.leastWhitespace, lookahead)
            else { continue }
            let (base, looking) = await Measure.interleaved(runs: runs) {
                await plain.placeEverything()
            } _: {
                await ahead.placeEverything()
            }
            let lowest = SpanPlacementBenchmark.holes(plain, columns: c)
            let shares = [ahead, least, leastAhead].map { SpanPlacementBenchmark.holes($0, columns: c) / lowest }
            table.add(
                "kernel lookahead 5/120, \(items) items of mixed spans, \(c) columns",
                "plain \(Format.rate(Double(items) / base)), lookahead \(Format.rate(Double(items) / looking));"
                    + " holes of lowest \(Int(lowest)) column-points",
                "lookahead \(Format.ratio(base / looking)) of plain; holes vs lowest: lookahead"
                    + " \(Format.ratio(shares[0])), leastWhitespace \(Format.ratio(shares[1])), both"
                    + " \(Format.ratio(shares[2]))",
                "reported")
        }
    }
}
