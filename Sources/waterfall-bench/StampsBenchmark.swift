import WaterfallLayout
import WaterfallTestSupport

/// The placement kernel with stamps against the plain kernel: full layout of one large section of single-column
/// items, plain and with 16 stamps (ad slots of one or two columns, one every 2000 points down the first 32000), in
/// one interleaved run. Every item of a stamped section is placed by the general rule, each start judged around the
/// stamps in its columns.
enum StampsBenchmark {
    static func run(items: Int, columns: [Int], runs: Int, table: inout Table) async {
        var random = SplitMix64(seed: 42)
        let heights = (0..<items).map { _ in Item(height: Double(Int.random(in: 50...400, using: &random))) }
        for c in columns {
            let stamps = (0..<16).map { k in
                let span = c > 1 && k % 3 == 0 ? 2 : 1
                return Stamp(column: (k * 7) % (c - span + 1), span: span, y: Double(k) * 2000 + 300, height: 250)
            }
            func layout(_ stamps: [Stamp]?) async -> Layout? {
                let properties = SectionProperties(columns: c, columnSpacing: 4, rowSpacing: 4, stamps: stamps)
                let spec = LayoutSpec(width: 1000, sections: [SectionSpec(properties: properties, items: heights)])
                return try? await Layout.make(spec, allowsParallelism: false).layout
            }
            guard var plain = await layout(nil), var stamped = await layout(stamps) else { continue }
            let (plainTime, stampedTime) = await Measure.interleaved(runs: runs) {
                await plain.placeEverything()
            } _: {
                await stamped.placeEverything()
            }
            table.add(
                "kernel with 16 stamps, \(items) items, \(c) columns",
                "plain \(Format.rate(Double(items) / plainTime)), stamps \(Format.rate(Double(items) / stampedTime))",
                "stamps \(Format.ratio(plainTime / stampedTime)) of plain", "reported")
        }
    }
}
