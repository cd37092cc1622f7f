import Foundation

/// What durability costs one pipelining client's single-item updates (issue 11): the same requests to a daemon
/// with `--ephemeral`, with the default `"fsync": "everysec"`, and with `"always"`, each in a process of its own,
/// in the same run.
enum DurabilityBenchmark {
    static func run(requests: Int, runs: Int, table: inout Table) {
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
        for setting in settings {
            guard let daemon = BenchDaemon(arguments: setting.flags),
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
            daemon.stop()
            rates[setting.name] = Double(requests) / round.seconds
            cpu[setting.name] = round.cpu / Double(requests)
        }
        let ephemeral = rates["--ephemeral"] ?? 0
        for setting in settings {
            let rate = rates[setting.name] ?? 0
            let ratio = ephemeral > 0 ? rate / ephemeral : 0
            let target =
                setting.name == "everysec" ? "≥ 0.8× ephemeral: \(ratio >= 0.8 ? "met" : "MISSED")" : ""
            // The daemon's CPU time per request says what durability costs even when other work on the machine
            // makes the throughput drift.
            table.add(
                "pipelined items.update (1 item), 1 client, \(setting.name)",
                "\(Format.rate(rate)) requests, daemon CPU \(Format.seconds(cpu[setting.name] ?? 0)) per request",
                "\(Format.ratio(ratio)) of --ephemeral", target)
        }
    }
}
