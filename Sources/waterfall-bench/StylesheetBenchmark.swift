import Foundation
import WaterfallTestSupport

/// `layout.css` through the daemon: the first 100 items and all of a feed of aspect-sized photos with adaptive
/// columns (`minColumnWidth` 180, `maxColumns` 8, spacing 8) over container widths 320–1920 px: the round trip,
/// the pieces, and the stylesheet's bytes, raw and gzipped (by `gzip -c`: Foundation has no zlib on Linux). Then
/// the first 100 of the same photos in four fixed columns, equal and with `columnWidths` `[2, 1, 1.5, 1]`: what
/// columns of different widths cost a stylesheet.
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
        let layouts = [
            ("css", #""minColumnWidth":180,"maxColumns":8"#), ("css-equal", #""columns":4"#),
            ("css-weights", #""columns":4,"columnWidths":[2,1,1.5,1]"#),
        ]
        for (name, columns) in layouts {
            client.expectResult(
                #"{"id":1,"method":"layout.create","params":{"layout":"\#(name)","width":1000,"diff":false,"#
                    + #""defaults":{\#(columns),"columnSpacing":8,"rowSpacing":8},"sections":[{"items":[\#(items.joined(separator: ","))]}]}}"#
            )
        }
        let adaptive = "adaptive ≤ 8 columns"
        for (first, budget) in [(100, 0.005), (feedItems, 0.1)] {
            measure(
                client, layout: "css", columns: adaptive, items: first, of: feedItems, budget: budget,
                runs: first == 100 ? runs : 3, table: &table)
        }
        for (name, columns) in [("css-equal", "4 equal columns"), ("css-weights", "4 columns of [2, 1, 1.5, 1]")] {
            measure(
                client, layout: name, columns: columns, items: 100, of: feedItems, budget: 0.005, runs: runs,
                table: &table)
        }
    }

    /// One `layout.css` of the first `items` photos of `layout` (whose columns are `columns`): its time per call
    /// against `budget` seconds, and its size.
    static func measure(
        _ client: BenchClient, layout: String, columns: String, items: Int, of feedItems: Int, budget: Double,
        runs: Int, table: inout Table
    ) {
        let request = Array(
            #"{"id":2,"method":"layout.css","params":{"layout":"\#(layout)","minWidth":320,"maxWidth":1920,"items":\#(items)}}"#
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
            "layout.css, first \(items) of \(feedItems) aspect items, \(columns), spacing 8, 320–1920 px"
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
