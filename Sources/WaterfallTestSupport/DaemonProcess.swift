import Dispatch
import Glibc

/// The built `waterfalld`, or a program that serves as it does, in a child process on a socket in a directory of
/// its own: the one daemon spawner of the tests, the fuzzer and the benchmark.
///
/// The directory holds the socket, the config file, the state (for a durable daemon) and each start's standard
/// errors; a daemon killed there and started again recovers that state. A directory this value made is removed
/// with it, once the child is reaped.
package final class DaemonProcess: @unchecked Sendable {
    /// How to start the daemon.
    package struct Options: Sendable {
        /// The program and the arguments before the flags: the built `waterfalld` by default.
        package var command: [String]
        /// waterfalld's flags.
        package var arguments: [String]
        /// A config file's text, written into the directory and passed with `--config`.
        package var config: String?
        /// Whether the daemon keeps its state (in the directory's `state`, unless `arguments` name a state
        /// directory), or runs `--ephemeral`.
        package var durable: Bool
        /// Added to the environment the daemon gets (PATH, `WATERFALLD_SOCKET`, `STATE_DIRECTORY`), and overriding
        /// it.
        package var environment: [String: String]
        /// A soft limit on open files, as a service's unit sets.
        package var fileLimit: Int?
        /// The hard limit on open files, when `fileLimit` is set: the same by default.
        package var hardFileLimit: Int?

        package init(
            command: [String]? = nil, arguments: [String] = [], config: String? = nil, durable: Bool = true,
            environment: [String: String] = [:], fileLimit: Int? = nil, hardFileLimit: Int? = nil
        ) {
            self.command = command ?? [DaemonProcess.builtDaemon ?? "waterfalld"]
            self.arguments = arguments
            self.config = config
            self.durable = durable
            self.environment = environment
            self.fileLimit = fileLimit
            self.hardFileLimit = hardFileLimit
        }
    }

    /// The built `waterfalld` next to the running executable, if it is there.
    package static let builtDaemon = ChildProcess.built("waterfalld")

    package let options: Options
    package let directory: String
    package let socketPath: String
    /// The child of the current (or last) start.
    package private(set) var process: ChildProcess
    /// Starts so far (the first included).
    package private(set) var starts = 1
    /// Nanoseconds (`DispatchTime`) just before the current start's spawn.
    package private(set) var spawnedAt: UInt64
    /// Seconds from the current start's spawn until a client first got in, once one has (a wait found it).
    package private(set) var secondsToListening: Double?

    // MARK: Lifecycle

    /// Starts the daemon in `directory` (which must exist, and stays), or in a fresh one; does not wait for it.
    package init(_ options: Options = Options(), in directory: String? = nil) throws(ChildProcess.SpawnError) {
        let made: String?
        if directory == nil {
            do {
                made = try makeTemporaryDirectory()
            } catch {
                throw ChildProcess.SpawnError(description: "\(error)")
            }
        } else {
            made = nil
        }
        let directory = directory ?? made!
        self.options = options
        self.directory = directory
        ownsDirectory = made != nil
        socketPath = directory + "/waterfalld.sock"
        var command = options.command + options.arguments
        if let config = options.config {
            let path = directory + "/config.json"
            guard let file = fopen(path, "w") else {
                if made != nil { removeDirectory(directory) }
                throw ChildProcess.SpawnError(description: "cannot write \(path)")
            }
            fputs(config, file)
            fclose(file)
            command += ["--config", path]
        }
        if !options.durable { command.append("--ephemeral") }
        if let soft = options.fileLimit {
            // sh sets the limits, then execs the daemon with them.
            let hard = options.hardFileLimit ?? soft
            command = ["/bin/sh", "-c", "ulimit -Sn \(soft) && ulimit -Hn \(hard) && exec \"$0\" \"$@\""] + command
        }
        self.command = command
        // A private state directory, never the user's ~/.local/state.
        var environment = ["WATERFALLD_SOCKET": socketPath, "STATE_DIRECTORY": directory + "/state"]
        environment.merge(options.environment) { $1 }
        self.environment = environment
        spawnedAt = DispatchTime.now().uptimeNanoseconds
        do {
            process = try Self.spawn(command, environment, directory: directory, start: 1)
        } catch {
            if made != nil { removeDirectory(directory) }
            throw error
        }
    }

    /// Starts the daemon and waits until a client gets in; throws, with what the daemon said, if none does within
    /// `seconds`.
    package static func start(
        _ options: Options = Options(), in directory: String? = nil, within seconds: Double = 10
    ) async throws -> DaemonProcess {
        let daemon = try DaemonProcess(options, in: directory)
        guard await daemon.waitUntilListening(within: seconds) else {
            throw TestFailure("the daemon did not listen on \(daemon.socketPath): \(daemon.standardError)")
        }
        return daemon
    }

    deinit {
        guard process.exitStatus() == nil || ownsDirectory else { return }
        let (process, directory, owns) = (process, directory, ownsDirectory)
        process.signal(SIGKILL)
        // Reaped, and the directory removed after it, off the caller's thread.
        DispatchQueue.global().async {
            process.kill9()
            if owns { removeDirectory(directory) }
        }
    }

    // MARK: Waiting

    /// Waits on the caller's thread until a client gets in; false if the daemon ended or `seconds` passed first.
    package func waitUntilListening(within seconds: Double) -> Bool {
        poll(within: seconds) { checkListening() || process.exitStatus() != nil } && checkListening()
    }

    /// Waits, without blocking a thread, until a client gets in; false if the daemon ended or `seconds` passed
    /// first.
    package func waitUntilListening(within seconds: Double) async -> Bool {
        await poll(within: seconds) { checkListening() || process.exitStatus() != nil } && checkListening()
    }

    // MARK: Running

    package var pid: pid_t { process.pid }

    /// The standard output of the current (or last) start.
    package var standardOutput: String { process.standardOutput }

    /// The standard errors of the current (or last) start.
    package var standardError: String { process.standardError }

    /// Sends `number` to the daemon.
    package func signal(_ number: Int32) { process.signal(number) }

    /// How the current start ended, or nil while it runs.
    package func exitStatus() -> ChildProcess.Exit? { process.exitStatus() }

    /// Waits up to `seconds` on the caller's thread for the daemon to end; how it ended, or nil.
    package func waitForExit(within seconds: Double) -> ChildProcess.Exit? { process.waitForExit(within: seconds) }

    /// Waits up to `seconds`, without blocking a thread, for the daemon to end; how it ended, or nil.
    package func waitForExit(within seconds: Double) async -> ChildProcess.Exit? {
        await process.waitForExit(within: seconds)
    }

    /// Sends `signal` (SIGTERM) and waits on the caller's thread; how the daemon ended, or nil if it had to be
    /// killed.
    @discardableResult
    package func stop(_ signal: Int32 = SIGTERM, within seconds: Double = 10) -> ChildProcess.Exit? {
        process.stop(signal, within: seconds)
    }

    /// Sends `signal` (SIGTERM) and waits without blocking a thread; how the daemon ended, or nil if it had to be
    /// killed.
    @discardableResult
    package func stop(_ signal: Int32 = SIGTERM, within seconds: Double = 10) async -> ChildProcess.Exit? {
        await process.stop(signal, within: seconds)
    }

    /// kill -9 (a crash), and reaps the daemon; its directory and state stay.
    package func kill9() { process.kill9() }

    /// Kills the daemon if it runs, and starts it again on the same socket and state; waits on the caller's thread
    /// until it listens.
    package func restart(within seconds: Double = 10) throws(ChildProcess.SpawnError) {
        process.kill9()
        starts += 1
        unlink(socketPath)
        secondsToListening = nil
        spawnedAt = DispatchTime.now().uptimeNanoseconds
        process = try Self.spawn(command, environment, directory: directory, start: starts)
        try requireListening(within: seconds)
    }

    /// Waits on the caller's thread until a client gets in; throws, with how the daemon ended and what it said, if
    /// none does within `seconds`.
    package func requireListening(within seconds: Double = 10) throws(ChildProcess.SpawnError) {
        guard waitUntilListening(within: seconds) else {
            let how = process.exitStatus().map { "\($0)" } ?? "did not listen"
            throw ChildProcess.SpawnError(description: "the daemon \(how) on \(socketPath): \(standardError)")
        }
    }

    /// The fields of /proc/PID/stat after "pid (comm) ", from field 3 (state) on; empty once the daemon is gone.
    package var statFields: [Substring] {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return [] }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 4096)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return [] }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The command name may hold spaces and parentheses: the fields start after the last ")".
        guard let close = text.lastIndex(of: ")") else { return [] }
        return text[text.index(after: close)...].split(separator: " ")
    }

    // MARK: Private

    private let ownsDirectory: Bool
    private let command: [String]
    private let environment: [String: String]

    /// Whether a client gets in, noting when one first did.
    private func checkListening() -> Bool {
        if secondsToListening != nil { return true }
        // The socket file exists from bind on, a moment before listen: a connection says it listens.
        guard (try? LineSocket(path: socketPath, timeout: 5)) != nil else { return false }
        secondsToListening = Double(DispatchTime.now().uptimeNanoseconds - spawnedAt) / 1e9
        return true
    }

    private static func spawn(
        _ command: [String], _ environment: [String: String], directory: String, start: Int
    ) throws(ChildProcess.SpawnError) -> ChildProcess {
        try ChildProcess(
            command[0], Array(command.dropFirst()), environment: environment,
            output: directory + (start == 1 ? "/stdout" : "/stdout-\(start)"),
            errors: directory + (start == 1 ? "/stderr" : "/stderr-\(start)"))
    }
}
