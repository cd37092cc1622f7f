import Foundation
import WaterfallTestSupport

/// `layout.css` through the daemon: the first 100 items and all of a feed of aspect-sized photos with adaptive
/// columns (`minColumnWidth` 180, `maxColumns` 8, spacing 8) over container widths 320–1920 px: the round trip,
/// the pieces, and the stylesheet's bytes, raw and gzipped (by `gzip -c`: Foundation has no zlib on Linux).
enum StylesheetBenchmark {
    static func run(feedItems: Int, runs: Int, table: inout Table) {
        guard let daemon = DaemonProcess.bench(arguments: ["--ephemeral"]),
            let client = BenchClient(path: daemon.socketPath)
        else {
            table.add("layout.css", "the daemon did not start")
            return
        }
        defer { daemon.stop() }
        var random = SplitMix64(seed: 18)
        // Photos of real-valued aspect ratios between 2:3 and 16:9, as a feed of images has them.
        let items = (0..<feedItems).map { _ in
            let w = Double.random(in: 100...178, using: &random)
            let h = Double.random(in: 100...150, using: &random)
            return "{\"w\":\(w),\"h\":\(h)}"
        }
        client.expectResult(
            #"{"id":1,"method":"layout.create","params":{"layout":"css","width":1000,"diff":false,"#
                + #""defaults":{"minColumnWidth":180,"maxColumns":8,"columnSpacing":8,"rowSpacing":8},"sections":[{"items":[\#(items.joined(separator: ","))]}]}}"#
        )
        for (first, budget) in [(100, 0.005), (feedItems, 0.1)] {
            measure(client, items: first, of: feedItems, budget: budget, runs: first == 100 ? runs : 3, table: &table)
        }
    }

    /// One `layout.css` of the first `items` photos: its time per call against `budget` seconds, and its size.
    static func measure(
        _ client: BenchClient, items: Int, of feedItems: Int, budget: Double, runs: Int, table: inout Table
    ) {
        let request = Array(
            #"{"id":2,"method":"layout.css","params":{"layout":"css","minWidth":320,"maxWidth":1920,"items":\#(items)}}"#
                .utf8)
        var reply: [UInt8] = []
        let seconds = Measure.median(runs: runs) { reply = client.call(request) ?? [] }
        guard let object = try? JSONSerialization.jsonObject(with: Data(reply)) as? [String: Any],
            let result = object["result"] as? [String: Any], let css = result["css"] as? String,
            let pieces = result["pieces"] as? Int
        else {
            table.add("layout.css", "no result: \(String(decoding: reply.prefix(300), as: UTF8.self))")
            return
        }
        let raw = css.utf8.count
        let gzipped = gzippedSize(Data(css.utf8))
        let scenario =
            "layout.css, first \(items) of \(feedItems) aspect items, adaptive ≤ 8 columns, spacing 8, 320–1920 px"
        table.add(
            scenario, "\(Format.seconds(seconds)) per call", "",
            "≤ \(Format.seconds(budget)): \(seconds <= budget ? "met" : "not met")")
        table.add(scenario, "\(pieces) pieces, \(raw) bytes, \(gzipped.map(String.init) ?? "?") gzipped")
    }

    /// The size of `data` through `gzip -c` (default level), or nil without a gzip.
    static func gzippedSize(_ data: Data) -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        guard (try? process.run()) != nil else { return nil }
        // Written from another thread: gzip's output fills its pipe before it has read all its input.
        let writer = Thread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? compressed.count : nil
    }
}
