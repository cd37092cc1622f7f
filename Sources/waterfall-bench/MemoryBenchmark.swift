import WaterfallTestSupport

/// The daemon's resident memory per item after loading large layouts over the socket.
///
/// Each load runs in a fresh daemon, so that the baseline (its RSS after one ping) is not inflated by earlier
/// scenarios and memory the allocator kept from them cannot be reused to flatter the figure.
enum MemoryBenchmark {
    static func run(loads: [(sections: Int, items: Int)], table: inout Table, ratios: inout RatioTable) {
        for load in loads {
            guard let daemon = DaemonProcess.bench(), let control = BenchClient(path: daemon.socketPath) else {
                table.add("memory", "the daemon did not start")
                return
            }
            defer { daemon.stop() }
            let base = daemon.residentBytes
            let total = load.sections * load.items
            let lines = requests(sections: load.sections, items: load.items)
            let created = control.expectResult(
                #"{"id":1,"method":"layout.create","params":{"layout":"m","width":1000,"defaults":{"columns":3},"#
                    + (load.sections == 1 ? #""sections":[{}],"# : "") + #""diff":false}}"#)
            let start = nanoseconds()
            guard created, EndToEndBenchmark.pipelined(daemon, [.init(lines: lines, perChunk: 10)]) != nil else {
                table.add("memory, \(total) items", "the load failed")
                continue
            }
            let seconds = Double(nanoseconds() - start) / 1e9
            let after = daemon.residentBytes
            let perItem = Double(after - base) / Double(total)
            table.add(
                "memory, \(total) items in \(load.sections) section\(load.sections == 1 ? "" : "s")",
                "\((perItem * 10).rounded() / 10) bytes per item (RSS \(after >> 20) MB, baseline \(base >> 20) MB)",
                "loaded at \(Format.rate(Double(total) / seconds)) items",
                "≤ 48 B/item: \(perItem <= 48 ? "met" : "not met")")
            ratios.add(
                "memory per item at \(total) items (\(load.sections) section\(load.sections == 1 ? "" : "s"))",
                daemon: "\((perItem * 10).rounded() / 10) B", peer: "—", ratio: "—",
                goal: "≤ 48 B: \(perItem <= 48 ? "met" : "not met")")
        }
    }

    /// Requests of at most 10,000 items each: `items.insert` into one section, or `sections.insert` of whole
    /// sections.
    private static func requests(sections: Int, items: Int) -> [String] {
        if sections == 1 {
            let per = min(10_000, items)
            let chunk = BenchLayouts.heights(per).map { "{\"h\":\(Int($0))}" }.joined(separator: ",")
            return (0..<(items / per)).map { k in
                #"{"id":\#(k),"method":"items.insert","params":{"layout":"m","section":0,"at":\#(k * per),"#
                    + #""items":[\#(chunk)],"diff":false}}"#
            }
        }
        let perRequest = max(1, 10_000 / items)
        let section =
            "{\"items\":[" + BenchLayouts.heights(items).map { "{\"h\":\(Int($0))}" }.joined(separator: ",")
            + "]}"
        let group = Array(repeating: section, count: perRequest).joined(separator: ",")
        return stride(from: 0, to: sections, by: perRequest).map { at in
            #"{"id":\#(at),"method":"sections.insert","params":{"layout":"m","at":\#(at),"#
                + #""sections":[\#(group)],"diff":false}}"#
        }
    }
}
