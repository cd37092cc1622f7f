import Foundation
import Glibc
import Testing
import WaterfallLayout
import WaterfallStorageFormat
import WaterfallTestSupport

@testable import WaterfallServer

/// Durability through the built daemon, as an operator meets it: signals while a large state is recovered,
/// damage and `--repair`, a full disk, with every figure read back over the socket.
@Suite(.tags(.process)) struct DaemonStorageTests {
    /// SIGHUP while the daemon recovers is ignored (by default it would kill it) and SIGTERM stops it at once with
    /// status 0, before it listens; the state is intact for the next start.
    @Test func signalsDuringALongRecovery() async throws {
        try #require(DaemonProcess.builtDaemon != nil)
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let state = directory + "/state"
        // Half a million items: their recovery takes far longer than the signals need to arrive.
        let section = SectionSpec(items: (0..<10_000).map { Item(height: Double(50 + $0 % 300)) })
        let spec = LayoutSpec(
            width: 1000, defaults: SectionProperties(columns: 3), sections: Array(repeating: section, count: 50))
        let store = DurableStore(directory: try StateDirectory(path: state), options: StoreOptions(policy: .never))
        _ = try await store.recover()
        try await store.commit([.created("big", seq: 1, spec: spec)])
        store.close()

        let socket = directory + "/w.sock"
        let notify = try NotifyListener(path: directory + "/notify.sock")
        let arguments = ["--state-dir", state, "--socket", socket, "--log-level", "info"]
        let process = try DaemonProcess(.init(arguments: arguments, environment: ["NOTIFY_SOCKET": notify.path]))
        // The lock holds the daemon's pid once it has locked the directory, which it does after installing its
        // signal handlers and before recovering.
        let locked = await eventually(within: 10) {
            let holder = StateDirectory.readFile(state + "/lock").map { String(decoding: $0, as: UTF8.self) }
            return holder?.trimmingCharacters(in: .whitespacesAndNewlines) == "\(process.pid)"
        }
        #expect(locked, "the daemon never locked \(state): \(process.standardError)")
        process.signal(SIGHUP)
        try await Task.sleep(for: .milliseconds(20))
        process.signal(SIGTERM)
        let exit = await process.waitForExit(within: 3)
        let log = process.standardError
        #expect(exit?.status == 0, "\(log)")
        #expect(log.contains("received SIGHUP while starting: ignored"), "\(log)")
        #expect(log.contains("received SIGTERM while starting; stopping"), "\(log)")
        #expect(!log.contains("listening"), "recovery ended before the signals: \(log)")
        #expect(access(socket, F_OK) != 0)
        #expect(notify.pending() == nil, "READY=1 before recovery ended")

        // The next start recovers everything, and says READY=1 only then: the layout is there when it does.
        let again = try DaemonProcess(.init(arguments: arguments, environment: ["NOTIFY_SOCKET": notify.path]))
        #expect(try await notify.receive().contains("READY=1"), "\(again.standardError)")
        let client = try TestClient(path: socket)
        try await client.write(#"{"id":1,"method":"layout.export","params":{"layout":"big"}}"# + "\n")
        let reply = try await client.readLines(1).first ?? ""
        #expect(reply.contains(#""seq":1,"#), "\(reply.prefix(200))")
        again.signal(SIGTERM)
        #expect(await again.waitForExit(within: 5)?.status == 0)
    }

    /// A flipped byte in the middle of a journal: the daemon refuses to start (exit 1) naming the file and the
    /// byte offset of the damaged record; `--repair` keeps the records before it, says where the rest went, and
    /// serves the layout those records make, with their seq, frame for frame as a daemon that only ever saw them.
    @Test func repairKeepsTheValidPrefixOfADamagedJournal() async throws {
        try #require(DaemonProcess.builtDaemon != nil)
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let state = directory + "/state"
        let updates = (1..<20).map { k in
            #"{"id":\#(k),"method":"items.update","params":{"layout":"feed","section":0,"#
                + #""items":[{"i":\#(k),"h":\#(200 + k)}],"diff":false}}"#
        }
        let first = try await DaemonProcess.start(.init(arguments: ["--state-dir", state]))
        let writer = try TestClient(path: first.socketPath)
        try await writer.createLayout("feed", items: 50)
        try await writer.write(updates.map { $0 + "\n" }.joined())
        #expect(try await writer.readLines(updates.count).last?.contains(#""seq":20,"#) == true)
        #expect(await first.stop() == .exited(0))

        // Record k (0 is the creation) has seq k + 1: damage record 10, and records 0–9 (seq 10) are the prefix.
        let journal = state + "/L1.0.wfj"
        var bytes = readBytes(journal)
        let scan = bytes.withUnsafeBytes { RecordFile.scan($0) }
        try #require(scan.payloads.count == 20 && scan.problem == nil)
        let damaged = scan.payloads[10]
        bytes[damaged.lowerBound + damaged.count / 2] ^= 0x40
        writeBytes(journal, bytes)

        let socket = directory + "/w.sock"
        let refused = try DaemonProcess(.init(arguments: ["--state-dir", state, "--socket", socket]))
        #expect(await refused.waitForExit(within: 10)?.status == 1)
        let line = refused.standardError
        #expect(line.split(separator: "\n").count == 1 && line.hasPrefix("waterfalld: "), "\(line)")
        #expect(line.contains(journal), "\(line)")
        let offset = try #require(Self.number(after: "byte ", in: line), "\(line)")
        // Where record 10's frame starts.
        #expect(offset == scan.payloads[9].upperBound, "\(line)")
        #expect(access(socket, F_OK) != 0)

        let repaired = try await DaemonProcess.start(.init(arguments: ["--state-dir", state, "--repair"]))
        let log = repaired.standardError
        let aside = journal + ".damaged-at-\(offset)"
        #expect(log.contains("waterfalld: repair: \(journal): damaged at byte \(offset)"), "\(log)")
        #expect(log.contains(aside), "\(log)")
        #expect(access(aside, F_OK) == 0)
        #expect(readBytes(journal).count == offset)
        let get = #"{"id":"get","method":"layout.get","params":{"layout":"feed"}}"# + "\n"
        let client = try TestClient(path: repaired.socketPath)
        try await client.write(get)
        let served = try await client.readLines(1).first ?? ""
        #expect(served.contains(#""seq":10,"#), "\(served.prefix(200))")
        // A later change goes on from the prefix's seq.
        try await client.write(updates[0].replacingOccurrences(of: "\"id\":1,", with: "\"id\":\"next\",") + "\n")
        #expect(try await client.readLines(1).first?.contains(#""seq":11,"#) == true)
        #expect(await repaired.stop() == .exited(0))

        let reference = try await DaemonProcess.start(.init(arguments: ["--ephemeral"]))
        let fresh = try TestClient(path: reference.socketPath)
        try await fresh.createLayout("feed", items: 50)
        try await fresh.write(updates[..<9].map { $0 + "\n" }.joined() + get)
        #expect(try await fresh.readLines(10).last == served)
        #expect(await reference.stop() == .exited(0))
    }

    /// A state directory on a small tmpfs (where this test may mount one, as root; skipped elsewhere): once it is
    /// full, changes are refused with `storage` (-32008) and change nothing, reads go on, and once space returns
    /// changes succeed again, without a restart.
    @Test func aFullDiskRefusesChangesUntilSpaceReturns() async throws {
        let base = try makeTemporaryDirectory()
        defer { removeDirectory(base) }
        guard getuid() == 0, mount("tmpfs", base, "tmpfs", 0, "size=4m") == 0 else { return }
        defer { umount2(base, Int32(MNT_DETACH)) }
        // Room that the test gives back later: most of the tmpfs.
        let filler = base + "/filler"
        writeBytes(filler, [UInt8](repeating: 7, count: 2 << 20))
        let daemon = try await DaemonProcess.start(
            .init(arguments: ["--state-dir", base + "/s"], config: #"{"fsync": "always"}"#))
        let client = try TestClient(path: daemon.socketPath)
        try await client.createLayout("feed", items: 10)
        let items = (0..<20_000).map { #"{"h":\#(Double($0) + 0.123456789)}"# }.joined(separator: ",")
        var refusal: String?
        var seq = 1
        for k in 0..<40 {
            try await client.write(
                #"{"id":\#(k),"method":"items.insert","params":{"layout":"feed","section":0,"at":0,"#
                    + #""items":[\#(items)],"diff":false}}"# + "\n")
            let reply = try await client.readLines(1).first ?? ""
            guard reply.contains("\"result\"") else {
                refusal = reply
                break
            }
            seq += 1
        }
        let refused = try #require(refusal, "the tmpfs never filled")
        #expect(refused.contains(#""code":-32008"#) && refused.contains(#""kind":"storage""#), "\(refused)")
        // Reads go on, and the refused change changed nothing.
        let get = #"{"id":"q","method":"query","params":{"layout":"feed","rect":{"x":0,"y":0,"w":1,"h":1}}}"# + "\n"
        try await client.write(get)
        let before = try await client.readLines(1).first ?? ""
        #expect(before.contains(#""seq":\#(seq),"#), "\(before.prefix(200))")
        try await client.write(
            #"{"id":"u","method":"items.update","params":{"layout":"feed","section":0,"#
                + #""items":[{"i":0,"h":5}]}}"# + "\n")
        let stillFull = try await client.readLines(1).first ?? ""
        try await client.write(get)
        let unchanged = try await client.readLines(1).first ?? ""
        if stillFull.contains("\"error\"") {
            #expect(unchanged == before)
        }
        unlink(filler)
        try await client.write(
            #"{"id":"v","method":"items.update","params":{"layout":"feed","section":0,"#
                + #""items":[{"i":0,"h":6}]}}"# + "\n")
        let accepted = try await client.readLines(1).first ?? ""
        #expect(accepted.contains("\"result\""), "\(accepted.prefix(300)): \(daemon.standardError)")
        #expect(await daemon.stop() == .exited(0))
    }

    // MARK: Private

    /// The decimal number after `prefix` in `text`.
    private static func number(after prefix: String, in text: String) -> Int? {
        guard let range = text.range(of: prefix) else { return nil }
        return Int(text[range.upperBound...].prefix { $0.isNumber })
    }
}
