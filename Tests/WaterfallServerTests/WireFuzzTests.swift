import Foundation
import Testing
import WaterfallTestSupport

/// The wire fuzzer through the built `waterfalld`, durable and `--ephemeral`: the table of every method ×
/// every number field × extreme values in every form, then seeded structural mutations of valid requests. Every
/// request gets exactly one reply of a documented kind, an error changes nothing, the daemon never exits, and a
/// durable daemon killed with SIGKILL recovers what it acknowledged.
///
/// `WATERFALL_FUZZ_CASES` sets the mutations per daemon (default 1,000), `WATERFALL_FUZZ_SEED` their seed (printed
/// with every failure, which names the case's index: `WireFuzzMutations.mutation(seed:index:)` rebuilds it).
@Suite(.tags(.process)) struct WireFuzzTests {
    static let seed = UInt64(Environment.integer("WATERFALL_FUZZ_SEED") ?? 17)
    static let mutations = Environment.integer("WATERFALL_FUZZ_CASES") ?? 1_000

    /// What one run found.
    struct Outcome: Sendable {
        var cases: Int
        var failures: [String]
        var failureCount: Int
        var kills: Int
        var crashes: Int
        var outcomes: [String: Int]
        var stopped: String?
        var seconds: Double
    }

    @Test(arguments: [true, false])
    func nothingAClientSendsStopsTheDaemon(durable: Bool) async throws {
        let executable = try #require(DaemonProcess.builtDaemon, "the built waterfalld is not next to the tests")
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        // CI's time (about a minute on this shared host): the durable daemon runs two cases of the table in three,
        // the ephemeral one (whose only other path is that it keeps no undo or journal) one in six; the forms of a
        // field come in fours or twos, so each form of each field still meets most values. With
        // WATERFALL_FUZZ_CASES set, both run the whole table.
        let stride = Environment.integer("WATERFALL_FUZZ_CASES") != nil ? 1 : (durable ? 3 : 6)
        let table = WireFuzzTable.cases().enumerated().filter { entry in
            stride == 1 || (durable ? entry.offset % 3 != 2 : entry.offset % 6 == 0)
        }.map(\.element)
        let seed = Self.seed
        let mutations = Self.mutations
        let outcome = try await Self.onThread { () throws -> Outcome in
            let start = Date()
            let daemon = try FuzzFixture.daemon(executable, in: directory, durable: durable)
            let fuzzer = try WireFuzzer(daemon: daemon)
            // A few kills in a CI run, one per ~50,000 cases in a long one.
            if durable { fuzzer.killEvery = max(50, (table.count + mutations) / fuzzer.slots / 3) }
            fuzzer.killEvery = min(fuzzer.killEvery, 3_000)
            fuzzer.run(table)
            fuzzer.run((0..<mutations).lazy.map { WireFuzzMutations.mutation(seed: seed, index: $0) })
            return Outcome(
                cases: fuzzer.cases, failures: fuzzer.failures, failureCount: fuzzer.failureCount, kills: fuzzer.kills,
                crashes: fuzzer.crashes, outcomes: fuzzer.outcomes, stopped: daemon.stop()?.description,
                seconds: Date().timeIntervalSince(start))
        }
        let kinds = outcome.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        print(
            "wire fuzz (\(durable ? "durable" : "ephemeral"), seed \(seed)): \(outcome.cases) cases "
                + "(\(table.count) of the table) in \(Int(outcome.seconds)) s, \(outcome.kills) kill -9, "
                + "\(outcome.crashes) crashes, \(outcome.failureCount) failures; \(kinds.joined(separator: ", "))")
        for failure in outcome.failures { Issue.record("seed \(seed): \(failure)") }
        #expect(outcome.failureCount == 0)
        #expect(outcome.crashes == 0)
        #expect(outcome.cases == table.count + mutations)
        #expect(outcome.stopped == "exited 0")
    }

    /// Runs a blocking body on a thread of its own, never on the cooperative pool.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
