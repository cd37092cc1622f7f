import Foundation
import Glibc
import WaterfallTestSupport

/// Recovery after kill -9 through the daemon: a layout of `items` plain heights in `sections` sections
/// built over the socket, then single-item updates that stay in the journal (fewer bytes than a snapshot waits
/// for), kill -9, and restarts on the same directory: the time from the spawn to the first answered `ping` and to
/// the first answered `layout.get` of a section, the bytes on disk per item, and whether the restarted daemon
/// answers that `layout.get` exactly as the killed one did.
///
/// Integer heights leave it all in the journal (an insert's record is smaller than three bytes an item, so no
/// snapshot is due); real heights (16–17 digits) make the journal outgrow the snapshot, so the state is a
/// snapshot and the journal after it.
enum RecoveryBenchmark {
    static func run(items: Int, sections: Int, updates: Int, restarts: Int, table: inout Table) {
        for real in [false, true] {
            run(items: items, sections: sections, updates: updates, restarts: restarts, real: real, table: &table)
        }
    }

    // MARK: Private

    private static func run(
        items: Int, sections: Int, updates: Int, restarts: Int, real: Bool, table: inout Table
    ) {
        let kind = real ? "real heights" : "integer heights"
        var template = Array("/tmp/waterfall-bench-recovery-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            table.add("recovery", "no temporary directory")
            return
        }
        let directory = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let perSection = items / sections
        var random = SplitMix64(seed: 7)
        let heights =
            real
            ? (0..<perSection).map { _ in "{\"h\":\(Double.random(in: 50..<400, using: &random))}" }
            : BenchLayouts.heights(perSection).map { "{\"h\":\(Int($0))}" }
        guard
            let before = build(
                in: directory, heights: heights, sections: sections, updates: updates, kind: kind, &table)
        else {
            return
        }
        let state = onDisk(directory + "/state")
        table.add(
            "recovery, state on disk for \(items) items in \(sections) sections (\(kind))",
            "\(round(Double(state.total) / Double(items) * 100) / 100) bytes/item",
            "snapshots \(state.snapshots) B, journals \(state.journals) B (\(updates) updates after the build)",
            "≤ 20 bytes/item: \(Double(state.total) / Double(items) <= 20 ? "met" : "not met")")
        for run in 1...restarts {
            guard let daemon = DaemonProcess.bench(in: directory, patience: 60) else {
                table.add("recovery (\(kind)), restart \(run)", "the daemon did not come back")
                return
            }
            let get = BenchClient(path: daemon.socketPath)?.call(Array(getLine(sections).utf8))
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - daemon.spawnedAt) / 1e9
            let listening = daemon.secondsToListening ?? seconds
            let same = get.map { String(decoding: $0, as: UTF8.self) } == before
            daemon.kill9()
            table.add(
                "recovery after kill -9 (\(kind)), run \(run) of \(restarts): spawn → listening, → first layout.get",
                "\(Format.seconds(listening)), \(Format.seconds(seconds))",
                same ? "same seq and frames" : "DIFFERENT from before the kill",
                "≤ 2 s: \(seconds <= 2 ? "met" : "not met")")
        }
    }

    /// Builds the state through a daemon in `directory` and kills it with SIGKILL once every change is
    /// acknowledged; the reply to `getLine` before the kill, or nil (with a row saying why).
    private static func build(
        in directory: String, heights: [String], sections: Int, updates: Int, kind: String, _ table: inout Table
    ) -> String? {
        guard let daemon = DaemonProcess.bench(in: directory), let setup = BenchClient(path: daemon.socketPath) else {
            table.add("recovery (\(kind))", "the daemon did not start")
            return nil
        }
        let empty = Array(repeating: #"{"items":[]}"#, count: sections).joined(separator: ",")
        guard
            setup.expectResult(
                #"{"id":1,"method":"layout.create","params":{"layout":"big","width":1000,"#
                    + #""defaults":{"columns":3,"columnSpacing":4,"rowSpacing":4},"sections":[\#(empty)],"#
                    + #""diff":false}}"#)
        else {
            daemon.kill9()
            return nil
        }
        let perSection = heights.count
        let items = heights.joined(separator: ",")
        let inserts = (0..<sections).map { s in
            #"{"id":\#(s),"method":"items.insert","params":{"layout":"big","section":\#(s),"at":0,"#
                + #""items":[\#(items)],"diff":false}}"#
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let loaded = EndToEndBenchmark.pipelined(daemon, [.init(lines: inserts, perChunk: 4)])
        let loadSeconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        // Changes after the last snapshot: single-item updates spread over the sections, far fewer journal bytes
        // than a snapshot waits for.
        let changes = (0..<updates).map { k in
            #"{"id":\#(k),"method":"items.update","params":{"layout":"big","section":\#(k % sections),"#
                + #""items":[{"i":\#((k * 7) % perSection),"h":\#(50 + k % 300)}],"diff":false}}"#
        }
        let changed = EndToEndBenchmark.pipelined(daemon, [.init(lines: changes, perChunk: 500)])
        let reply = setup.call(Array(getLine(sections).utf8)).map { String(decoding: $0, as: UTF8.self) }
        daemon.kill9()
        guard loaded != nil, changed != nil, let reply, reply.contains("\"seq\":\(1 + sections + updates),") else {
            table.add(
                "recovery (\(kind))", "building the state failed: \(reply?.prefix(200) ?? "no reply")",
                "daemon's stderr: \(daemon.standardError.suffix(300))")
            return nil
        }
        table.add(
            "recovery, the state built through the daemon (\(kind))",
            "\(sections) items.insert of \(perSection) in \(Format.seconds(loadSeconds))",
            "then \(updates) items.update, then kill -9")
        return reply
    }

    /// The request timed after a restart: the last section's frames (and the layout's seq and content size).
    private static func getLine(_ sections: Int) -> String {
        #"{"id":2,"method":"layout.get","params":{"layout":"big","sections":[\#(sections - 1)]}}"#
    }

    /// The bytes of the state directory's snapshots (`.wfs`), journal segments (`.wfj`) and everything.
    private static func onDisk(_ path: String) -> (snapshots: Int, journals: Int, total: Int) {
        var sizes = (snapshots: 0, journals: 0, total: 0)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
            var info = stat()
            guard stat(path + "/" + name, &info) == 0 else { continue }
            let size = Int(info.st_size)
            sizes.total += size
            if name.hasSuffix(".wfs") { sizes.snapshots += size }
            if name.hasSuffix(".wfj") { sizes.journals += size }
        }
        return sizes
    }
}
