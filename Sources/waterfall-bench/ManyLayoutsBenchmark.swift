import Foundation
import Glibc
import WaterfallServer
import WaterfallTestSupport

/// Many durable layouts on a stock host: the built daemon under a soft and hard limit of 128 descriptors takes
/// `layouts` layouts of two items, then one-item updates to 16 layouts in turn (their journals stay open) and one to
/// each layout in turn (each journal closed to make room, and opened again); then kill -9 and a restart under the
/// same limit. Reports the descriptors held, the disk the state takes, the time to create the layouts, what a change
/// that reopens a journal costs against one whose journal is open, and the time to recover.
enum ManyLayoutsBenchmark {
    static let fileLimit = 128

    static func run(layouts: Int, table: inout Table) {
        for policy in ["everysec", "always"] { run(layouts: layouts, policy: policy, table: &table) }
    }

    // MARK: Private

    private static func run(layouts: Int, policy: String, table: inout Table) {
        let name = "layouts (\(layouts), fsync \(policy), ulimit -n \(fileLimit))"
        var template = Array("/tmp/waterfall-bench-layouts-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            table.add(name, "no temporary directory")
            return
        }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = directory + "/c.json"
        guard (try? #"{"fsync":"\#(policy)"}"#.write(toFile: config, atomically: true, encoding: .utf8)) != nil,
            let daemon = DaemonProcess.bench(arguments: ["--config", config], in: directory, fileLimit: fileLimit),
            let client = BenchClient(path: daemon.socketPath)
        else {
            table.add(name, "the daemon did not start")
            return
        }
        let creates = (0..<layouts).map { k in
            #"{"id":\#(k),"method":"layout.create","params":{"layout":"m\#(k)","width":300,"diff":false,"#
                + #""defaults":{"columns":2},"sections":[{"items":[{"h":10},{"h":20}]}]}}"#
        }
        let update = { (layout: Int, k: Int) in
            #"{"id":\#(k),"method":"items.update","params":{"layout":"m\#(layout)","section":0,"diff":false,"#
                + #""items":[{"i":0,"h":\#(11 + k % 7)}]}}"#
        }
        let createSeconds = pipeline(client, creates, depth: 256)
        // Each change to another layout, 16 in flight (so a read's changes never share a layout's commit): over
        // 16 layouts their journals stay open; over all of them each journal is closed to make room before
        // its layout comes round again.
        let open = pipeline(client, (0..<layouts).map { update($0 % 16, $0) }, depth: 16)
        let reopening = pipeline(client, (0..<layouts).map { update($0, $0) }, depth: 16)
        let stats = client.call(Array(#"{"id":"s","method":"stats"}"#.utf8)).map { String(decoding: $0, as: UTF8.self) }
        let errors = stats.flatMap { member("errors", in: $0) } ?? -1
        let reopens = stats.flatMap { member("journalReopens", in: $0) } ?? -1
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd").count) ?? -1
        daemon.kill9()
        let disk = StateDirectory.diskUsage(of: directory + "/state")
        table.add(
            "\(name): create, descriptors held, state on disk",
            "\(Format.seconds(createSeconds)) (\(Format.rate(Double(layouts) / createSeconds)))",
            "\(descriptors) descriptors, \(disk / 1024) KiB (\(disk / layouts) B/layout)",
            errors == 0 ? "" : "\(errors) ERRORS")
        table.add(
            "\(name): a change reopening a closed journal, against one to a journal still open (16 in flight)",
            "\(Format.seconds(reopening / Double(layouts))) against \(Format.seconds(open / Double(layouts)))",
            Format.ratio(reopening / open), "\(reopens) reopens")
        guard
            let restarted = DaemonProcess.bench(
                arguments: ["--config", config], in: directory, patience: 300, fileLimit: fileLimit)
        else {
            table.add("\(name): recovery after kill -9", "the daemon did not come back")
            return
        }
        defer { restarted.stop() }
        let list = BenchClient(path: restarted.socketPath)?.call(Array(#"{"id":"l","method":"layout.list"}"#.utf8))
        let back = list.map { String(decoding: $0, as: UTF8.self).components(separatedBy: #""seq":"#).count - 1 } ?? 0
        table.add(
            "\(name): recovery after kill -9, spawn → listening", Format.seconds(restarted.secondsToListening ?? 0),
            "\(back) of \(layouts) layouts back")
    }

    /// Sends `lines` `depth` at a time, each chunk's replies read before the next; the seconds it took.
    private static func pipeline(_ client: BenchClient, _ lines: [String], depth: Int) -> Double {
        let start = nanoseconds()
        for chunk in stride(from: 0, to: lines.count, by: depth) {
            let part = lines[chunk..<min(chunk + depth, lines.count)]
            guard client.write(Array((part.joined(separator: "\n") + "\n").utf8)),
                client.readLines(part.count) != nil
            else { break }
        }
        return Double(nanoseconds() - start) / 1e9
    }

    /// The integer after `"key":` in `text`.
    private static func member(_ key: String, in text: String) -> Int? {
        guard let range = text.range(of: "\"\(key)\":") else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }
}
