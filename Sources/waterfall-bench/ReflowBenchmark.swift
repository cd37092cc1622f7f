import WaterfallLayout
import WaterfallTestSupport

/// The placement kernel for a section with `reflow: "stable"`, and for a horizontal layout (`"axis": "horizontal"`),
/// each against the same section with exact reflow in a vertical layout: a full placement of one large section with
/// the kernel scenario's items (heights 50 to 400), each pair interleaved, in one run.
///
/// A stable section's full placement stacks every item in the column it keeps (its steady state: what a change near
/// its top re-places); the exact one chooses each column by the shortest-column rule. A horizontal layout is placed
/// as its vertical form (Geometry, "Horizontal feeds"), so its kernel should be the exact one's.
enum ReflowBenchmark {
    static func run(items: Int, columns: [Int], runs: Int, table: inout Table) async {
        var random = SplitMix64(seed: 42)
        let section = SectionSpec(
            items: (0..<items).map { _ in Item(height: Double(Int.random(in: 50...400, using: &random))) })
        for c in columns {
            func layout(_ reflow: Reflow, axis: Axis = .vertical) async -> Layout? {
                var spec = LayoutSpec(
                    width: 1000, axis: axis,
                    defaults: SectionProperties(columns: c, columnSpacing: 4, rowSpacing: 4, reflow: reflow))
                spec.sections = [section]
                return try? await Layout.make(spec, allowsParallelism: false).layout
            }
            guard var exact = await layout(.exact), var stable = await layout(.stable),
                var horizontal = await layout(.exact, axis: .horizontal)
            else { continue }
            let (left, right) = await Measure.interleaved(runs: runs) {
                await exact.placeEverything()
            } _: {
                await stable.placeEverything()
            }
            table.add(
                "kernel reflow, \(items) items, \(c) columns",
                "exact \(Format.rate(Double(items) / left)), stable \(Format.rate(Double(items) / right))",
                "stable \(Format.ratio(left / right)) of exact", "reported")
            let (vertical, across) = await Measure.interleaved(runs: runs) {
                await exact.placeEverything()
            } _: {
                await horizontal.placeEverything()
            }
            table.add(
                "kernel axis, \(items) items, \(c) columns",
                "vertical \(Format.rate(Double(items) / vertical)), horizontal \(Format.rate(Double(items) / across))",
                "horizontal \(Format.ratio(vertical / across)) of vertical", "reported")
        }
    }
}
