import Foundation
import WaterfallJSON

/// Scoped diffs and subscriptions (issue 19), through the real daemon: one height in the middle of a million items
/// with a 1,000-point viewport around it and at the top, against `"diff": false`; and 64 subscribers under a stream
/// of changes, each with its own viewport, against 64 unscoped ones.
enum ViewportBenchmark {
    struct Sizes {
        var items: Int
        var perInsert: Int
        var updates: Int
        /// Items of the subscribers' layout, and the changes streamed to them.
        var streamItems: Int
        var changes: Int
        var subscribers: Int
    }

    static func run(_ sizes: Sizes, table: inout Table) {
        guard let daemon = BenchDaemon(arguments: ["--ephemeral"]), let control = BenchClient(path: daemon.socketPath)
        else {
            table.add("viewport", "the daemon did not start")
            return
        }
        defer { daemon.stop() }
        control.expectResult(
            #"{"id":1,"method":"layout.create","params":{"layout":"bulk","width":1000,"replace":true,"#
                + #""defaults":{"columns":3},"sections":[{}],"diff":false}}"#)
        let texts = WireBenchmark.itemTexts(sizes.items).real
        for line in WireBenchmark.insertLines(texts, sizes.perInsert) { control.expectResult(line) }
        guard let reply = control.call(Array(query(0, 1).utf8)),
            let height = number(after: #""h":"#, in: String(decoding: reply, as: UTF8.self))
        else { return }
        // The middle item sits about half-way down a feed of random heights.
        scopedUpdate(daemon, control, sizes, viewportY: height / 2 - 500, "around item \(sizes.items / 2)", &table)
        scopedUpdate(daemon, control, sizes, viewportY: 0, "at the top", &table)
        stream(daemon, sizes, scoped: false, &table)
        stream(daemon, sizes, scoped: true, &table)
    }

    // MARK: Private

    private static func query(_ y: Double, _ h: Double) -> String {
        #"{"id":0,"method":"query","params":{"layout":"bulk","rect":{"x":0,"y":\#(y),"w":1,"h":\#(h)}}}"#
    }

    /// The number after the first `key` in `text`.
    private static func number(after key: String, in text: String) -> Double? {
        guard let range = text.range(of: key) else { return nil }
        return Double(text[range.upperBound...].prefix { "0123456789.e+-".contains($0) })
    }

    /// The middle item's height, alternately with the diff scoped to `viewportY` ..< +1000 and with `"diff": false`.
    private static func scopedUpdate(
        _ daemon: BenchDaemon, _ control: BenchClient, _ sizes: Sizes, viewportY: Double, _ name: String,
        _ table: inout Table
    ) {
        let middle = sizes.items / 2
        var with: [Double] = []
        var without: [Double] = []
        var cpu = (with: [Double](), without: [Double]())
        var replyBytes = 0
        var listed = 0
        for k in 0..<(2 * sizes.updates + 2) {
            let scoped = k % 2 == 0
            let tail = scoped ? #","viewport":{"y":\#(viewportY),"h":1000}"# : #","diff":false"#
            let line = Array(
                (#"{"id":\#(k),"method":"items.update","params":{"layout":"bulk","section":0,"#
                    + #""items":[{"i":\#(middle),"h":\#(scoped ? 333.3 : 111.1)}]\#(tail)}}"#).utf8)
            let startCPU = daemon.cpuSeconds
            let start = nanoseconds()
            guard let reply = control.call(line) else { return }
            let seconds = Double(nanoseconds() - start) / 1e9
            let cpuSeconds = daemon.cpuSeconds - startCPU
            guard k >= 2 else { continue }
            if scoped {
                with.append(seconds)
                cpu.with.append(cpuSeconds)
                replyBytes = reply.count + 1
                let text = String(decoding: reply, as: UTF8.self)
                listed = text.split(separator: #""i":"#, omittingEmptySubsequences: false).count - 1
            } else {
                without.append(seconds)
                cpu.without.append(cpuSeconds)
            }
        }
        let a = WireBenchmark.median(with)
        let b = WireBenchmark.median(without)
        table.add(
            "update item \(middle) of \(sizes.items), diff scoped to a 1,000-point viewport \(name) vs \"diff\": false",
            "\(replyBytes) bytes (\(listed) item frames), \(Format.seconds(a)) vs \(Format.seconds(b)); daemon CPU "
                + "\(Format.seconds(WireBenchmark.median(cpu.with))) vs \(Format.seconds(WireBenchmark.median(cpu.without)))",
            "\(Format.ratio(a / b)) of without",
            "≤ 4 KB and ≤ 1.3×: \(replyBytes <= 4096 && a / b <= 1.3 ? "met" : "MISSED")")
    }

    /// `sizes.changes` height changes in the middle of a `streamItems` layout, read by `sizes.subscribers`
    /// subscribers (each with its own viewport when `scoped`): events per second delivered, daemon CPU per change.
    private static func stream(_ daemon: BenchDaemon, _ sizes: Sizes, scoped: Bool, _ table: inout Table) {
        guard let control = BenchClient(path: daemon.socketPath) else { return }
        let items = (0..<sizes.streamItems).map { "{\"h\":\(20 + ($0 * 37) % 380)}" }.joined(separator: ",")
        control.expectResult(
            #"{"id":1,"method":"layout.create","params":{"layout":"stream","width":1000,"replace":true,"#
                + #""defaults":{"columns":3},"sections":[{"items":[\#(items)]}],"diff":false}}"#)
        let height = Double(sizes.streamItems) * 210 / 3
        var subscribers: [BenchClient] = []
        for k in 0..<sizes.subscribers {
            guard let client = BenchClient(path: daemon.socketPath) else { return }
            let y = height * Double(k) / Double(sizes.subscribers)
            let viewport = scoped ? #","viewport":{"y":\#(y),"h":1000}"# : ""
            client.expectResult(#"{"id":1,"method":"subscribe","params":{"layout":"stream"\#(viewport)}}"#)
            subscribers.append(client)
        }
        let middle = sizes.streamItems / 2
        let lines = (0..<sizes.changes).map { k in
            Array(
                (#"{"id":\#(k),"method":"items.update","params":{"layout":"stream","section":0,"#
                    + #""items":[{"i":\#(middle),"h":\#(k % 2 == 0 ? 333 : 77)}],"diff":false}}"#).utf8)
        }
        let changes = sizes.changes
        let startCPU = daemon.cpuSeconds
        let start = nanoseconds()
        let readers: [@Sendable () -> Void] = subscribers.map { client in { _ = client.readLines(changes) } }
        let writer: @Sendable () -> Void = { for line in lines { _ = control.call(line) } }
        runOnThreads(readers + [writer])
        let seconds = Double(nanoseconds() - start) / 1e9
        let cpu = daemon.cpuSeconds - startCPU
        let events = Double(sizes.subscribers * changes)
        table.add(
            "\(sizes.subscribers) \(scoped ? "scoped (a viewport each)" : "unscoped") subscribers, \(changes) "
                + "height changes at item \(middle) of \(sizes.streamItems)",
            "\(Format.rate(events / seconds)) events/s delivered",
            "daemon CPU \(Format.seconds(cpu / Double(changes))) per change")
    }
}
