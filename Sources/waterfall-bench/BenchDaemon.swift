import Foundation
import Glibc
import WaterfallServer
import WaterfallTestSupport

/// A daemon in a process of its own, on a socket in a fresh temporary directory.
///
/// A separate process rather than a `Server` inside the benchmark: the client threads then compete with the daemon
/// only for the two cores, as real clients do, not for its dispatch queues and cooperative pool; its resident
/// memory is its own; and its CPU time can be read from /proc. The built `waterfalld` next to this executable is
/// preferred; without one (`swift run` builds only the benchmark) the benchmark re-runs itself with `--serve`,
/// which builds the same `Config` → `LayoutService` → `Server` as `waterfalld`'s main.
final class BenchDaemon {
    let pid: pid_t
    let socketPath: String
    /// `waterfalld` or `waterfall-bench --serve`.
    let kind: String
    /// Seconds from the spawn to the first answered `ping`.
    private(set) var secondsToFirstPing = 0.0
    /// Nanoseconds (`DispatchTime`) just before the spawn.
    let spawnedAt: UInt64
    private let directory: String
    /// Whether `stop()` removes `directory`: only one this daemon made.
    private let ownsDirectory: Bool
    private var reaped = false

    // MARK: Lifecycle

    /// Starts a daemon and waits until its socket answers; nil (with a message) if it does not come up.
    ///
    /// In `existing`, when given, the daemon's socket, state directory (`state`) and stderr go there, and stay
    /// after it stops: a later daemon there recovers the same state. Otherwise a fresh directory, removed by
    /// `stop()`.
    init?(arguments extra: [String] = [], in existing: String? = nil, patience: Double = 5, fileLimit: Int? = nil) {
        if let existing {
            directory = existing
            ownsDirectory = false
        } else {
            var template = Array("/tmp/waterfall-bench-XXXXXX".utf8CString)
            guard let made = mkdtemp(&template) else { return nil }
            directory = String(cString: made)
            ownsDirectory = true
        }
        socketPath = directory + "/w.sock"
        let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let daemon = own.deletingLastPathComponent().appendingPathComponent("waterfalld").path
        var arguments: [String]
        if FileManager.default.isExecutableFile(atPath: daemon) {
            arguments = [daemon] + extra
            kind = "waterfalld"
        } else {
            arguments = [own.path, "--serve", socketPath] + extra
            kind = "waterfall-bench --serve"
        }
        if let fileLimit {
            // A soft and hard limit, as a service's unit gives one: `sh`'s `ulimit` sets both, then execs.
            arguments = ["/bin/sh", "-c", "ulimit -n \(fileLimit) && exec \"$0\" \"$@\""] + arguments
        }
        let environment = [
            // A private state directory, never the user's ~/.local/state.
            "STATE_DIRECTORY=\(directory)/state", "WATERFALLD_SOCKET=\(socketPath)",
            "PATH=\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")",
        ]
        spawnedAt = DispatchTime.now().uptimeNanoseconds
        do {
            pid = try ChildProcess.spawn(
                arguments[0], Array(arguments.dropFirst()), environment: environment, input: "/dev/null",
                output: "/dev/null", errors: directory + "/stderr")
        } catch {
            print("  could not \(error)")
            return nil
        }
        // Every millisecond: the recovery scenario times the spawn to the first answer.
        for _ in 0..<Int(patience * 1_000) {
            if let client = BenchClient(path: socketPath), client.call(Array(#"{"id":0,"method":"ping"}"#.utf8)) != nil
            {
                secondsToFirstPing = Double(DispatchTime.now().uptimeNanoseconds - spawnedAt) / 1e9
                return
            }
            usleep(1_000)
        }
        print("  the daemon did not answer on \(socketPath): \(standardError())")
        stop()
        return nil
    }

    deinit { stop() }

    /// An `--ephemeral` daemon and a client of it, for a scenario of wire figures (what durability adds is the
    /// durability scenario's); nil, with a row saying so in `table`, when it does not start.
    static func ephemeral(for scenario: String, _ table: inout Table) -> (BenchDaemon, BenchClient)? {
        guard let daemon = BenchDaemon(arguments: ["--ephemeral"]), let client = BenchClient(path: daemon.socketPath)
        else {
            table.add(scenario, "the daemon did not start")
            return nil
        }
        return (daemon, client)
    }

    // MARK: Internal

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

    /// The page faults the daemon has taken without reading a file (minflt): each costs a trap and a zeroed page,
    /// so a bulk load's count says how much of its time went to touching fresh memory.
    var minorFaults: Int {
        let fields = statFields
        return fields.count > 7 ? Int(fields[7]) ?? 0 : 0
    }

    /// The fields of /proc/<pid>/stat after "pid (comm) ", from field 3 (state) on.
    private var statFields: [Substring] {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return [] }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// Kills the daemon with SIGKILL and reaps it; its directory stays.
    func kill9() {
        guard !reaped else { return }
        var status: Int32 = 0
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        reaped = true
    }

    func stop() {
        if !reaped {
            reaped = true
            kill(pid, SIGTERM)
            var status: Int32 = 0
            for _ in 0..<300 where waitpid(pid, &status, WNOHANG) != pid { usleep(10_000) }
            if kill(pid, 0) == 0 {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
            }
        }
        // With the state directory in it.
        if ownsDirectory { try? FileManager.default.removeItem(atPath: directory) }
    }

    func standardError() -> String {
        (try? String(contentsOfFile: directory + "/stderr", encoding: .utf8)) ?? ""
    }

    /// `waterfall-bench --serve PATH [FLAGS]`: the daemon's own setup (waterfalld's flags, default limits), until
    /// SIGTERM.
    static func serve(socket: String, flags: [String]) async {
        let logger = Logger(level: .warning)
        do {
            var config = try CommandLineOptions.parse(flags).loadConfig()
            config.socket = socket
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
