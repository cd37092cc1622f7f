@_spi(Package) import WaterfallJSON
import WaterfallLayout

extension EndToEndBenchmark {
    /// The share of a request's time that the daemon spends on JSON.
    ///
    /// The daemon cannot be profiled from here, so the JSON work is measured on its own, in this process: the same
    /// request line through the daemon's decoding path (`JSONReader.forRequests`, `Request`, `Params`,
    /// `CommandDecoding`) and a reply of the same shape through `ReplyEncoding` (`JSONBenchmark.decode` /
    /// `encode`). That time is divided by what one request cost in the pipelined run: its wall time (what the
    /// client waits for; the daemon's two cores overlap work, so this share can pass 100 %) and the daemon's CPU
    /// time per request from /proc/<pid>/stat (all its work: JSON, engine, actor hops, syscalls), which is the
    /// truer denominator.
    static func jsonShare(_ update: Round, requests: Int, bulk: Round, bulkRequests: Int, _ table: inout Table) {
        let updateLine = Array(updateLines(layout: "e2e-0", count: 1)[0].utf8)[...]
        let updateJSON = perLine(updateLine, diff: JSONBenchmark.replyDiff)
        let chunk = BenchLayouts.heights(1_000, seed: 9).map { "{\"h\":\(Int($0))}" }.joined(separator: ",")
        let bulkLine = Array(
            (#"{"id":1,"method":"items.insert","params":{"layout":"bulk","section":0,"at":0,"#
                + #""items":[\#(chunk)],"diff":false}}"#).utf8)[...]
        let bulkJSON = perLine(bulkLine, diff: nil)
        func shares(_ json: Double, _ round: Round, _ count: Int) -> String {
            let wall = round.seconds / Double(count)
            let cpu = round.cpu / Double(count)
            return "\(percent(json / cpu)) of daemon CPU, \(percent(json / wall)) of wall time"
        }
        table.add(
            "JSON share, pipelined items.update", "\(Format.seconds(updateJSON)) JSON per request",
            shares(updateJSON, update, requests))
        table.add(
            "JSON share, bulk items.insert of 1000", "\(Format.seconds(bulkJSON)) JSON per request",
            shares(bulkJSON, bulk, bulkRequests))
    }

    /// Decoding `line` and encoding its reply, per line, median of 5 after a warm-up.
    private static func perLine(_ line: ArraySlice<UInt8>, diff: LayoutDiff?) -> Double {
        var reader = JSONReader.forRequests()
        var writer = JSONWriter(capacity: 512)
        var sink = 0
        let lines = max(20, 2_000_000 / line.count)
        let time = Measure.median(runs: 5) {
            for _ in 0..<lines {
                sink &+= JSONBenchmark.decode(line, &reader)
                writer.reset()
                JSONBenchmark.encode(diff, &writer)
            }
        }
        if sink == 42 { print(sink) }
        return time / Double(lines)
    }

    private static func percent(_ share: Double) -> String { "\(Int((share * 100).rounded())) %" }
}
