import Glibc

/// The built `waterfalld` under fuzzing, started, killed and restarted synchronously from the fuzzer's thread, on a
/// socket and (unless ephemeral) a state directory that survive its restarts.
package final class FuzzDaemon {
    package let socketPath: String
    package let durable: Bool
    package private(set) var pid: pid_t = 0
    /// Starts so far (the first included).
    package private(set) var starts = 0

    // MARK: Lifecycle

    /// Starts `executable` in `directory` (which must exist) with the fuzz fixture's config.
    package init(executable: String, directory: String, durable: Bool) throws(LineSocket.Failure) {
        self.executable = executable
        self.directory = directory
        self.durable = durable
        socketPath = directory + "/fuzz.sock"
        let config = directory + "/fuzz-config.json"
        let file = fopen(config, "w")
        fputs(FuzzFixture.config, file)
        fclose(file)
        arguments =
            ["--socket", socketPath, "--config", config]
            + (durable ? ["--state-dir", directory + "/state"] : ["--ephemeral"])
        try start()
    }

    deinit {
        if !reaped {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    // MARK: Package

    /// The standard error of the current (or last) process.
    package var standardError: String {
        guard let file = fopen(errorsPath, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// How the process ended ("exited 0", "killed by signal 4"), or nil while it runs.
    package func exitStatus() -> String? {
        if let ended { return ended }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        reaped = true
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as macros.
        ended = status & 0x7F == 0 ? "exited \((status >> 8) & 0xFF)" : "killed by signal \(status & 0x7F)"
        return ended
    }

    /// Waits up to `seconds` for the process to end; how it ended, or nil.
    package func waitForExit(seconds: Double) -> String? {
        for _ in 0..<Int(seconds * 100) {
            if let status = exitStatus() { return status }
            usleep(10_000)
        }
        return exitStatus()
    }

    /// kill -9, and reaps it.
    package func kill9() {
        guard !reaped else { return }
        kill(pid, SIGKILL)
        _ = waitForExit(seconds: 10)
    }

    /// Sends SIGTERM and waits: how it ended.
    package func stop() -> String? {
        guard !reaped else { return ended }
        kill(pid, SIGTERM)
        return waitForExit(seconds: 10)
    }

    /// Starts the daemon again on the same socket and state (killing the running one first).
    package func restart() throws(LineSocket.Failure) {
        kill9()
        try start()
    }

    // MARK: Private

    private let executable: String
    private let directory: String
    private let arguments: [String]
    private var reaped = false
    private var ended: String?
    private var errorsPath: String { directory + "/stderr-\(starts)" }

    private func start() throws(LineSocket.Failure) {
        starts += 1
        reaped = false
        ended = nil
        unlink(socketPath)
        do {
            pid = try ChildProcess.spawn(
                executable, arguments, environment: ["PATH=/usr/bin:/bin"], input: "/dev/null",
                output: "/dev/null", errors: errorsPath)
        } catch {
            throw LineSocket.Failure(description: error.description, closed: false)
        }
        // The socket file exists from bind on, a moment before listen: wait until a client gets in.
        for _ in 0..<2_000 {
            if (try? LineSocket(path: socketPath)) != nil { return }
            if let status = exitStatus() {
                throw LineSocket.Failure(description: "the daemon \(status): \(standardError)", closed: true)
            }
            usleep(5_000)
        }
        throw LineSocket.Failure(description: "the daemon did not listen: \(standardError)", closed: false)
    }
}
