import WaterfallLayout
import WaterfallTestSupport

/// The placement kernel under both tie rules: full layout of one large section with `tieBreak: "leftmost"` and with
/// `"cursor"`, on the same items in one interleaved run.
///
/// Two item sets: the kernel scenario's (heights 50 to 400, ties rare), and images of a few standard heights,
/// where ties, and so the cursor, decide most placements.
enum TieBreakBenchmark {
    static func run(items: Int, columns: [Int], runs: Int, table: inout Table) async {
        var random = SplitMix64(seed: 42)
        let varied = (0..<items).map { _ in Double(Int.random(in: 50...400, using: &random)) }
        let standard: [Double] = [100, 150, 150, 200, 300]
        let tied = (0..<items).map { _ in standard[Int.random(in: 0...4, using: &random)] }
        for (name, heights) in [("varied heights", varied), ("5 standard heights", tied)] {
            let section = SectionSpec(items: heights.map { Item(height: $0) })
            for c in columns {
                func layout(_ tieBreak: TieBreak) async -> Layout? {
                    var spec = LayoutSpec(
                        width: 1000,
                        defaults: SectionProperties(columns: c, columnSpacing: 4, rowSpacing: 4, tieBreak: tieBreak))
                    spec.sections = [section]
                    return try? await Layout.make(spec, allowsParallelism: false).layout
                }
                guard var leftmost = await layout(.leftmost), var cursor = await layout(.cursor) else { continue }
                let (left, right) = await Measure.interleaved(runs: runs) {
                    await leftmost.placeEverything()
                } _: {
                    await cursor.placeEverything()
                }
                table.add(
                    "kernel tie rules, \(items) items, \(c) columns, \(name)",
                    "leftmost \(Format.rate(Double(items) / left)), cursor \(Format.rate(Double(items) / right))",
                    "cursor \(Format.ratio(left / right)) of leftmost", "reported")
            }
        }
    }
}
