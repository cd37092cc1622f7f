import Foundation
import Testing
import WaterfallTestSupport

/// Mixed requests pipelined over several connections at once through the built `waterfalld`: every id gets exactly one reply, in order, events land only between replies, and the daemon exits 0 at
/// SIGTERM. `WATERFALL_SOAK_REQUESTS` sets the requests per daemon (default 12,000; `waterfall-bench --only soak`
/// runs millions through a release build).
@Suite(.tags(.process)) struct SoakTests {
    @Test(arguments: [true, false])
    func everyRequestGetsOneReplyInOrder(durable: Bool) async throws {
        let executable = try #require(DaemonProcess.builtDaemon, "the built waterfalld is not next to the tests")
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let requests = Environment.integer("WATERFALL_SOAK_REQUESTS") ?? 12_000
        let (outcome, stopped, closes) = try await WireFuzzTests.onThread {
            let daemon = try FuzzFixture.daemon(executable, in: directory, durable: durable)
            let outcome = WireSoak.run(path: daemon.socketPath, connections: 6, requests: requests, seed: 17)
            let stopped = daemon.stop()?.description
            // Why the daemon closed connections other than at their clients' end (its debug log); "closed by the
            // server" is the drain of the connections still open at the SIGTERM that ends the soak.
            let closes = daemon.standardError.split(separator: "\n").filter { line in
                line.contains(" closed: ")
                    && !["peer closed", "closed by the server", "Broken pipe", "reset by peer"].contains {
                        line.contains($0)
                    }
            }
            return (outcome, stopped, closes.map(String.init))
        }
        print(
            "soak (\(durable ? "durable" : "ephemeral")): \(outcome.requests) requests, \(outcome.replies) replies "
                + "(\(outcome.errors) errors), \(outcome.events) events, \(outcome.churnCycles) short connections; the daemon \(stopped ?? "did not stop")"
        )
        for failure in outcome.failures.prefix(20) { Issue.record("\(failure)") }
        // A connection closed for "no output progress" while its client was waiting in read would lose a reply:
        // the soak must see none (`waterfall-bench --only soak` runs it longer).
        for close in closes.prefix(20) { Issue.record("the daemon closed a connection: \(close)") }
        #expect(outcome.failures.isEmpty)
        #expect(outcome.requests >= requests - 6)
        #expect(outcome.replies > outcome.requests / 2)
        #expect(outcome.events > 0)
        #expect(stopped == "exited 0")
    }
}
