import Foundation
import WaterfallTestSupport

/// The long runs through a release build of the built `waterfalld`: the wire fuzzer (`fuzz`) and the
/// soak (`soak`), with the counts the test suite runs only with its environment variables. Named with `--only`
/// only; never part of a full run.
///
/// `WATERFALL_FUZZ_CASES` (mutations after the table; default 1,000,000), `WATERFALL_FUZZ_SEED` (default 17),
/// `WATERFALL_FUZZ_EPHEMERAL=1` (default durable); `WATERFALL_SOAK_REQUESTS` (default 2,000,000),
/// `WATERFALL_SOAK_CONNECTIONS` (default 8), `WATERFALL_SOAK_ROUNDS` (daemons soaked in turn, default 1).
enum StressBenchmark {
    static func fuzz(table: inout Table) {
        let mutations = Environment.integer("WATERFALL_FUZZ_CASES") ?? 1_000_000
        let seed = UInt64(Environment.integer("WATERFALL_FUZZ_SEED") ?? 17)
        let durable = Environment.integer("WATERFALL_FUZZ_EPHEMERAL") != 1
        guard let directory = temporaryDirectory(), let executable = DaemonProcess.builtDaemon else {
            table.add("fuzz", "no built waterfalld next to the benchmark, or no temporary directory")
            return
        }
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let start = nanoseconds()
        do {
            let daemon = try FuzzFixture.daemon(executable, in: directory, durable: durable)
            let fuzzer = try WireFuzzer(daemon: daemon)
            if durable { fuzzer.killEvery = 3_000 }
            let cases = WireFuzzTable.cases()
            fuzzer.run(cases)
            // In slices, to print progress.
            for first in stride(from: 0, to: mutations, by: 100_000) {
                let range = first..<min(mutations, first + 100_000)
                fuzzer.run(range.lazy.map { WireFuzzMutations.mutation(seed: seed, index: $0) })
                let seconds = Double(nanoseconds() - start) / 1e9
                print(
                    "  \(fuzzer.cases) cases, \(Int(Double(fuzzer.cases) / seconds)) /s, \(fuzzer.failureCount) failures"
                )
                // Seen as it runs, when standard output is a file (a run of millions takes an hour).
                fflush(nil)
            }
            let seconds = Double(nanoseconds() - start) / 1e9
            let stopped = daemon.stop()?.description ?? "did not stop"
            for failure in fuzzer.failures { print("  FAILURE (seed \(seed)): \(failure)") }
            table.add(
                "wire fuzz, \(durable ? "durable" : "--ephemeral"), seed \(seed)",
                "\(fuzzer.cases) cases in \(Int(seconds)) s (\(Int(Double(fuzzer.cases) / seconds)) /s)",
                "\(fuzzer.failureCount) failures, \(fuzzer.crashes) crashes, \(fuzzer.kills) kill -9",
                "the daemon \(stopped) at SIGTERM")
        } catch {
            table.add("fuzz", "\(error)")
        }
    }

    static func soak(table: inout Table) {
        let requests = Environment.integer("WATERFALL_SOAK_REQUESTS") ?? 2_000_000
        let connections = Environment.integer("WATERFALL_SOAK_CONNECTIONS") ?? 8
        let rounds = Environment.integer("WATERFALL_SOAK_ROUNDS") ?? 1
        guard let executable = DaemonProcess.builtDaemon else {
            table.add("soak", "no built waterfalld next to the benchmark")
            return
        }
        for round in 0..<rounds {
            for durable in [false, true] {
                guard let directory = temporaryDirectory() else { return }
                defer { try? FileManager.default.removeItem(atPath: directory) }
                let start = nanoseconds()
                do {
                    let daemon = try FuzzFixture.daemon(executable, in: directory, durable: durable)
                    let outcome = WireSoak.run(
                        path: daemon.socketPath, connections: connections, requests: requests, seed: UInt64(round))
                    let seconds = Double(nanoseconds() - start) / 1e9
                    let stopped = daemon.stop()?.description ?? "did not stop"
                    for failure in outcome.failures { print("  FAILURE: \(failure)") }
                    table.add(
                        "soak \(round), \(durable ? "durable" : "--ephemeral"), \(connections) connections",
                        "\(outcome.requests) requests, \(outcome.replies) replies, \(outcome.events) events, \(outcome.churnCycles) short connections in "
                            + "\(Int(seconds)) s",
                        "\(outcome.failures.count) failures", "the daemon \(stopped) at SIGTERM")
                } catch {
                    table.add("soak", "\(error)")
                }
            }
        }
    }

    // MARK: Private

    /// A directory for a daemon's socket and state: in /dev/shm where there is one. Fuzzing and soaking are not disk
    /// tests (the fixture's fsync is "never"), and on this host's ext4, mounted with `discard`, every layout the fuzzer
    /// re-creates unlinks a journal file, slowly enough there that durable runs would spend most of their time on it.
    private static func temporaryDirectory() -> String? {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : "/tmp"
        var template = Array("\(base)/waterfall-stress-XXXXXX".utf8CString)
        return mkdtemp(&template).map { String(cString: $0) }
    }
}
