import Dispatch
import Synchronization
import WaterfallClient
import WaterfallLayout
import WaterfallTestSupport

/// The Swift client (`WaterfallClient`) against the benchmark's raw blocking client, on the same daemon and in
/// turn: what its async calls, id matching and typed decoding cost. The raw client stays the benchmark's own
/// driver: a throughput figure must not include a client's costs.
enum ClientBenchmark {
    struct Sizes {
        var requests: Int
        var pings: Int
        var items: Int
        var runs: Int
    }

    static func run(_ sizes: Sizes, table: inout Table, ratios: inout RatioTable) async {
        guard let daemon = DaemonProcess.bench(), let setup = BenchClient(path: daemon.socketPath) else {
            table.add("client", "the daemon did not start")
            return
        }
        defer { daemon.stop() }
        let client: WaterfallClient
        do {
            client = try await WaterfallClient.connect(to: daemon.socketPath)
        } catch {
            table.add("client", "cannot connect: \(error)")
            return
        }
        let heights = BenchLayouts.heights(1_000).map { "{\"h\":\(Int($0))}" }.joined(separator: ",")
        setup.expectResult(
            #"{"id":1,"method":"layout.create","params":{"layout":"c","width":1000,"#
                + #""defaults":{"columns":3},"sections":[{"items":[\#(heights)]}],"diff":false}}"#)

        // Pipelined one-item updates: the raw client writes them in chunks; the Swift client keeps 256 in flight.
        let raw = EndToEndBenchmark.Pipeline(
            lines: EndToEndBenchmark.updateLines(layout: "c", count: sizes.requests), perChunk: 500)
        let times = await Measure.interleaved(
            runs: sizes.runs, { _ = EndToEndBenchmark.pipelined(daemon, [raw]) },
            { await updates(client, count: sizes.requests) })
        table.add(
            "pipelined items.update, WaterfallClient (256 in flight) vs raw client",
            "\(Format.rate(Double(sizes.requests) / times.b)) vs \(Format.rate(Double(sizes.requests) / times.a)) requests",
            "\(Format.ratio(times.a / times.b)) of raw")

        // The same updates through the client's pipelining call: one buffer of results, no task or continuation per
        // request.
        let failures = Mutex(0)
        let piped = await Measure.interleaved(
            runs: sizes.runs, { _ = EndToEndBenchmark.pipelined(daemon, [raw]) },
            {
                let failed = await pipelinedUpdates(client, count: sizes.requests)
                failures.withLock { $0 += failed }
            })
        if failures.withLock({ $0 }) > 0 { print("  pipelined updates failed \(failures.withLock { $0 }) times") }
        table.add(
            "pipelined items.update, WaterfallClient.updateItems(pipelining:) (window 256) vs raw client",
            "\(Format.rate(Double(sizes.requests) / piped.b)) vs \(Format.rate(Double(sizes.requests) / piped.a)) requests",
            "\(Format.ratio(piped.a / piped.b)) of raw")

        // Round trips, one at a time.
        let rawPing = EndToEndBenchmark.ping(daemon, count: sizes.pings)
        var samples: [Double] = []
        for k in 0..<(sizes.pings + sizes.pings / 10) {
            let start = DispatchTime.now().uptimeNanoseconds
            try? await client.ping()
            if k >= sizes.pings / 10 { samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
        }
        samples.sort()
        let p50 = samples[samples.count / 2]
        table.add(
            "ping round trip, WaterfallClient vs raw client",
            "p50 \(Format.seconds(p50)) vs \(Format.seconds(rawPing.median))",
            "\(Format.ratio(p50 / rawPing.median)) of raw")

        // A whole layout.get: the raw client reads the bytes; the Swift client also decodes every frame.
        let chunk = BenchLayouts.heights(1_000, seed: 9).map { "{\"h\":\(Int($0))}" }.joined(separator: ",")
        setup.expectResult(#"{"id":1,"method":"layout.create","params":{"layout":"g","width":1000,"diff":false}}"#)
        setup.expectResult(
            #"{"id":1,"method":"sections.insert","params":{"layout":"g","at":0,"sections":[{}],"diff":false}}"#)
        for k in 0..<(sizes.items / 1_000) {
            setup.expectResult(
                #"{"id":\#(k),"method":"items.insert","params":{"layout":"g","section":0,"at":\#(k * 1_000),"#
                    + #""items":[\#(chunk)],"diff":false}}"#)
        }
        let get = Array(#"{"id":1,"method":"layout.get","params":{"layout":"g"}}"#.utf8)
        // A connection of its own for the raw reads, read at once like the client's.
        guard let reader = BenchClient(path: daemon.socketPath) else { return }
        failures.withLock { $0 = 0 }
        let gets = await Measure.interleaved(
            runs: sizes.runs, { if reader.call(get) == nil { failures.withLock { $0 += 1 } } },
            {
                do { _ = try await client.frames(of: "g") } catch { failures.withLock { $0 += 1 } }
            })
        if failures.withLock({ $0 }) > 0 { print("  layout.get failed \(failures.withLock { $0 }) times") }
        table.add(
            "layout.get of \(sizes.items) items, WaterfallClient.frames(of:) vs raw bytes",
            "\(Format.seconds(gets.b)) vs \(Format.seconds(gets.a))",
            "\(Format.ratio(gets.b / gets.a)) of raw")
        ratios.add(
            "the Swift client's frames(of:) of a \(sizes.items)-item layout / reading the raw layout.get reply",
            daemon: Format.seconds(gets.b), peer: Format.seconds(gets.a), ratio: gets.b / gets.a, atMost: 1.5)
    }

    /// `count` one-item updates of item 999 in section 0 of `layout` through the client's pipeline, 256 in flight
    /// (`updateItems(pipelining:)`, its way to stream changes); each request is made in the timed run, as the
    /// lanes of `updates` make theirs. Returns how many failed.
    @discardableResult
    static func pipelinedUpdates(_ client: WaterfallClient, layout: String = "c", count: Int) async -> Int {
        let requests = (0..<count).map { k in [ItemUpdate(index: 999, item: Item(height: k % 2 == 0 ? 120 : 100))] }
        let results = await client.updateItems(pipelining: requests, inSection: 0, of: layout, window: 256)
        return results.reduce(0) { failures, result in
            if case .failure = result { failures + 1 } else { failures }
        }
    }

    /// `count` one-item updates of item 999 in section 0 of `layout`, 256 in flight: 256 tasks, each making its
    /// share of the calls one after the other (a task per call cost the driver a task's creation and a wake-up of
    /// the group's owner per call, which is not the client's cost).
    static func updates(_ client: WaterfallClient, layout: String = "c", count: Int) async {
        let lanes = min(256, count)
        await withTaskGroup(of: Void.self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    for k in stride(from: lane, to: count, by: lanes) {
                        // Each lane alternates the two heights, as the wire order does overall.
                        let item = Item(height: (k + k / lanes) % 2 == 0 ? 120 : 100)
                        _ = try? await client.updateItems(
                            [ItemUpdate(index: 999, item: item)], inSection: 0, of: layout)
                    }
                }
            }
        }
    }
}
