import Foundation
import WaterfallLayout
import WaterfallTestSupport

/// `swift run -c release waterfall-bench [--quick] [--only NAME,…] [--columns N,…] [--report PATH]`: prints one
/// table of figures and ratios, then the table of the daemon against its peers (`--only floor,simdjson,memory`
/// gives it whole), and with `--report` writes both to a file (`BenchReport`); fuzz and soak, the long runs, run
/// only when named. The flags and scenario names are declared in `BenchOptions`.
@main
enum WaterfallBench {
    static func main() async {
        let options: BenchOptions
        do {
            options = try BenchOptions.parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            FileHandle.standardError.write(
                Data("waterfall-bench: \(error.message) (try 'waterfall-bench --help')\n".utf8))
            exit(2)
        }
        switch options.action {
        case .help:
            print(BenchOptions.usage)
            return
        case .serve(let flags):
            // The daemon of the end-to-end and memory scenarios when no built `waterfalld` is at hand (`DaemonProcess.bench`).
            await DaemonProcess.serve(flags: flags)
            return
        case .run:
            break
        }
        let quick = options.quick
        func wants(_ name: String) -> Bool {
            guard options.only?.contains(name) ?? true else { return false }
            print(name)
            return true
        }
        let runs = quick ? 3 : 7
        let columns = options.columns
        let million = quick ? 200_000 : 1_000_000
        let grid = quick ? (sections: 200, items: 1_000) : (sections: 1_000, items: 1_000)
        var table = Table()
        var ratios = RatioTable()
        // Built once, when a scenario needs them (`PeerPrograms`).
        var peerPrograms: PeerPrograms?
        func peers() -> PeerPrograms {
            if let peerPrograms { return peerPrograms }
            let built = PeerPrograms()
            for reason in built.missing { print("  peers: \(reason)") }
            peerPrograms = built
            return built
        }
        if wants("kernel") {
            await KernelBenchmark.run(
                items: million, columns: columns ?? [2, 3, 5, 8, 16, 64], runs: runs, table: &table)
        }
        if wants("css") { StylesheetBenchmark.run(feedItems: 1_000, runs: runs * 3, table: &table) }
        if wants("tiebreak") {
            await TieBreakBenchmark.run(items: million, columns: columns ?? [2, 3, 5, 8], runs: runs, table: &table)
        }
        if wants("spans") {
            await SpanPlacementBenchmark.run(
                items: million, columns: columns ?? [3, 4, 5, 8], runs: runs, table: &table)
        }
        if wants("stamps") {
            await StampsBenchmark.run(items: million, columns: columns ?? [2, 3, 5, 8], runs: runs, table: &table)
        }
        if wants("weights") {
            await ColumnWidthsBenchmark.run(
                items: million, columns: columns ?? [2, 3, 5, 8], runs: runs, table: &table)
        }
        if wants("lookahead") {
            await LookaheadBenchmark.run(items: 10_000, columns: columns ?? [3, 4, 5, 6], runs: runs, table: &table)
        }
        if wants("reflow") {
            await ReflowBenchmark.run(items: million, columns: columns ?? [2, 3, 5, 8], runs: runs, table: &table)
        }
        if wants("incremental") {
            await IncrementalBenchmark.run(
                items: million, sections: grid.sections, sectionItems: grid.items, changes: quick ? 200 : 1_000,
                runs: runs, table: &table)
        }
        if wants("parallel") {
            await ParallelBenchmark.run(sections: grid.sections, items: grid.items, runs: runs, table: &table)
        }
        if wants("query") {
            await QueryBenchmark.run(
                items: million, queries: quick ? 2_000 : 10_000, scans: quick ? 10 : 30, runs: runs, table: &table)
        }
        if wants("diff") {
            await DiffSizeBenchmark.run(
                items: million, sections: grid.sections, sectionItems: grid.items, table: &table)
        }
        if wants("e2e") {
            let sizes = EndToEndBenchmark.Sizes(
                requests: quick ? 40_000 : 200_000, clients: 8, pings: quick ? 2_000 : 10_000,
                bulkItems: million, runs: quick ? 2 : 3)
            EndToEndBenchmark.run(sizes, table: &table)
        }
        if wants("wire") {
            let sizes = WireBenchmark.Sizes(
                items: million, perInsert: quick ? 2_000 : 10_000, sections: grid.sections, sectionItems: grid.items,
                updates: quick ? 3 : 7, runs: quick ? 2 : 3)
            WireBenchmark.run(sizes, table: &table)
        }
        if wants("viewport") {
            let sizes = ViewportBenchmark.Sizes(
                items: million, perInsert: quick ? 2_000 : 10_000, updates: quick ? 3 : 7, streamItems: 30_000,
                changes: quick ? 20 : 50, subscribers: 64)
            await ViewportBenchmark.run(sizes, table: &table)
        }
        if wants("scopeddelete") {
            let sizes = ScopedDeleteBenchmark.Sizes(
                items: 100_000, deleted: 4_000, batchItems: 20_000, batchDeletes: 1_000, spreadDeletes: 10_000,
                runs: quick ? 2 : 3)
            ScopedDeleteBenchmark.run(sizes, table: &table, ratios: &ratios)
        }
        if wants("widths") {
            let sizes = WidthsBenchmark.Sizes(
                items: million, perInsert: quick ? 2_000 : 10_000, updates: quick ? 5 : 11)
            WidthsBenchmark.run(sizes, feed: .fixed(sizes), table: &table, ratios: &ratios)
        }
        if wants("aspectwidths") {
            let sizes = WidthsBenchmark.Sizes(
                items: 500_000, perInsert: quick ? 2_000 : 10_000, updates: quick ? 5 : 11)
            WidthsBenchmark.run(sizes, feed: .aspect(sizes), table: &table, ratios: &ratios)
        }
        if wants("client") {
            let sizes = ClientBenchmark.Sizes(
                requests: quick ? 20_000 : 100_000, pings: quick ? 2_000 : 10_000, items: million, runs: quick ? 2 : 3)
            await ClientBenchmark.run(sizes, table: &table, ratios: &ratios)
        }
        if wants("json") {
            await JSONBenchmark.run(lines: quick ? 40_000 : 200_000, runs: runs, table: &table)
        }
        if wants("numparse") { await NumberParseBenchmark.run(numbers: 10_000, runs: runs * 3, table: &table) }
        if wants("numformat") { await NumberFormatBenchmark.run(count: million, runs: runs, table: &table) }
        if wants("memory") {
            let loads = quick ? [(1, 200_000), (1_000, 1_000)] : [(1, 1_000_000), (10_000, 1_000)]
            MemoryBenchmark.run(loads: loads, table: &table, ratios: &ratios)
        }
        if wants("floor") {
            let sizes = FloorBenchmark.Sizes(requests: quick ? 50_000 : 200_000, clients: 8, runs: quick ? 2 : 3)
            await FloorBenchmark.run(sizes, peers: peers(), table: &table, ratios: &ratios)
        }
        if wants("profile") {
            ProfileBenchmark.run(
                requests: quick ? 100_000 : 400_000, rounds: quick ? 3 : 5, peers: peers(), table: &table)
        }
        if wants("simdjson") {
            SimdjsonBenchmark.run(
                items: million, perInsert: quick ? 2_000 : 10_000, runs: quick ? 2 : 3, peers: peers(), table: &table,
                ratios: &ratios)
        }
        if wants("storage") { await StorageBenchmark.run(quick: quick, table: &table) }
        if wants("durability") {
            DurabilityBenchmark.run(
                requests: quick ? 40_000 : 200_000, bulkItems: quick ? 200_000 : 1_000_000, runs: quick ? 2 : 3,
                table: &table)
        }
        if wants("recovery") {
            RecoveryBenchmark.run(
                items: quick ? 1_000_000 : 10_000_000, sections: 1_000, updates: quick ? 5_000 : 20_000,
                restarts: quick ? 2 : 3, table: &table)
        }
        if wants("layouts") { ManyLayoutsBenchmark.run(layouts: quick ? 2_000 : 10_000, table: &table) }
        // Long runs, only when named.
        if options.only?.contains("fuzz") == true, wants("fuzz") { StressBenchmark.fuzz(table: &table) }
        if options.only?.contains("soak") == true, wants("soak") { StressBenchmark.soak(table: &table) }
        // Last: it sets this process's allocator as the daemon does (`MemoryTuning`).
        if wants("stages") {
            let texts = BulkFeed(count: million).itemTexts
            let lines = [("real-valued", texts.real), ("integer", texts.integral)].map { name, items in
                (name, BulkFeed.insertLines(items, quick ? 2_000 : 10_000).map { Array($0.utf8) }, million)
            }
            await WireStagesBenchmark.run(lines: lines, runs: runs, table: &table)
            await WireStagesBenchmark.requestLine(count: quick ? 50_000 : 200_000, runs: runs, table: &table)
        }
        print("\n" + table.render())
        if !ratios.isEmpty { print("\nThe daemon against its peers, in this run:\n\n" + ratios.render()) }
        if let path = options.report {
            let arguments = Array(CommandLine.arguments.dropFirst())
            BenchReport(arguments: arguments, table: table.render(), ratios: ratios.isEmpty ? nil : ratios.render())
                .write(to: path)
        }
    }
}
