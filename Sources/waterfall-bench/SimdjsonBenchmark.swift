import Foundation
import WaterfallTestSupport

/// Bulk loads against the parsing limit: the daemon loading a million heights (100 `items.insert` of
/// 10,000, diff off, `--ephemeral`) against simdjson's on-demand parser reading and converting every number of the
/// same requests (`simdjson-sum`, best of 5), real-valued and integer heights, in the same run; with the daemon's
/// CPU time and page faults per item (fresh memory can be a large part of a load's cost), and the share of
/// its threads' ready time spent waiting for a CPU (the host's other work, which the ratio then mostly measures); and
/// the same lines sent to a layout that does not exist, the connection's stage alone (reading, parsing, decoding,
/// and an error reply), no goal of its own.
enum SimdjsonBenchmark {
    static func run(
        items: Int, perInsert: Int, runs: Int, peers: PeerPrograms, table: inout Table, ratios: inout RatioTable
    ) {
        guard let sum = peers.simdjsonSum else {
            table.add("simdjson", "skipped: \(peers.missing.joined(separator: "; "))")
            return
        }
        guard let daemon = DaemonProcess.bench(arguments: ["--ephemeral"]) else {
            table.add("simdjson", "the daemon did not start")
            return
        }
        defer { daemon.stop() }
        let (real, integral) = BulkFeed(count: items).itemTexts
        let inserts = items / perInsert
        for (name, texts, goal) in [("real-valued", real, 0.6), ("integer", integral, 0.5)] {
            let lines = BulkFeed.insertLines(texts, perInsert)
            // The file simdjson-sum reads: its first line (skipped) creates the layout, as a load would.
            let file = peers.directory + "/bulk-\(name).ndjson"
            let create =
                #"{"id":0,"method":"layout.create","params":{"layout":"bulk","width":1000,"defaults":{"columns":3},"#
                + #""sections":[{}],"diff":false}}"#
            guard
                FileManager.default.createFile(
                    atPath: file, contents: Data(([create] + lines).joined(separator: "\n").utf8 + [0x0A]))
            else {
                table.add("simdjson, \(name)", "cannot write \(file)")
                continue
            }
            // simdjson before and after the daemon's rounds, the better kept: a burst of load on the shared host
            // then falls on the daemon's side only if it lasts.
            let before = parse(sum, file, peers)
            let round = EndToEndBenchmark.bulkLoad(
                daemon, EndToEndBenchmark.Pipeline(lines: lines, perChunk: 1), runs: runs)
            let after = parse(sum, file, peers)
            guard let peer = [before, after].compactMap({ $0 }).max() else {
                table.add("simdjson, \(name)", "simdjson-sum failed")
                continue
            }
            let rate = Double(items) / round.seconds
            let perItem =
                "\(Format.seconds(round.cpu / Double(items))) CPU and \(round.faults * 1_000 / items) page faults per "
                + "1000 items, \(Int((100 * round.runQueueShare).rounded())) % of its ready time waiting for a CPU"
            table.add(
                "bulk load of \(items) \(name) heights (\(inserts) items.insert of \(perInsert)) vs simdjson-sum",
                "\(Format.rate(rate)) vs \(Format.rate(peer)) items", "daemon \(perItem)")
            ratios.add(
                "bulk load of \(items) \(name) heights (\(inserts) items.insert of \(perInsert)) / simdjson-sum",
                daemon: "\(Format.rate(rate)) items, \(perItem)",
                peer: "\(Format.rate(peer)) items (best of 5)", ratio: rate / peer, atLeast: goal)
            // The connection's stage alone: read, parsed and decoded before their `not_found` reply, nothing placed.
            let absent = lines.map { $0.replacingOccurrences(of: #""layout":"bulk""#, with: #""layout":"absent""#) }
            let stage = EndToEndBenchmark.measure(
                daemon, [EndToEndBenchmark.Pipeline(lines: absent, perChunk: 1)], runs: runs, expectingErrors: true)
            let stageRate = Double(items) / stage.seconds
            ratios.add(
                "the same lines to a layout that does not exist (reading, parsing, decoding only) / simdjson-sum",
                daemon: "\(Format.rate(stageRate)) items, \(Format.seconds(stage.cpu / Double(items))) CPU per item",
                peer: "\(Format.rate(peer)) items", ratio: Format.ratio(stageRate / peer),
                goal: "none: the connection's stage alone")
        }
    }

    /// simdjson-sum's items per second on `file`.
    private static func parse(_ sum: String, _ file: String, _ peers: PeerPrograms) -> Double? {
        guard let result = peers.run(sum, [file]), result.status == 0,
            let millions = PeerPrograms.number(before: "M items/s", in: result.output)
        else { return nil }
        return millions * 1e6
    }
}
