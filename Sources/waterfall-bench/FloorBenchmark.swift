import Dispatch
import Glibc
import WaterfallClient
import WaterfallTestSupport

/// The request path against the machine's limit: the daemon and `floor.c` (a line server that parses
/// nothing) driven by the same `loadgen` client, one client pipelining one-item `items.update` requests 256 deep and
/// eight clients at once, in turn; and the Swift client against `loadgen` on the same daemon, 256 in flight each.
enum FloorBenchmark {
    struct Sizes {
        /// Requests per client and round.
        var requests: Int
        var clients: Int
        var runs: Int
    }

    static func run(_ sizes: Sizes, peers: PeerPrograms, table: inout Table, ratios: inout RatioTable) async {
        guard let floor = peers.floor, let loadgen = peers.loadgen else {
            table.add("floor", "skipped: \(peers.missing.joined(separator: "; "))")
            return
        }
        guard let daemon = DaemonProcess.bench(arguments: ["--ephemeral"]),
            let setup = BenchClient(path: daemon.socketPath)
        else {
            table.add("floor", "the daemon did not start")
            return
        }
        defer { daemon.stop() }
        let floorSocket = peers.directory + "/floor.sock"
        guard let server = peers.spawn(floor, [floorSocket], output: "floor-server") else { return }
        defer { server.kill9() }
        for _ in 0..<2_000 where access(floorSocket, F_OK) != 0 { usleep(1_000) }
        let heights = BenchLayouts.heights(1_000).map { "{\"h\":\(Int($0))}" }.joined(separator: ",")
        for c in 0..<sizes.clients {
            setup.expectResult(
                #"{"id":1,"method":"layout.create","params":{"layout":"floor-\#(c)","width":1000,"#
                    + #""defaults":{"columns":3},"sections":[{"items":[\#(heights)]}],"diff":false}}"#)
        }
        // loadgen replaces the first %d with a counter: put in the height's decimals (100.0, 100.1, … 100.9, 100.10,
        // …), each request changes the last item's height, staying in [100, 101) (a one-frame diff, real-valued as
        // the floor's reply is), as the bench's own update lines do by alternating two heights.
        let lines = (0..<sizes.clients).map {
            #"{"jsonrpc":"2.0","id":1,"method":"items.update","params":{"layout":"floor-\#($0)","section":0,"#
                + #""items":[{"i":999,"h":100.%d}]}}"#
        }
        let drive = Driver(loadgen: loadgen, peers: peers, requests: sizes.requests)
        var rounds: (floor1: [Double], daemon1: [Round], floor8: [Double], daemon8: [Round]) = ([], [], [], [])
        for run in 0...sizes.runs {
            let floor1 = drive.time(floorSocket, lines: [lines[0]])
            let daemon1 = drive.round(daemon, lines: [lines[0]])
            let floor8 = drive.time(floorSocket, lines: lines)
            let daemon8 = drive.round(daemon, lines: lines)
            // The first round warms up.
            guard run > 0 else { continue }
            rounds.floor1.append(floor1)
            rounds.daemon1.append(daemon1)
            rounds.floor8.append(floor8)
            rounds.daemon8.append(daemon8)
        }
        let check = setup.call(Array(lines[0].replacingOccurrences(of: "%d", with: "7").utf8))
        if let check, !String(decoding: check, as: UTF8.self).contains("\"result\"") {
            print("  the daemon answered the update with: \(String(decoding: check.prefix(300), as: UTF8.self))")
        }
        let n = Double(sizes.requests)
        let floor1 = n / median(rounds.floor1)
        let one = median(rounds.daemon1)
        let daemon1 = n / one.seconds
        table.add(
            "pipelined items.update 256 deep via loadgen, 1 client: \(daemon.kind) vs floor.c",
            "\(Format.rate(daemon1)) vs \(Format.rate(floor1)) requests",
            "daemon CPU \(Format.seconds(one.cpu / n)) per request")
        let cpu1 = one.cpu / n
        let met1 = cpu1 <= 2.0e-6 && daemon1 / floor1 >= 0.5
        ratios.add(
            "daemon CPU per pipelined one-item items.update (one client, loadgen 256 in flight) / floor.c, one client",
            daemon: "\(Format.seconds(cpu1)) CPU per request, \(Format.rate(daemon1))",
            peer: "\(Format.rate(floor1))", ratio: Format.ratio(daemon1 / floor1),
            goal: "≤ 2.0 µs, so one client reaches ≥ 0.5× floor.c: \(met1 ? "met" : "not met")")
        let total = n * Double(sizes.clients)
        let floor8 = total / median(rounds.floor8)
        let eight = median(rounds.daemon8)
        let daemon8 = total / eight.seconds
        let cores = eight.cpu / eight.seconds
        let ratio8 = daemon8 / floor8
        table.add(
            "pipelined items.update via loadgen, \(sizes.clients) clients on \(sizes.clients) layouts vs floor.c",
            "\(Format.rate(daemon8)) vs \(Format.rate(floor8)) requests",
            "daemon on \(round(cores * 100) / 100) cores, CPU \(Format.seconds(eight.cpu / total)) per request")
        ratios.add(
            "\(sizes.clients) clients on \(sizes.clients) layouts / floor.c, \(sizes.clients) clients",
            daemon: "\(Format.rate(daemon8)) on \(round(cores * 100) / 100) cores", peer: "\(Format.rate(floor8))",
            ratio: ratio8, atLeast: 0.3)
        await swiftClient(daemon, drive, line: lines[0], sizes, &table, &ratios)
    }

    // MARK: Private

    /// A loadgen round on the daemon: its wall time and the daemon's CPU time.
    private struct Round {
        var seconds: Double
        var cpu: Double
    }

    /// Runs `loadgen` clients, one process each, and times them from the first start to the last end.
    private struct Driver {
        let loadgen: String
        let peers: PeerPrograms
        let requests: Int

        func time(_ socket: String, lines: [String]) -> Double {
            let start = nanoseconds()
            let started = lines.enumerated().compactMap { k, line in
                peers.spawn(loadgen, [socket, "pipelined", "\(requests)", "256", line], output: "loadgen-\(k)")
            }
            for client in started {
                let result = peers.wait(client)
                if result.status != 0 || !result.output.contains("req/s") {
                    print("  loadgen on \(socket) failed (status \(result.status)): \(result.output.prefix(300))")
                }
            }
            return Double(nanoseconds() - start) / 1e9
        }

        func round(_ daemon: DaemonProcess, lines: [String]) -> Round {
            let cpu = daemon.cpuSeconds
            let seconds = time(daemon.socketPath, lines: lines)
            return Round(seconds: seconds, cpu: daemon.cpuSeconds - cpu)
        }
    }

    /// The Swift client (`WaterfallClient`, 256 calls in flight) against loadgen (256 deep) on the same daemon and
    /// layout, in turn.
    private static func swiftClient(
        _ daemon: DaemonProcess, _ drive: Driver, line: String, _ sizes: Sizes, _ table: inout Table,
        _ ratios: inout RatioTable
    ) async {
        let client: WaterfallClient
        do {
            client = try await WaterfallClient.connect(to: daemon.socketPath)
        } catch {
            table.add("floor: Swift client", "cannot connect: \(error)")
            return
        }
        var raw: [Double] = []
        var calls = SwiftRounds()
        var pipelined = SwiftRounds()
        var failures = 0
        for run in 0...sizes.runs {
            let rawSeconds = drive.time(daemon.socketPath, lines: [line])
            let callRound = await SwiftRounds.measure(daemon) {
                await ClientBenchmark.updates(client, layout: "floor-0", count: sizes.requests)
            }
            let pipelineRound = await SwiftRounds.measure(daemon) {
                failures += await ClientBenchmark.pipelinedUpdates(client, layout: "floor-0", count: sizes.requests)
            }
            guard run > 0 else { continue }
            raw.append(rawSeconds)
            calls.append(callRound)
            pipelined.append(pipelineRound)
        }
        if failures > 0 { print("  the pipelined updates had \(failures) failures") }
        let rawRate = Double(sizes.requests) / median(raw)
        for (rounds, how) in [(calls, "concurrent calls"), (pipelined, "updateItems(pipelining:)")] {
            let (rate, perCall) = rounds.figures(requests: sizes.requests)
            table.add(
                "pipelined items.update, WaterfallClient \(how), 256 in flight, vs loadgen (256 deep)",
                "\(Format.rate(rate)) vs \(Format.rate(rawRate)) requests",
                "\(Format.ratio(rate / rawRate)) of raw; \(perCall)")
            ratios.add(
                "the Swift client (\(how)) / a raw client (loadgen), 256 updates in flight",
                daemon: "\(Format.rate(rate)), \(perCall)", peer: "\(Format.rate(rawRate))",
                ratio: rate / rawRate, atLeast: 0.8)
        }
    }

    /// The rounds of one way of driving the Swift client: wall time and the daemon's and this process's CPU.
    private struct SwiftRounds {
        var rounds: [Round] = []
        var clientCPU: [Double] = []

        mutating func append(_ round: (Round, Double)) {
            rounds.append(round.0)
            clientCPU.append(round.1)
        }

        /// The median round's rate, and the CPU per call of the daemon and of the client.
        func figures(requests: Int) -> (rate: Double, perCall: String) {
            let n = Double(requests)
            let middle = FloorBenchmark.median(rounds)
            let client = Format.seconds(FloorBenchmark.median(clientCPU) / n)
            return (n / middle.seconds, "client CPU \(client), daemon CPU \(Format.seconds(middle.cpu / n)) per call")
        }

        /// Times `body`; this process runs nothing else meanwhile, so its CPU time is the client's (loadgen is a
        /// process of its own).
        static func measure(_ daemon: DaemonProcess, _ body: () async -> Void) async -> (Round, Double) {
            let start = nanoseconds()
            let (ownStart, daemonStart) = (Measure.processCPUSeconds(), daemon.cpuSeconds)
            await body()
            let seconds = Double(nanoseconds() - start) / 1e9
            return (
                Round(seconds: seconds, cpu: daemon.cpuSeconds - daemonStart), Measure.processCPUSeconds() - ownStart
            )
        }
    }

    private static func median(_ values: [Double]) -> Double {
        values.isEmpty ? .infinity : values.sorted()[values.count / 2]
    }

    private static func median(_ rounds: [Round]) -> Round {
        rounds.isEmpty ? Round(seconds: .infinity, cpu: 0) : rounds.sorted { $0.seconds < $1.seconds }[rounds.count / 2]
    }
}
