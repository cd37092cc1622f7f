import WaterfallLayout
import WaterfallTestSupport

/// Viewport queries on one large section against a linear scan over every frame.
enum QueryBenchmark {
    static func run(items: Int, queries: Int, scans: Int, runs: Int, table: inout Table) async {
        guard let layout = await BenchLayouts.make(sections: 1, items: items) else {
            table.add("queries", "could not build the layout")
            return
        }
        let viewport = 800.0
        var random = SplitMix64(seed: 7)
        let top = max(0, layout.contentSize.height - viewport)
        let offsets = (0..<queries).map { _ in Double.random(in: 0...top, using: &random) }
        var found = 0
        // The scan a layout without an index would do: every frame, precomputed once into a flat array.
        let frames = layout.frames(ofSection: 0).items.map(\.frame)
        var scanned = 0
        let (queryTime, scanTime) = await Measure.interleaved(runs: runs) {
            for y in offsets {
                found &+= layout.elements(in: Rect(x: 0, y: y, width: layout.width, height: viewport)).count
            }
        } _: {
            for y in offsets.prefix(scans) {
                let rect = Rect(x: 0, y: y, width: layout.width, height: viewport)
                frames.withUnsafeBufferPointer { frames in
                    for frame in frames where frame.isVisible(in: rect) { scanned &+= 1 }
                }
            }
        }
        let perQuery = queryTime / Double(queries)
        let perScan = scanTime / Double(min(scans, queries))
        let ratio = perScan / perQuery
        let average = found / max(1, queries * (runs + 1))
        table.add(
            "query an 800-pt viewport, 1 section × \(items) items (~\(average) elements each)",
            "\(Format.rate(1 / perQuery)) queries (scan \(Format.rate(1 / perScan)))",
            "\(Format.ratio(ratio)) the scan",
            "≥ 1000× the scan: \(ratio >= 1000 ? "met" : "not met")")
        // Keep the scan's result alive so the optimizer cannot drop the loop.
        if scanned == -1 { print(scanned) }
    }
}
