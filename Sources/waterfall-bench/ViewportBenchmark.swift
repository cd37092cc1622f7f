import Foundation
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallTestSupport

/// Scoped diffs and subscriptions, through the real daemon: one height in the middle of a million items
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

    static func run(_ sizes: Sizes, table: inout Table) async {
        guard let (daemon, control) = DaemonProcess.ephemeral(for: "viewport", &table) else { return }
        defer { daemon.stop() }
        let feed = BulkFeed(count: sizes.items)
        control.load(BulkFeed.insertLines(feed.itemTexts.real, sizes.perInsert))
        let middle = sizes.items / 2
        guard let around = try? await feed.viewport(around: middle) else {
            table.add("viewport", "the feed could not be laid out")
            return
        }
        scopedUpdate(daemon, control, sizes, viewport: around, "around item \(middle)", listing: middle, &table)
        scopedUpdate(daemon, control, sizes, viewport: Viewport(y: 0, height: 1000), "at the top", &table)
        stream(daemon, sizes, scoped: false, &table)
        stream(daemon, sizes, scoped: true, &table)
    }

    // MARK: Private

    /// The middle item's height, alternately with the diff scoped to `viewport` and with `"diff": false`. With
    /// `listing`, the viewport shows that item (the one changed): its reply must list it; without, nothing in the
    /// viewport moves and its reply must list no item frame.
    private static func scopedUpdate(
        _ daemon: DaemonProcess, _ control: BenchClient, _ sizes: Sizes, viewport: Viewport, _ name: String,
        listing item: Int? = nil, _ table: inout Table
    ) {
        let middle = sizes.items / 2
        var with: [Double] = []
        var without: [Double] = []
        var cpu = (with: [Double](), without: [Double]())
        var replyBytes = 0
        var listed = 0
        var listsItem = true
        for k in 0..<(2 * sizes.updates + 2) {
            let scoped = k % 2 == 0
            let tail = scoped ? #","viewport":{"y":\#(viewport.y),"h":\#(viewport.height)}"# : #","diff":false"#
            let line = Array(
                (#"{"id":\#(k),"method":"items.update","params":{"layout":"bulk","section":0,"#
                    + #""items":[{"i":\#(middle),"h":\#(scoped ? 333.3 : 111.1)}]\#(tail)}}"#).utf8)
            guard let (reply, seconds, cpuSeconds) = control.timedCall(line, on: daemon) else { return }
            guard k >= 2 else { continue }
            if scoped {
                with.append(seconds)
                cpu.with.append(cpuSeconds)
                replyBytes = reply.count + 1
                let text = String(decoding: reply, as: UTF8.self)
                listed = text.split(separator: #""i":"#, omittingEmptySubsequences: false).count - 1
                if let item, !text.contains(#"{"i":\#(item),"#) { listsItem = false }
            } else {
                without.append(seconds)
                cpu.without.append(cpuSeconds)
            }
        }
        let a = WireBenchmark.median(with)
        let b = WireBenchmark.median(without)
        // What the reply must list: the changed item when the viewport shows it, else no item frame at all.
        let listing: String
        if let item {
            listing = listsItem ? "item \(item) among them" : "not met: not item \(item)"
        } else {
            listing = listed == 0 ? "none, as it must" : "not met: none expected"
        }
        let goal = replyBytes <= 4096 && a / b <= 1.3
        table.add(
            "update item \(middle) of \(sizes.items), diff scoped to a 1,000-point viewport \(name) vs \"diff\": false",
            "\(replyBytes) bytes (\(listed) item frames: \(listing)), \(Format.seconds(a)) vs \(Format.seconds(b)); "
                + "daemon CPU \(Format.seconds(WireBenchmark.median(cpu.with))) vs "
                + "\(Format.seconds(WireBenchmark.median(cpu.without)))",
            "\(Format.ratio(a / b)) of without", "≤ 4 KB and ≤ 1.3×: \(goal ? "met" : "not met")")
    }

    /// `sizes.changes` height changes in the middle of a `streamItems` layout, read by `sizes.subscribers`
    /// subscribers (each with its own viewport when `scoped`): events per second delivered, daemon CPU per change.
    private static func stream(_ daemon: DaemonProcess, _ sizes: Sizes, scoped: Bool, _ table: inout Table) {
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
            "events delivered at \(Format.rate(events / seconds))",
            "daemon CPU \(Format.seconds(cpu / Double(changes))) per change")
    }
}
