import WaterfallLayout

/// A width change of many sections, placed serially and then in the engine's task group.
enum ParallelBenchmark {
    static func run(sections: Int, items: Int, runs: Int, table: inout Table) async {
        guard var layout = await BenchLayouts.make(sections: sections, items: items) else {
            table.add("parallel", "could not build the layout")
            return
        }
        // Two widths in turn, so that every change re-places every item and nothing accumulates.
        var wide = false
        func change(_ layout: inout Layout) async {
            wide.toggle()
            _ = try? await layout.validateAndApply([.configureLayout(LayoutPatch(width: wide ? 1000 : 900))])
        }
        let (serial, parallel) = await Measure.interleaved(runs: runs) {
            layout.allowsParallelism = false
            await change(&layout)
        } _: {
            layout.allowsParallelism = true
            await change(&layout)
        }
        let speedup = serial / parallel
        table.add(
            "width change, \(sections) sections × \(items) items, serial vs parallel",
            "\(Format.seconds(serial)) serial, \(Format.seconds(parallel)) parallel",
            "\(Format.ratio(speedup)) faster",
            "≥ 1.7× on 2 cores: \(speedup >= 1.7 ? "met" : "not met")")
        // Placement alone, without the diff a width change also builds (serially): what the task group can share.
        let (serialPlacement, parallelPlacement) = await Measure.interleaved(runs: runs) {
            layout.allowsParallelism = false
            await layout.placeEverything()
        } _: {
            layout.allowsParallelism = true
            await layout.placeEverything()
        }
        table.add(
            "placement only (placeEverything), same layout, serial vs parallel",
            "\(Format.seconds(serialPlacement)) serial, \(Format.seconds(parallelPlacement)) parallel",
            "\(Format.ratio(serialPlacement / parallelPlacement)) faster", "(for comparison)")
    }
}
