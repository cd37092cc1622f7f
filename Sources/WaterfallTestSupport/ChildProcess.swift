import Dispatch
import Glibc

/// A child process (the built daemon, `waterfallctl`, socat, a Python client) with its standard streams in files,
/// for the tests, the fuzzer and the benchmark.
///
/// posix_spawn, not Foundation's `Process`, which can miss the exit of a short-lived child while other tests run;
/// the child is reaped here, with `waitpid`. The waits come in two faces: synchronous ones for threads the caller
/// owns (the fuzzer's, the benchmark's), and async ones that poll without blocking, for the cooperative pool.
package final class ChildProcess: @unchecked Sendable {
    /// Why a child could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        package let description: String
    }

    /// How a child ended.
    package enum Exit: Sendable, Hashable, CustomStringConvertible {
        case exited(Int32)
        case killed(signal: Int32)

        /// What `waitpid` says of an ended child.
        init(waitStatus status: Int32) {
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
            self = status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .killed(signal: status & 0x7F)
        }

        /// The exit status, or nil if a signal ended it.
        package var status: Int32? {
            if case .exited(let status) = self { return status }
            return nil
        }

        package var description: String {
            switch self {
            case .exited(let status): "exited \(status)"
            case .killed(let signal): "killed by signal \(signal)"
            }
        }
    }

    package let pid: pid_t
    /// Where the child's standard output and errors go.
    package let outputPath: String
    package let errorsPath: String

    // MARK: Lifecycle

    /// Starts `executable` with `arguments`, its environment PATH plus `environment`, its standard input read from
    /// `input` and its output and errors written to `output` and `errors` (created or truncated).
    package init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], input: String = "/dev/null",
        output: String, errors: String
    ) throws(SpawnError) {
        var full = ["PATH": Self.searchPath]
        full.merge(environment) { $1 }
        pid = try Self.spawn(
            executable, arguments, environment: full.map { "\($0.key)=\($0.value)" }, input: input, output: output,
            errors: errors)
        outputPath = output
        errorsPath = errors
        ownedDirectory = nil
    }

    /// Starts `executable` with `input` as its standard input and its output in a private directory, removed with
    /// this value.
    package convenience init(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], input: String = ""
    ) throws(SpawnError) {
        let directory: String
        do {
            directory = try makeTemporaryDirectory()
        } catch {
            throw SpawnError(description: "\(error)")
        }
        let inputPath = directory + "/stdin"
        guard let file = fopen(inputPath, "w") else { throw SpawnError(description: "cannot write \(inputPath)") }
        fputs(input, file)
        fclose(file)
        do {
            try self.init(
                executable, arguments, environment: environment, input: inputPath, output: directory + "/stdout",
                errors: directory + "/stderr")
        } catch {
            removeDirectory(directory)
            throw error
        }
        ownedDirectory = directory
    }

    /// A child still running is killed; it is reaped, and the private directory removed, off the caller's thread.
    deinit {
        let (pid, directory) = (pid, ownedDirectory)
        guard ended == nil else {
            if let directory { removeDirectory(directory) }
            return
        }
        kill(pid, SIGKILL)
        DispatchQueue.global().async {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            if let directory { removeDirectory(directory) }
        }
    }

    // MARK: Locating programs

    /// A program built with this package, next to the running executable (SwiftPM builds them into one
    /// directory), if it is there.
    package static func built(_ program: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let own = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = own.lastIndex(of: "/") else { return nil }
        let candidate = String(own[...slash]) + program
        return access(candidate, X_OK) == 0 ? candidate : nil
    }

    /// A program's path on PATH (socat, python3, systemd-analyze), if it is installed.
    package static func which(_ program: String) -> String? {
        searchPath.split(separator: ":").map { "\($0)/\(program)" }.first { access($0, X_OK) == 0 }
    }

    // MARK: Running

    /// Sends `signal`, unless the child has been reaped (its pid may be another process's by then).
    package func signal(_ number: Int32) {
        if ended == nil { kill(pid, number) }
    }

    /// How the child ended, or nil while it runs; reaps it.
    package func exitStatus() -> Exit? {
        if let ended { return ended }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        ended = Exit(waitStatus: status)
        return ended
    }

    /// Waits on the caller's thread, as long as it takes, for the child to end; how it ended.
    package func waitForExit() -> Exit {
        if let ended { return ended }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exit = Exit(waitStatus: status)
        ended = exit
        return exit
    }

    /// Waits up to `seconds` on the caller's thread for the child to end; how it ended, or nil.
    package func waitForExit(within seconds: Double) -> Exit? {
        _ = poll(within: seconds) { exitStatus() != nil }
        return exitStatus()
    }

    /// Waits up to `seconds`, without blocking a thread, for the child to end; how it ended, or nil.
    package func waitForExit(within seconds: Double) async -> Exit? {
        _ = await poll(within: seconds) { exitStatus() != nil }
        return exitStatus()
    }

    /// Sends `signal` and waits up to `seconds` on the caller's thread for the end, then kills the child if it
    /// still runs; how it ended after `signal`, or nil if it had to be killed.
    @discardableResult
    package func stop(_ signal: Int32 = SIGTERM, within seconds: Double = 5) -> Exit? {
        guard ended == nil else { return ended }
        self.signal(signal)
        if let exit = waitForExit(within: seconds) { return exit }
        kill9()
        return nil
    }

    /// Sends `signal` and waits up to `seconds`, without blocking a thread, for the end, then kills the child if it
    /// still runs; how it ended after `signal`, or nil if it had to be killed.
    @discardableResult
    package func stop(_ signal: Int32 = SIGTERM, within seconds: Double = 5) async -> Exit? {
        guard ended == nil else { return ended }
        self.signal(signal)
        if let exit = await waitForExit(within: seconds) { return exit }
        self.signal(SIGKILL)
        _ = await waitForExit(within: 60)
        return nil
    }

    /// kill -9, and reaps the child (a killed process ends at once).
    package func kill9() {
        guard ended == nil else { return }
        kill(pid, SIGKILL)
        _ = waitForExit(within: 60)
    }

    /// What the child has written to its standard output so far.
    package var standardOutput: String { Self.contents(of: outputPath) }

    /// What the child has written to its standard errors so far.
    package var standardError: String { Self.contents(of: errorsPath) }

    // MARK: Programs run to their end

    /// Runs `executable` to its end (killed after `seconds`), `input` as its standard input: how it ended and what
    /// it wrote.
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], input: String = "",
        within seconds: Double = 30
    ) async throws(SpawnError) -> (exit: Exit?, output: String, errors: String) {
        let child = try ChildProcess(executable, arguments, environment: environment, input: input)
        let exit = await child.waitForExit(within: seconds)
        if exit == nil { await child.stop(SIGKILL) }
        return (exit, child.standardOutput, child.standardError)
    }

    // MARK: Private

    private var ended: Exit?
    private var ownedDirectory: String?

    private static var searchPath: String { getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin" }

    private static func contents(of path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The child gets default signal dispositions and an empty signal mask, whatever this process has set: a test
    /// process blocks or ignores signals that a daemon under test must receive.
    private static func spawn(
        _ executable: String, _ arguments: [String], environment: [String], input: String, output: String,
        errors: String
    ) throws(SpawnError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw SpawnError(description: "spawn \(executable): \(String(cString: strerror(status)))")
        }
        return child
    }
}

/// Checks `condition` every millisecond on the caller's thread until it holds or `seconds` have passed; whether it
/// held.
package func poll(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while !condition() {
        if DispatchTime.now().uptimeNanoseconds > deadline { return false }
        usleep(1_000)
    }
    return true
}

/// Checks `condition` every few milliseconds, sleeping the task in between, until it holds or `seconds` have
/// passed; whether it held.
package func poll(within seconds: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while !condition() {
        if DispatchTime.now().uptimeNanoseconds > deadline { return false }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return true
}
