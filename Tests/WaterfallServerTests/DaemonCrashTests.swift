import Foundation
import Glibc
import Testing
import WaterfallLayout
import WaterfallTestSupport

@testable import WaterfallServer

/// The built `waterfalld` under each fsync setting, killed with SIGKILL at random moments while a client pipelines
/// random valid changes: after every restart on the same directory the layout's seq is at least the last one
/// acknowledged, and its frames are those of a fresh layout built from the same first changes.
@Suite(.tags(.process)) struct DaemonCrashTests {
    /// The changes sent so far, in order, and what the daemon acknowledged; used by one round's writer at a time.
    final class Writer: @unchecked Sendable {
        var reference: LayoutWidths
        var random = RandomCommands(seed: 7, maxItems: 20)
        var sent: [LayoutCommand] = []
        var acknowledged = 0
        var id = 0

        init(_ reference: LayoutWidths) { self.reference = reference }

        /// Pipelines changes to layout `a`, 16 per write, until the connection fails.
        func run(_ client: TestClient) async {
            while true {
                var text = ""
                for _ in 0..<16 {
                    sent.append(await StorageCrashTests.nextChange(&reference, &random))
                    id += 1
                    text += WireCommand(sent[sent.count - 1]).request(id: id, layout: "a") + "\n"
                }
                guard (try? await client.write(text)) != nil,
                    let lines = try? await client.readLines(16)
                else { return }
                for line in lines {
                    guard let seq = DaemonCrashTests.seq(line) else {
                        Issue.record("not a change's reply: \(line.prefix(300))")
                        return
                    }
                    acknowledged = max(acknowledged, seq)
                }
                if lines.count < 16 { return }
            }
        }
    }

    /// The `seq` of a reply line, if it has one.
    static func seq(_ line: String) -> Int? {
        guard line.contains(#""result""#), let range = line.range(of: #""seq":"#) else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// Starts the daemon on `directory` (its state, socket and config `c.json`), under a soft limit of `fileLimit`
    /// descriptors if given (and a hard limit of `hardLimit`, else the same), and connects.
    static func start(
        _ directory: String, fileLimit: Int? = nil, hardLimit: Int? = nil
    ) async throws -> (DaemonProcess, TestClient) {
        let options = DaemonProcess.Options(
            arguments: ["--config", directory + "/c.json"], fileLimit: fileLimit, hardFileLimit: hardLimit)
        let process = try await DaemonProcess.start(options, in: directory, within: 60)
        return (process, try TestClient(path: process.socketPath, timeout: 10))
    }

    static func exchange(_ client: TestClient, _ lines: [String], _ process: DaemonProcess) async throws -> [String] {
        var replies: [String] = []
        do {
            for chunk in stride(from: 0, to: lines.count, by: 64) {
                let part = lines[chunk..<min(chunk + 64, lines.count)]
                try await client.write(part.map { $0 + "\n" }.joined())
                replies += try await client.readLines(part.count)
            }
        } catch {
            throw TestFailure("\(error) after \(replies.count) replies; the daemon said: \(process.standardError)")
        }
        return replies
    }

    /// Every fsync setting loses nothing a process death can take: each writes a visit's records before its
    /// replies, and only `"always"` also waits for the disk (which a kill -9 does not test). `"always"`, the
    /// setting whose promise is strongest, runs 20 rounds; the others run 10.
    @Test(arguments: ["always", "everysec", "never"])
    func killedDaemonsLoseNothingAcknowledged(fsync: String) async throws {
        try #require(DaemonProcess.builtDaemon != nil)
        let rounds = Environment.integer("WATERFALL_CRASH_ROUNDS") ?? (fsync == "always" ? 20 : 10)
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        try #"{"fsync": "\#(fsync)"}"#.write(toFile: directory + "/c.json", atomically: false, encoding: .utf8)
        let initial = StorageCrashTests.initial
        let create = WireCommand.create("a", initial)
        var (process, client) = try await Self.start(directory)
        let created = try await Self.exchange(
            client, [#"{"id":0,"method":"layout.create","params":"# + create.jsonText + "}"], process)
        #expect(created.first.flatMap(Self.seq) == 1)
        let writer = Writer(try await LayoutWidths.make(initial).layouts)
        var rng = SplitMix64(seed: 11)
        for round in 0..<rounds {
            let connection = client
            let task = Task { [writer] in await writer.run(connection) }
            try await Task.sleep(for: .milliseconds(Int.random(in: 20...150, using: &rng)))
            process.signal(SIGKILL)
            _ = await process.waitForExit(within: 10)
            await task.value
            (process, client) = try await Self.start(directory)
            let get = #"{"id":"get","method":"layout.get","params":{"layout":"LAYOUT"}}"#
            let recovered = try await Self.exchange(
                client, [get.replacingOccurrences(of: "LAYOUT", with: "a")], process)
            let seq = try #require(recovered.first.flatMap(Self.seq), "round \(round): \(recovered)")
            #expect(seq >= writer.acknowledged, "round \(round)")
            #expect(seq <= writer.sent.count + 1, "round \(round)")
            // What the daemon kept is the first seq - 1 changes sent; later ones were never applied.
            writer.sent.removeLast(writer.sent.count - (seq - 1))
            writer.acknowledged = seq
            var reference = try await LayoutWidths.make(initial).layouts
            for command in writer.sent { _ = try await reference.validateAndApply([command]) }
            writer.reference = reference
            // A fresh layout in the daemon built from the same changes gives the same frames (and seq).
            let fresh = WireCommand.create("check", initial).jsonText
            var check = [#"{"id":0,"method":"layout.create","params":"# + fresh + "}"]
            check += writer.sent.enumerated().map { WireCommand($1).request(id: $0 + 1, layout: "check") }
            let replies = try await Self.exchange(client, check, process)
            #expect(replies.allSatisfy { Self.seq($0) != nil }, "round \(round)")
            let copy = try await Self.exchange(
                client,
                [
                    get.replacingOccurrences(of: "LAYOUT", with: "check"),
                    #"{"id":"drop","method":"layout.drop","params":{"layout":"check"}}"#,
                ], process)
            #expect(copy.first == recovered.first, "round \(round)")
        }
        // The writers got changes in, not just the creation.
        #expect(writer.sent.count >= rounds)
        process.signal(SIGTERM)
        #expect(await process.waitForExit(within: 10)?.status == 0)
    }
}
