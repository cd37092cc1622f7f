import Foundation
import WaterfallTestSupport

/// What durability costs one pipelining client's single-item updates: the same requests to a daemon
/// with `--ephemeral`, with the default `"fsync": "everysec"`, and with `"always"`, each in a process of its own,
/// in the same run.
enum DurabilityBenchmark {
    static func run(requests: Int, bulkItems: Int, runs: Int, table: inout Table) {
        let configFile = NSTemporaryDirectory() + "waterfall-bench-fsync-always.json"
        guard (try? #"{"fsync": "always"}"#.write(toFile: configFile, atomically: true, encoding: .utf8)) != nil
        else {
            table.add("durability", "cannot write \(configFile)")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: configFile) }
        let settings: [(name: String, flags: [String])] = [
            ("--ephemeral", ["--ephemeral"]), ("everysec", []), ("always", ["--config", configFile]),
        ]
        var rates: [String: Double] = [:]
        var cpu: [String: Double] = [:]
        var bulkRates: [String: Double] = [:]
        var bulkCPU: [String: Double] = [:]
        // The wire scenario's real-valued bulk load, 100 inserts appended in turn: each request grows one large
        // section, which is where keeping the layout restorable for a failed commit must not cost a copy per request.
        let bulk = EndToEndBenchmark.Pipeline(
            lines: BulkFeed.insertLines(BulkFeed(count: bulkItems).itemTexts.real, bulkItems / 100), perChunk: 1)
        for setting in settings {
            guard let daemon = DaemonProcess.bench(arguments: setting.flags),
                let setup = BenchClient(path: daemon.socketPath)
            else {
                table.add("durability, \(setting.name)", "the daemon did not start")
                return
            }
            let heights = BenchLayouts.heights(1_000).map { "{\"h\":\(Int($0))}" }.joined(separator: ",")
            setup.expectResult(
                #"{"id":1,"method":"layout.create","params":{"layout":"e2e-0","width":1000,"#
                    + #""defaults":{"columns":3},"sections":[{"items":[\#(heights)]}],"diff":false}}"#)
            let lines = EndToEndBenchmark.Pipeline(
                lines: EndToEndBenchmark.updateLines(layout: "e2e-0", count: requests), perChunk: 500)
            let round = EndToEndBenchmark.measure(daemon, [lines], runs: runs)
            rates[setting.name] = Double(requests) / round.seconds
            cpu[setting.name] = round.cpu / Double(requests)
            let load = EndToEndBenchmark.bulkLoad(daemon, bulk, runs: runs)
            bulkRates[setting.name] = Double(bulkItems) / load.seconds
            bulkCPU[setting.name] = load.cpu / Double(bulkItems)
            daemon.stop()
        }
        let ephemeral = rates["--ephemeral"] ?? 0
        for setting in settings {
            let rate = rates[setting.name] ?? 0
            let ratio = ephemeral > 0 ? rate / ephemeral : 0
            let target =
                setting.name == "everysec" ? "≥ 0.8× ephemeral: \(ratio >= 0.8 ? "met" : "not met")" : ""
            // The daemon's CPU time per request says what durability costs even when other work on the machine
            // makes the throughput drift.
            table.add(
                "pipelined items.update (1 item), 1 client, \(setting.name)",
                "\(Format.rate(rate)) requests, daemon CPU \(Format.seconds(cpu[setting.name] ?? 0)) per request",
                "\(Format.ratio(ratio)) of --ephemeral", target)
        }
        let ephemeralBulk = bulkRates["--ephemeral"] ?? 0
        for setting in settings {
            let rate = bulkRates[setting.name] ?? 0
            table.add(
                "bulk load, 100 items.insert of \(bulkItems / 100) real-valued heights (diff off), \(setting.name)",
                "\(Format.rate(rate)) items, daemon CPU \(Format.seconds(bulkCPU[setting.name] ?? 0)) per item",
                "\(Format.ratio(ephemeralBulk > 0 ? rate / ephemeralBulk : 0)) of --ephemeral")
        }
    }
}
