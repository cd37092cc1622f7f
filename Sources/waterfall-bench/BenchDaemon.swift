import Foundation
import Glibc
import WaterfallServer

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
    private let directory: String

    // MARK: Lifecycle

    /// Starts a daemon and waits until its socket answers; nil (with a message) if it does not come up.
    init?(arguments extra: [String] = []) {
        var template = Array("/tmp/waterfall-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return nil }
        directory = String(cString: made)
        socketPath = directory + "/w.sock"
        let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let daemon = own.deletingLastPathComponent().appendingPathComponent("waterfalld").path
        let arguments: [String]
        if FileManager.default.isExecutableFile(atPath: daemon) {
            arguments = [daemon] + extra
            kind = "waterfalld"
        } else {
            arguments = [own.path, "--serve", socketPath] + extra
            kind = "waterfall-bench --serve"
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let environment = [
            // A private state directory, never the user's ~/.local/state.
            "STATE_DIRECTORY=\(directory)/state", "WATERFALLD_SOCKET=\(socketPath)",
            "PATH=\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")",
        ]
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        guard posix_spawn(&child, arguments[0], &actions, nil, argv, envp) == 0 else {
            print("  could not spawn \(arguments[0])")
            return nil
        }
        pid = child
        for _ in 0..<500 {
            if let client = BenchClient(path: socketPath), client.call(Array(#"{"id":0,"method":"ping"}"#.utf8)) != nil
            {
                return
            }
            usleep(10_000)
        }
        print("  the daemon did not answer on \(socketPath): \(standardError())")
        stop()
        return nil
    }

    deinit { stop() }

    // MARK: Internal

    /// The daemon's resident set size in bytes, from /proc/<pid>/statm.
    var residentBytes: Int {
        let fields = (try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8))?.split(separator: " ")
        guard let fields, fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// CPU time the daemon has used (user + system, all threads, dead ones included), in seconds.
    var cpuSeconds: Double {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return 0 }
        // After "pid (comm) ": state is field 3, utime field 14, stime field 15.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func stop() {
        guard access(directory, F_OK) == 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<300 where waitpid(pid, &status, WNOHANG) != pid { usleep(10_000) }
        if kill(pid, 0) == 0 {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        // With the state directory in it.
        try? FileManager.default.removeItem(atPath: directory)
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
