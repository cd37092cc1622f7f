import Foundation
import Glibc
import Testing
import WaterfallTestSupport

@testable import WaterfallServer

/// The built daemon under a soft and hard limit of 128 descriptors, as a stock host can give a service: it takes
/// ten thousand durable layouts, each created and changed, while another client connects afresh and pings every
/// 50 ms; none of those pings is refused or waits more than 2 s, and the daemon never dies. Killed with SIGKILL and
/// restarted under the same limit, it has every layout back at its acknowledged seq, in a state directory that
/// follows what it holds.
@Suite(.tags(.process), .serialized) struct DescriptorLimitTests {
    static let layouts = 10_000
    static let limit = 128

    @Test(arguments: ["everysec", "always"])
    func tenThousandLayoutsUnderALowLimit(fsync: String) async throws {
        guard DaemonProcess.builtDaemon != nil else {
            throw TestFailure("the built waterfalld is not next to the tests (swift build builds it)")
        }
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        try #"{"fsync":"\#(fsync)"}"#.write(toFile: directory + "/c.json", atomically: false, encoding: .utf8)
        let socket = directory + "/waterfalld.sock"

        var (process, client) = try await DaemonCrashTests.start(directory, fileLimit: Self.limit)
        let pinger = Pinger(socket: socket)
        let pinging = Task { await pinger.run() }
        let started = Date()
        var lines = (0..<Self.layouts).map { k in
            #"{"id":\#(k),"method":"layout.create","params":{"layout":"m\#(k)","width":300,"diff":false,"#
                + #""defaults":{"columns":2},"sections":[{"items":[{"h":10},{"h":\#(20 + k % 50)}]}]}}"#
        }
        lines += (0..<Self.layouts).map { k in
            #"{"id":\#(Self.layouts + k),"method":"items.update","params":{"layout":"m\#(k)","section":0,"#
                + #""diff":false,"items":[{"i":0,"h":\#(11 + k % 7)}]}}"#
        }
        let replies = try await DaemonCrashTests.exchange(client, lines, process)
        let seconds = Date().timeIntervalSince(started)
        pinger.stop()
        await pinging.value
        #expect(replies.count == lines.count)
        let failures = replies.enumerated().filter {
            DaemonCrashTests.seq($0.element) != ($0.offset < Self.layouts ? 1 : 2)
        }
        #expect(failures.isEmpty, "\(failures.count) failed; the first: \(failures.first?.element.prefix(300) ?? "")")
        #expect(pinger.pings > Int(seconds / 0.05) / 4, "only \(pinger.pings) pings in \(seconds) s")
        #expect(pinger.failures.isEmpty, "pings failed: \(pinger.failures.prefix(5))")
        #expect(pinger.slowest <= 2, "the slowest ping took \(pinger.slowest) s")
        #expect(kill(process.pid, 0) == 0, "the daemon died: \(process.standardError.suffix(2000))")
        #expect(Self.openDescriptors(process.pid) <= Self.limit)

        process.signal(SIGKILL)
        _ = await process.waitForExit(within: 10)
        client.closeNow()
        let bytes = StateDirectory.diskUsage(of: directory + "/state")
        #expect(bytes < 200 << 20, "the state directory takes \(bytes) bytes")

        (process, client) = try await DaemonCrashTests.start(directory, fileLimit: Self.limit)
        try await client.write(#"{"id":"list","method":"layout.list"}"# + "\n")
        let list = try await client.readLines(1).first ?? ""
        for k in [0, 1, 4_999, Self.layouts - 1] {
            #expect(list.contains(#"{"layout":"m\#(k)","sections":1,"items":2,"seq":2,"#), "m\(k) is not back at seq 2")
        }
        #expect(list.components(separatedBy: #""seq":2,"#).count - 1 == Self.layouts)
        process.signal(SIGKILL)
        _ = await process.waitForExit(within: 10)
        client.closeNow()

        // Any number of layouts comes back under the lowest limit the daemon runs with.
        (process, client) = try await DaemonCrashTests.start(directory, fileLimit: 64)
        try await client.write(#"{"id":"list","method":"layout.list"}"# + "\n")
        let again = try await client.readLines(1).first ?? ""
        #expect(again.components(separatedBy: #""seq":2,"#).count - 1 == Self.layouts)
        process.signal(SIGTERM)
        _ = await process.waitForExit(within: 10)
    }

    /// The soft limit is raised to the hard one at start, and `stats` shows how it is shared.
    @Test func raisesTheSoftLimitToTheHardOne() async throws {
        try #require(DaemonProcess.builtDaemon != nil)
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        try "{}".write(toFile: directory + "/c.json", atomically: false, encoding: .utf8)
        let (process, client) = try await DaemonCrashTests.start(directory, fileLimit: 100, hardLimit: 1000)
        try await client.write(#"{"id":1,"method":"stats"}"# + "\n")
        let stats = try await client.readLines(1).first ?? ""
        #expect(
            stats.contains(
                #""descriptors":{"limit":1000,"#)
                && stats.contains(#""reserved":32,"connections":484,"journals":484,"#),
            "\(stats)")
        process.signal(SIGTERM)
        _ = await process.waitForExit(within: 10)
    }

    /// A limit too small to run with stops the start with one line naming it and what is needed.
    @Test func refusesToStartUnderALimitTooSmall() async throws {
        try #require(DaemonProcess.builtDaemon != nil)
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let process = try DaemonProcess(
            .init(
                arguments: ["--state-dir", directory + "/state"],
                environment: ["WATERFALLD_SOCKET": directory + "/w.sock"], fileLimit: 40))
        #expect(await process.waitForExit(within: 10)?.status == 1)
        #expect(
            process.standardError
                == "waterfalld: the open-file limit (RLIMIT_NOFILE) is 40 descriptors; waterfalld needs at least 48 "
                + "(raise it with LimitNOFILE= in the service's unit, or ulimit -n)\n")
        #expect(access(directory + "/w.sock", F_OK) != 0)
    }

    // MARK: Private

    /// The descriptors `pid` has open.
    private static func openDescriptors(_ pid: pid_t) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? Int.max
    }
}

/// A client that connects afresh every 50 ms, pings, and records how long each took and which failed.
final class Pinger: @unchecked Sendable {
    init(socket: String) { self.socket = socket }

    private let socket: String
    private let lock = NSLock()
    private var stopped = false
    private(set) var pings = 0
    private(set) var failures: [String] = []
    private(set) var slowest = 0.0

    func stop() { lock.withLock { stopped = true } }

    func run() async {
        while !lock.withLock({ stopped }) {
            let start = Date()
            do {
                let client = try TestClient(path: socket, timeout: 2)
                try await client.write(#"{"id":"p","method":"ping"}"# + "\n")
                let reply = try await client.readLines(1).first ?? "no reply"
                if !reply.contains(#""pong":true"#) { record(failure: reply) }
            } catch {
                record(failure: "\(error)")
            }
            let elapsed = Date().timeIntervalSince(start)
            lock.withLock {
                pings += 1
                slowest = max(slowest, elapsed)
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    private func record(failure: String) { lock.withLock { failures.append(failure) } }
}
