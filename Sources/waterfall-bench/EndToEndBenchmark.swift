import Synchronization
@_spi(Package) import WaterfallJSON
import WaterfallTestSupport

/// Requests through the real daemon over its socket; see `DaemonProcess.bench` for why a process.
enum EndToEndBenchmark {
    struct Sizes {
        var requests: Int
        var clients: Int
        var pings: Int
        var bulkItems: Int
        var runs: Int
    }

    static func run(_ sizes: Sizes, table: inout Table) {
        guard let daemon = DaemonProcess.bench(), let setup = BenchClient(path: daemon.socketPath) else {
            table.add("end to end", "the daemon did not start")
            return
        }
        defer { daemon.stop() }
        let heights = BenchLayouts.heights(1_000).map { "{\"h\":\(Int($0))}" }.joined(separator: ",")
        for c in 0..<sizes.clients {
            setup.expectResult(
                #"{"id":1,"method":"layout.create","params":{"layout":"e2e-\#(c)","width":1000,"#
                    + #""defaults":{"columns":3},"sections":[{"items":[\#(heights)]}],"diff":false}}"#)
        }
        let via = "via \(daemon.kind)"

        // One client, then several, each on its own layout so that they do not queue on one layout's actor.
        let one = Pipeline(lines: updateLines(layout: "e2e-0", count: sizes.requests), perChunk: 500)
        let single = measure(daemon, [one], runs: sizes.runs)
        let perClient = sizes.requests / sizes.clients
        let many = (0..<sizes.clients).map {
            Pipeline(lines: updateLines(layout: "e2e-\($0)", count: perClient), perChunk: 500)
        }
        let multi = measure(daemon, many, runs: sizes.runs)
        let rate1 = Double(sizes.requests) / single.seconds
        table.add(
            "pipelined items.update (1 item, diff on), 1 client, \(via)",
            "\(Format.rate(rate1)) requests, \(single.replyBytes / sizes.requests) bytes per reply",
            "daemon CPU \(Format.seconds(single.cpu / Double(sizes.requests))) per request",
            "≥ 300 k/s: \(rate1 >= 300_000 ? "met" : "not met")")
        let total = perClient * sizes.clients
        table.add(
            "pipelined items.update, \(sizes.clients) clients, a layout each",
            "\(Format.rate(Double(total) / multi.seconds)) requests",
            "\(Format.ratio(Double(total) / multi.seconds / rate1)) of 1 client")

        let latency = ping(daemon, count: sizes.pings)
        table.add(
            "ping round trip, 1 client, one at a time, \(sizes.pings) pings",
            "p50 \(Format.seconds(latency.median)), p99 \(Format.seconds(latency.quantile(0.99)))", "",
            "p99 < 200 µs: \(latency.quantile(0.99) < 200e-6 ? "met" : "not met")")

        let chunk = BenchLayouts.heights(1_000, seed: 9).map { "{\"h\":\(Int($0))}" }.joined(separator: ",")
        let bulkLines = (0..<(sizes.bulkItems / 1_000)).map { k in
            #"{"id":\#(k),"method":"items.insert","params":{"layout":"bulk","section":0,"at":\#(k * 1_000),"#
                + #""items":[\#(chunk)],"diff":false}}"#
        }
        let bulk = bulkLoad(daemon, Pipeline(lines: bulkLines, perChunk: 10), runs: sizes.runs)
        let bulkRate = Double(sizes.bulkItems) / bulk.seconds
        table.add(
            "bulk load, \(sizes.bulkItems / 1_000) items.insert of 1000 items (diff off)",
            "\(Format.rate(bulkRate)) items",
            "daemon CPU \(Format.seconds(bulk.cpu / Double(sizes.bulkItems))) per item",
            "≥ 5 M/s: \(bulkRate >= 5e6 ? "met" : "not met")")

        jsonShare(single, requests: sizes.requests, bulk: bulk, bulkRequests: sizes.bulkItems / 1_000, &table)
    }

    // MARK: Internal

    /// The lines one client sends, and where its writes are cut.
    struct Pipeline: Sendable {
        var bytes: [UInt8]
        var cuts: [Int]
        var count: Int

        init(lines: [String], perChunk: Int) {
            bytes = []
            cuts = [0]
            count = lines.count
            for (k, line) in lines.enumerated() {
                bytes += line.utf8
                bytes.append(0x0A)
                if (k + 1) % perChunk == 0 || k == lines.count - 1 { cuts.append(bytes.count) }
            }
        }
    }

    /// The wall time, the daemon's CPU time and the reply bytes of one pipelined round.
    struct Round {
        var seconds: Double
        var cpu: Double
        var replyBytes: Int
        /// The daemon's minor page faults (`DaemonProcess.minorFaults`).
        var faults = 0
        /// The time the daemon's threads were ready to run and waited for a CPU (`DaemonProcess.runQueueSeconds`).
        var runQueue = 0.0

        /// The share of the daemon's threads' ready time (running or waiting to) spent waiting for a CPU: near 0 on a
        /// quiet host, and most of it on one busy with other work, where the round's wall time says little.
        var runQueueShare: Double { cpu + runQueue > 0 ? runQueue / (cpu + runQueue) : 0 }
    }

    /// Single-item updates of the last item, two heights in turn: a reply's diff then lists one frame.
    static func updateLines(layout: String, count: Int) -> [String] {
        (0..<count).map { k in
            #"{"jsonrpc":"2.0","id":\#(k),"method":"items.update","params":{"layout":"\#(layout)","section":0,"#
                + #""items":[{"i":999,"h":\#(k % 2 == 0 ? 120 : 100)}]}}"#
        }
    }

    /// The median round of `runs` after one warm-up.
    static func measure(
        _ daemon: DaemonProcess, _ pipelines: [Pipeline], runs: Int, expectingErrors: Bool = false
    ) -> Round {
        var rounds: [Round] = []
        for _ in 0...runs {
            guard let round = pipelined(daemon, pipelines, expectingErrors: expectingErrors) else {
                return Round(seconds: .infinity, cpu: 0, replyBytes: 0)
            }
            rounds.append(round)
        }
        rounds.removeFirst()
        return rounds.sorted { $0.seconds < $1.seconds }[rounds.count / 2]
    }

    /// Each pipeline on its own connection: a thread writes its chunks while another reads the replies, which are
    /// expected to be results (errors, with `expectingErrors`).
    static func pipelined(_ daemon: DaemonProcess, _ pipelines: [Pipeline], expectingErrors: Bool = false) -> Round? {
        let expected = expectingErrors ? "\"error\"" : "\"result\""
        let clients = pipelines.compactMap { _ in BenchClient(path: daemon.socketPath) }
        guard clients.count == pipelines.count else { return nil }
        let outcome = Mutex((bytes: 0, failures: [String]()))
        var bodies: [@Sendable () -> Void] = []
        for (client, pipeline) in zip(clients, pipelines) {
            bodies.append {
                pipeline.bytes.withUnsafeBytes { all in
                    for k in 1..<pipeline.cuts.count {
                        client.write(UnsafeRawBufferPointer(rebasing: all[pipeline.cuts[k - 1]..<pipeline.cuts[k]]))
                    }
                }
            }
            bodies.append {
                let read = client.readLines(pipeline.count)
                outcome.withLock { outcome in
                    outcome.bytes += read?.bytes ?? 0
                    if let first = read?.first, !first.contains(expected) { outcome.failures.append(first) }
                    if read == nil { outcome.failures.append("connection closed early") }
                }
            }
        }
        let (cpu, faults, runQueue) = (daemon.cpuSeconds, daemon.minorFaults, daemon.runQueueSeconds)
        let start = nanoseconds()
        runOnThreads(bodies)
        let seconds = Double(nanoseconds() - start) / 1e9
        let result = outcome.withLock { $0 }
        if let failure = result.failures.first { print("  reply: \(failure.prefix(300))") }
        return Round(
            seconds: seconds, cpu: daemon.cpuSeconds - cpu, replyBytes: result.bytes,
            faults: daemon.minorFaults - faults, runQueue: daemon.runQueueSeconds - runQueue)
    }

    /// Round trips of one request at a time, each timed, after a tenth as many untimed.
    static func ping(_ daemon: DaemonProcess, count: Int) -> Samples {
        let samples = Mutex(Samples(capacity: count))
        guard let client = BenchClient(path: daemon.socketPath) else { return Samples() }
        runOnThreads([
            {
                let line = Array(#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#.utf8)
                var local = Samples(capacity: count)
                for k in 0..<(count + count / 10) {
                    let start = nanoseconds()
                    guard client.call(line) != nil else { return }
                    if k >= count / 10 { local.append(Double(nanoseconds() - start) / 1e9) }
                }
                samples.withLock { $0 = local }
            }
        ])
        return samples.withLock { $0 }
    }

    /// Sends `pipeline`, inserts into section 0 of a fresh one-section, 3-column layout named `bulk`, pipelined;
    /// the median round.
    static func bulkLoad(_ daemon: DaemonProcess, _ pipeline: Pipeline, runs: Int) -> Round {
        guard let control = BenchClient(path: daemon.socketPath) else {
            return Round(seconds: .infinity, cpu: 0, replyBytes: 0)
        }
        var rounds: [Round] = []
        for _ in 0...runs {
            control.expectResult(
                #"{"id":1,"method":"layout.create","params":{"layout":"bulk","width":1000,"replace":true,"#
                    + #""defaults":{"columns":3},"sections":[{}],"diff":false}}"#)
            guard let round = pipelined(daemon, [pipeline]) else { break }
            rounds.append(round)
            control.expectResult(#"{"id":2,"method":"layout.drop","params":{"layout":"bulk"}}"#)
        }
        guard rounds.count > 1 else { return Round(seconds: .infinity, cpu: 0, replyBytes: 0) }
        rounds.removeFirst()
        return rounds.sorted { $0.seconds < $1.seconds }[rounds.count / 2]
    }
}
