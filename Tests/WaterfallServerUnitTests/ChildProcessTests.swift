import Glibc
import Testing
import WaterfallTestSupport

/// The spawner under the tests, the fuzzer and the benchmark: how a child ended, what it wrote, and that a stop
/// ends a child that ignores the polite signal.
@Suite struct ChildProcessTests {
    @Test func runReportsTheStatusAndBothStreams() async throws {
        let run = try await ChildProcess.run(
            "/bin/sh", ["-c", #"read line; echo "out $line"; echo err >&2; exit 3"#], input: "in\n")
        #expect(run.exit == .exited(3))
        #expect(run.output == "out in\n")
        #expect(run.errors == "err\n")
    }

    @Test func stopSignalsThenKills() async throws {
        let polite = try ChildProcess("/bin/sleep", ["30"])
        #expect(await polite.stop(SIGTERM, within: 5) == .killed(signal: SIGTERM))
        #expect(polite.exitStatus() == .killed(signal: SIGTERM))
        // A child that ignores SIGTERM is killed once the wait runs out, and reported as not having stopped.
        let stubborn = try ChildProcess("/bin/sh", ["-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done"])
        #expect(await poll(within: 5) { stubborn.standardOutput == "ready\n" })
        #expect(await stubborn.stop(SIGTERM, within: 0.2) == nil)
        #expect(stubborn.exitStatus() == .killed(signal: SIGKILL))
    }
}
