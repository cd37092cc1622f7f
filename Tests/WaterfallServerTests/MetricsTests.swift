import Foundation
import Testing
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport
import WaterfallTestSupport

@testable import WaterfallServer

/// `stats` and `metrics` count requests, errors by kind and latency by method, events and the journal; `metrics`
/// is Prometheus' text format, which `promtool check metrics` accepts when it is installed.
@Suite(.tags(.server, .process, .tool)) struct MetricsTests {
    @Test func requestsErrorsEventsAndTheJournalAreCounted() async throws {
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        let watcher = try fixture.connect()
        try await client.result("layout.create", ["layout": "feed", "width": 100, "sections": [["items": [["h": 1]]]]])
        try await watcher.result("subscribe", ["layout": "feed"])
        for k in 0..<5 {
            try await client.result(
                "items.update", ["layout": "feed", "section": 0, "items": [["i": 0, "h": .int(Int64(k))]]])
        }
        _ = try await client.error("items.update", ["layout": "feed", "section": 0, "items": [["i": 9, "h": 1]]])
        _ = try await client.error("items.update", ["layout": "feed", "section": -1, "items": [["i": 0, "h": 1]]])
        _ = try await client.error("nope")

        let stats = try await client.result("stats")
        let update = stats["methods"]?["items.update"]
        #expect(update?["requests"] == 7)
        #expect(update?["errors"]?["not_found"] == 1 && update?["errors"]?["bad_params"] == 1)
        #expect(stats["methods"]?["unknown"]?["errors"]?["unknown_method"] == 1)
        #expect(stats["events"]?["sent"] == 5)
        guard case .int(let journal)? = stats["storage"]?["journalBytes"] else {
            Issue.record("no storage counters: \(stats)")
            return
        }
        #expect(journal > 0)

        let metrics = try await client.result("metrics")
        #expect(metrics["contentType"] == "text/plain; version=0.0.4")
        guard case .string(let text)? = metrics["text"] else {
            Issue.record("no text: \(metrics)")
            return
        }
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"waterfalld_requests_total{method="items.update"} 7"#))
        #expect(lines.contains(#"waterfalld_errors_total{method="items.update",kind="not_found"} 1"#))
        #expect(lines.contains(#"waterfalld_request_duration_seconds_count{method="items.update"} 7"#))
        #expect(lines.contains(#"waterfalld_request_duration_seconds_bucket{method="items.update",le="+Inf"} 7"#))
        #expect(lines.contains(#"waterfalld_layout_seq{layout="feed"} 6"#))
        #expect(lines.contains("waterfalld_events_sent_total 5"))
        #expect(lines.contains("# TYPE waterfalld_request_duration_seconds histogram"))
        // Buckets are cumulative, in order.
        let counts = lines.filter { $0.hasPrefix(#"waterfalld_request_duration_seconds_bucket{method="items.update""#) }
            .compactMap { Int($0.split(separator: " ").last ?? "") }
        #expect(counts.count == 13 && counts == counts.sorted() && counts.last == 7)
        if let promtool = ChildProcess.which("promtool") { try Self.check(text, with: promtool) }
        await fixture.stop()
    }

    /// Runs `promtool check metrics` on `text`, which reads it from standard input.
    static func check(_ text: String, with promtool: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: promtool)
        process.arguments = ["check", "metrics"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "promtool check metrics: \(said)")
    }
}
