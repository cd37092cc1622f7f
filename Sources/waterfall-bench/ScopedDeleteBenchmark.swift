import Foundation
import WaterfallTestSupport

/// Scoped diffs of large deletes, through the real daemon: a change with a viewport must cost what it moved plus
/// what the viewport lists, whatever the viewport's size. A viewport that covers the whole layout lists every item
/// that moved, so its reply is the same size as the diff without a viewport, and should take about as long: the
/// delete of the first items of a long section, and a batch of one-item deletes, each against the same without a
/// viewport, and a spread delete with an anchor, on a layout made afresh before every request.
enum ScopedDeleteBenchmark {
    struct Sizes {
        /// The section of the large delete, and how many of its first items it deletes.
        var items: Int
        var deleted: Int
        /// The section of the batch, and its one-item deletes.
        var batchItems: Int
        var batchDeletes: Int
        /// Items deleted from the large section one in every `items / spreadDeletes`, with an anchor below them.
        var spreadDeletes: Int
        /// Requests timed with a viewport, and as many without.
        var runs: Int
    }

    static func run(_ sizes: Sizes, table: inout Table, ratios: inout RatioTable) {
        guard let (daemon, control) = DaemonProcess.ephemeral(for: "scopeddelete", &table) else { return }
        defer { daemon.stop() }
        let deleted = (0..<sizes.deleted).map(String.init).joined(separator: ",")
        compare(
            daemon, control, items: sizes.items, runs: sizes.runs,
            "items.delete of items 0…\(sizes.deleted - 1) of a \(sizes.items)-item section",
            params: #""section":0,"items":[\#(deleted)]"#, method: "items.delete", &table, &ratios)
        // Every other item from the top, each index as it is after the deletes before it.
        let ops = (0..<sizes.batchDeletes).map { k in
            #"{"method":"items.delete","params":{"section":0,"items":[\#(k)]}}"#
        }
        compare(
            daemon, control, items: sizes.batchItems, runs: sizes.runs,
            "batch of \(sizes.batchDeletes) one-item items.delete over \(sizes.batchItems) items",
            params: #""ops":[\#(ops.joined(separator: ","))]"#, method: "batch", &table, &ratios)
        let step = sizes.items / sizes.spreadDeletes
        let spread = (0..<sizes.spreadDeletes).map { String($0 * step) }.joined(separator: ",")
        compare(
            daemon, control, items: sizes.items, runs: sizes.runs,
            "items.delete of \(sizes.spreadDeletes) items (one in \(step)) of \(sizes.items) with an anchor",
            params: #""section":0,"items":[\#(spread)],"anchor":{"section":0,"i":\#(sizes.items / 2 + 1)}"#,
            method: "items.delete", &table, &ratios)
    }

    // MARK: Private

    /// Times `method` with `params` on a fresh layout of `items` items in three columns, alternately with a
    /// viewport that covers the whole layout and without one, and adds the row of the ratio.
    private static func compare(
        _ daemon: DaemonProcess, _ control: BenchClient, items: Int, runs: Int, _ name: String, params: String,
        method: String, _ table: inout Table, _ ratios: inout RatioTable
    ) {
        let heights = (0..<items).map { "{\"h\":\(20 + ($0 * 37) % 380)}" }.joined(separator: ",")
        let create =
            #"{"id":0,"method":"layout.create","params":{"layout":"deletes","width":1000,"replace":true,"#
            + #""defaults":{"columns":3},"sections":[{"items":[\#(heights)]}],"diff":false}}"#
        // Taller than the layout (the items' heights over three columns), so that it covers it before and after.
        let covering = Double(items) * 400
        var times = (with: [Double](), without: [Double]())
        var cpu = (with: [Double](), without: [Double]())
        var bytes = (with: 0, without: 0)
        for k in 0..<(2 * runs) {
            let scoped = k % 2 == 0
            guard control.expectResult(create) else { return }
            let viewport = scoped ? #","viewport":{"y":0,"h":\#(covering)}"# : ""
            let line = Array(
                #"{"id":\#(k + 1),"method":"\#(method)","params":{"layout":"deletes",\#(params)\#(viewport)}}"#.utf8)
            guard let (reply, seconds, cpuSeconds) = control.timedCall(line, on: daemon) else { return }
            guard String(decoding: reply.prefix(64), as: UTF8.self).contains("\"result\"") else {
                table.add(name, "refused: \(String(decoding: reply.prefix(200), as: UTF8.self))")
                return
            }
            if scoped {
                times.with.append(seconds)
                cpu.with.append(cpuSeconds)
                bytes.with = reply.count + 1
            } else {
                times.without.append(seconds)
                cpu.without.append(cpuSeconds)
                bytes.without = reply.count + 1
            }
        }
        let a = WireBenchmark.median(times.with)
        let b = WireBenchmark.median(times.without)
        let measure = "\(name), diff scoped to a viewport that covers the layout vs no viewport"
        table.add(
            measure,
            "replies of \(bytes.with) vs \(bytes.without) bytes, \(Format.seconds(a)) vs "
                + "\(Format.seconds(b)); daemon CPU \(Format.seconds(WireBenchmark.median(cpu.with))) vs "
                + "\(Format.seconds(WireBenchmark.median(cpu.without)))",
            "\(Format.ratio(a / b)) of without", "≤ 1.5×: \(a / b <= 1.5 ? "met" : "not met")")
        ratios.add(
            measure, daemon: "\(Format.seconds(a)), daemon CPU \(Format.seconds(WireBenchmark.median(cpu.with)))",
            peer: "\(Format.seconds(b)), daemon CPU \(Format.seconds(WireBenchmark.median(cpu.without)))",
            ratio: a / b, atMost: 1.5)
    }
}
