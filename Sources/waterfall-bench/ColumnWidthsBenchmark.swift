import WaterfallLayout
import WaterfallTestSupport

/// The placement kernel with `columnWidths` against equal columns: full layout of one large section of the kernel
/// scenario's feed (a quarter of the items aspect-sized, so that their heights follow their column's width), with
/// equal columns and with weights `1, 2, 1, 2, …`, in one interleaved run.
enum ColumnWidthsBenchmark {
    static func run(items: Int, columns: [Int], runs: Int, table: inout Table) async {
        var random = SplitMix64(seed: 42)
        let feed = (0..<items).map { _ in
            let height = Double(Int.random(in: 50...400, using: &random))
            return Int.random(in: 0..<4, using: &random) == 0
                ? Item(height: height, aspectWidth: Double(Int.random(in: 50...400, using: &random)))
                : Item(height: height)
        }
        for c in columns {
            func layout(_ weights: [Double]?) async -> Layout? {
                let properties = SectionProperties(columns: c, columnWidths: weights)
                let spec = LayoutSpec(
                    width: Double(c) * 200, sections: [SectionSpec(properties: properties, items: feed)])
                return try? await Layout.make(spec, allowsParallelism: false).layout
            }
            let weights = (0..<c).map { Double($0 % 2 + 1) }
            guard var equal = await layout(nil), var weighted = await layout(weights) else { continue }
            let (plain, shares) = await Measure.interleaved(runs: runs) {
                await equal.placeEverything()
            } _: {
                await weighted.placeEverything()
            }
            table.add(
                "kernel column widths, \(items) items (a quarter aspect), \(c) columns",
                "equal \(Format.rate(Double(items) / plain)), weighted \(Format.rate(Double(items) / shares))",
                "weighted \(Format.ratio(plain / shares)) of equal", "reported")
        }
    }
}
