import WaterfallLayout
import WaterfallTestSupport

/// The placement kernel for a section with `reflow: "stable"` against the same section with exact reflow: a full
/// placement of one large section with the kernel scenario's items (heights 50 to 400), in one interleaved run.
///
/// A stable section's full placement stacks every item in the column it keeps (its steady state: what a change near
/// its top re-places); the exact one chooses each column by the shortest-column rule.
enum ReflowBenchmark {
    static func run(items: Int, columns: [Int], runs: Int, table: inout Table) async {
        var random = SplitMix64(seed: 42)
        let section = SectionSpec(
            items: (0..<items).map { _ in Item(height: Double(Int.random(in: 50...400, using: &random))) })
        for c in columns {
            func layout(_ reflow: Reflow) async -> Layout? {
                var spec = LayoutSpec(
                    width: 1000,
                    defaults: SectionProperties(columns: c, columnSpacing: 4, rowSpacing: 4, reflow: reflow))
                spec.sections = [section]
                return try? await Layout.make(spec, allowsParallelism: false).layout
            }
            guard var exact = await layout(.exact), var stable = await layout(.stable) else { continue }
            let (left, right) = await Measure.interleaved(runs: runs) {
                await exact.placeEverything()
            } _: {
                await stable.placeEverything()
            }
            table.add(
                "kernel reflow, \(items) items, \(c) columns",
                "exact \(Format.rate(Double(items) / left)), stable \(Format.rate(Double(items) / right))",
                "stable \(Format.ratio(left / right)) of exact", "reported")
        }
    }
}
