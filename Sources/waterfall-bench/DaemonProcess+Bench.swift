import Foundation
import Glibc
import WaterfallServer
import WaterfallTestSupport

/// The benchmark's daemons: each in a process of its own, on a socket in a fresh temporary directory.
///
/// A separate process rather than a `Server` inside the benchmark: the client threads then compete with the daemon
/// only for the two cores, as real clients do, not for its dispatch queues and cooperative pool; its resident
/// memory is its own; and its CPU time can be read from /proc. The built `waterfalld` next to this executable is
/// preferred; without one (`swift run` builds only the benchmark) the benchmark re-runs itself with `--serve`,
/// which builds the same `Config` → `LayoutService` → `Server` as `waterfalld`'s main.
extension DaemonProcess {
    /// Starts a daemon with `arguments` and waits until it answers a ping; nil (with a message) if it does not come
    /// up within `patience` seconds.
    ///
    /// In `existing`, when given, the daemon's socket, state directory (`state`) and stderr go there, and stay
    /// after it stops: a later daemon there recovers the same state. Otherwise a fresh directory, removed with the
    /// daemon.
    static func bench(
        arguments: [String] = [], in existing: String? = nil, patience: Double = 5, fileLimit: Int? = nil
    ) -> DaemonProcess? {
        let command = builtDaemon.map { [$0] } ?? [CommandLine.arguments[0], "--serve"]
        let daemon: DaemonProcess
        do {
            daemon = try DaemonProcess(
                Options(command: command, arguments: arguments, fileLimit: fileLimit), in: existing)
        } catch {
            print("  could not \(error)")
            return nil
        }
        guard daemon.waitUntilListening(within: patience),
            let client = BenchClient(path: daemon.socketPath),
            client.call(Array(#"{"id":0,"method":"ping"}"#.utf8)) != nil
        else {
            print("  the daemon did not answer on \(daemon.socketPath): \(daemon.standardError)")
            daemon.stop()
            return nil
        }
        return daemon
    }

    /// An `--ephemeral` daemon and a client of it, for a scenario of wire figures (what durability adds is the
    /// durability scenario's); nil, with a row saying so in `table`, when it does not start.
    static func ephemeral(for scenario: String, _ table: inout Table) -> (DaemonProcess, BenchClient)? {
        guard let daemon = bench(arguments: ["--ephemeral"]), let client = BenchClient(path: daemon.socketPath) else {
            table.add(scenario, "the daemon did not start")
            return nil
        }
        return (daemon, client)
    }

    /// `waterfalld` or `waterfall-bench --serve`.
    var kind: String { options.command.count > 1 ? "waterfall-bench --serve" : "waterfalld" }

    /// The daemon's resident set size in bytes, from /proc/<pid>/statm.
    var residentBytes: Int {
        let fields = (try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8))?.split(separator: " ")
        guard let fields, fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// CPU time the daemon has used (user + system, all threads, dead ones included), in seconds.
    var cpuSeconds: Double {
        let fields = statFields
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The time the daemon's threads have waited for a CPU while ready to run, in seconds, from each live thread's
    /// /proc schedstat: on a host busy with other work, much of a round's wall time goes there rather than to the
    /// daemon's own work.
    var runQueueSeconds: Double {
        let tasks = "/proc/\(pid)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        var waited = 0
        for thread in threads {
            let text = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8)
            if let fields = text?.split(separator: " "), fields.count > 1, let ns = Int(fields[1]) { waited += ns }
        }
        return Double(waited) / 1e9
    }

    /// The page faults the daemon has taken without reading a file (minflt): each costs a trap and a zeroed page,
    /// so a bulk load's count says how much of its time went to touching fresh memory.
    var minorFaults: Int {
        let fields = statFields
        return fields.count > 7 ? Int(fields[7]) ?? 0 : 0
    }

    /// `waterfall-bench --serve [FLAGS]`: the daemon's own setup (waterfalld's flags and environment, default
    /// limits), until SIGTERM.
    static func serve(flags: [String]) async {
        let logger = Logger(level: .warning)
        do {
            let config = try CommandLineOptions.parse(flags).loadConfig()
            let counters = TransportCounters()
            let service = try await LayoutService.start(
                config: config, logger: logger, transport: counters, environment: ProcessInfo.processInfo.environment
            ).service
            let server = try Server(config: config, handler: service, logger: logger, counters: counters)
            try await server.run()
            service.close()
        } catch {
            logger.error("\(error)")
        }
    }
}
