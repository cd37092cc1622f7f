@_spi(Package) import WaterfallJSON
import WaterfallTestSupport

/// The wire at the engine's speed, through the real daemon: bulk loads of real-valued and integer
/// heights, a mid-list update of a million items with and without its diff, and the reply to a change at the top of
/// a thousand sections.
enum WireBenchmark {
    struct Sizes {
        /// Items of the bulk loads and of the mid-list update's layout.
        var items: Int
        /// Items per `items.insert` of the bulk loads.
        var perInsert: Int
        var sections: Int
        var sectionItems: Int
        /// Updates timed, with and without the diff each.
        var updates: Int
        var runs: Int
    }

    static func run(_ sizes: Sizes, table: inout Table) {
        guard let (daemon, control) = DaemonProcess.ephemeral(for: "wire", &table) else { return }
        defer { daemon.stop() }
        // Uniform doubles in [20, 400) from mulberry32(42), written as JavaScript's JSON.stringify writes them (the
        // shortest text that reads back, 17 significant digits for most), and the same rounded to integers.
        let (real, integral) = BulkFeed(count: sizes.items).itemTexts
        let inserts = sizes.items / sizes.perInsert
        for (name, texts, target) in [("real-valued", real, 15e6), ("integer", integral, 20e6)] {
            let pipeline = EndToEndBenchmark.Pipeline(lines: BulkFeed.insertLines(texts, sizes.perInsert), perChunk: 1)
            let round = EndToEndBenchmark.bulkLoad(daemon, pipeline, runs: sizes.runs)
            let rate = Double(sizes.items) / round.seconds
            table.add(
                "bulk load, \(inserts) items.insert of \(sizes.perInsert) \(name) heights (diff off), --ephemeral",
                "\(Format.rate(rate)) items, \(pipeline.bytes.count / sizes.items) bytes per item",
                "daemon CPU \(Format.seconds(round.cpu / Double(sizes.items))) per item",
                "≥ \(Format.rate(target)): \(rate >= target ? "met" : "not met")")
        }
        midListUpdate(daemon, control, lines: BulkFeed.insertLines(real, sizes.perInsert), sizes, &table)
        topOfManySections(control, sizes, &table)
    }

    static func median(_ values: [Double]) -> Double {
        values.isEmpty ? .infinity : values.sorted()[values.count / 2]
    }

    // MARK: Private

    /// Updates the middle item of a million real-valued heights, one request at a time, with its full diff and
    /// with `"diff": false` in turn, so that the host's drift falls on both sides of the ratio.
    private static func midListUpdate(
        _ daemon: DaemonProcess, _ control: BenchClient, lines: [String], _ sizes: Sizes, _ table: inout Table
    ) {
        control.load(lines)
        let middle = sizes.items / 2
        var withDiff: [Double] = []
        var without: [Double] = []
        var cpu = (with: [Double](), without: [Double]())
        var replyBytes = 0
        for k in 0..<(2 * sizes.updates + 2) {
            let diff = k % 2 == 0
            // Each request changes the height the one before set (333.3 with the diff, 111.1 without): a request
            // that set the height already there would cost no placement at all.
            let line = Array(
                (#"{"id":\#(k),"method":"items.update","params":{"layout":"bulk","section":0,"#
                    + #""items":[{"i":\#(middle),"h":\#(diff ? 333.3 : 111.1)}]\#(diff ? "" : #","diff":false"#)}}"#)
                    .utf8)
            guard let (reply, seconds, cpuSeconds) = control.timedCall(line, on: daemon) else { return }
            // The first pair warms up.
            guard k >= 2 else { continue }
            if diff {
                withDiff.append(seconds)
                cpu.with.append(cpuSeconds)
                replyBytes = reply.count
            } else {
                without.append(seconds)
                cpu.without.append(cpuSeconds)
            }
        }
        let a = median(withDiff)
        let b = median(without)
        table.add(
            "update item \(middle) of \(sizes.items) real-valued heights, with its diff vs \"diff\": false",
            "\(Format.seconds(a)) with (\(replyBytes / 1_000_000) MB, \(Format.rate(Double(replyBytes) / a))B), "
                + "\(Format.seconds(b)) without; daemon CPU \(Format.seconds(median(cpu.with))) vs "
                + "\(Format.seconds(median(cpu.without)))",
            "\(Format.ratio(a / b)) of without", "≤ 3×: \(a / b <= 3 ? "met" : "not met")")
    }

    /// One height in section 0 of `sections` sections of `sectionItems` items: the reply's bytes.
    private static func topOfManySections(_ control: BenchClient, _ sizes: Sizes, _ table: inout Table) {
        let heights = BenchLayouts.heights(sizes.sectionItems).map { "{\"h\":\(Int($0))}" }.joined(separator: ",")
        let section = #"{"items":[\#(heights)]}"#
        let sections = Array(repeating: section, count: sizes.sections).joined(separator: ",")
        control.expectResult(
            #"{"id":1,"method":"layout.create","params":{"layout":"many","width":1000,"#
                + #""defaults":{"columns":3,"columnSpacing":4,"rowSpacing":4},"sections":[\#(sections)],"diff":false}}"#
        )
        let line =
            #"{"id":2,"method":"items.update","params":{"layout":"many","section":0,"#
            + #""items":[{"i":\#(sizes.sectionItems / 2),"h":333}]}}"#
        guard let reply = control.call(Array(line.utf8)) else { return }
        let text = String(decoding: reply, as: UTF8.self)
        let listed = text.split(separator: #""i":"#, omittingEmptySubsequences: false).count - 1
        table.add(
            "reply to one height in section 0 of \(sizes.sections) × \(sizes.sectionItems), via waterfalld",
            "\(reply.count + 1) bytes",
            "\(listed) item frames, \(text.contains("\"shifts\"") ? "a shift" : "no shift")",
            "≤ 40,000 bytes: \(reply.count + 1 <= 40_000 ? "met" : "not met")")
    }
}
