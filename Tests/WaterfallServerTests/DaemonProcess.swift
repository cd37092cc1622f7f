import Foundation
import Glibc
import WaterfallTestSupport

/// A child process (the built `waterfalld`, socat, systemd-socket-activate) with its output in files.
///
/// Spawned with posix_spawn and reaped with `waitpid(WNOHANG)`: Foundation's `Process` sometimes missed the
/// exit of a short-lived child here while other tests ran.
final class DaemonProcess: @unchecked Sendable {
    // MARK: Lifecycle

    /// Starts `executable`; `environment` is added to PATH (see `ChildProcess.spawn`).
    init(executable: String, arguments: [String], environment: [String: String], input: String = "") throws {
        directory = try makeTemporaryDirectory()
        let stdinPath = directory + "/stdin"
        try input.write(toFile: stdinPath, atomically: false, encoding: .utf8)
        var fullEnvironment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        // The daemon keeps its state in a private directory of this child's, never in the user's
        // ~/.local/state, unless the test names one (or says --ephemeral).
        if executable == Self.daemonPath, !arguments.contains(where: { $0.hasPrefix("--state-dir") }) {
            fullEnvironment["STATE_DIRECTORY"] = directory + "/state"
        }
        fullEnvironment.merge(environment) { $1 }
        pid = try ChildProcess.spawn(
            executable, arguments, environment: fullEnvironment.map { "\($0.key)=\($0.value)" }, input: stdinPath,
            output: directory + "/stdout", errors: directory + "/stderr")
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        removeDirectory(directory)
    }

    // MARK: Internal

    let pid: pid_t

    /// The built daemon next to the test bundle (SwiftPM puts both in the same directory), if it exists.
    static let daemonPath: String? = {
        let bundleDirectory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent()
        let candidate = bundleDirectory.appendingPathComponent("waterfalld").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }()

    /// A program's path on PATH, for tests that need socat or systemd-socket-activate.
    static func which(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func signal(_ number: Int32) { kill(pid, number) }

    /// Waits up to `seconds` for the child to exit; its exit status (nil if still running or killed by a signal).
    func waitForExit(within seconds: Double) async -> (status: Int32?, elapsed: Double) {
        let start = Date()
        while exitStatus == nil, Date().timeIntervalSince(start) < seconds {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                // WIFEXITED / WEXITSTATUS, which Swift does not import as macros.
                exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : -1
                break
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return (exitStatus.flatMap { $0 >= 0 ? $0 : nil }, Date().timeIntervalSince(start))
    }

    func standardError() -> String { (try? String(contentsOfFile: directory + "/stderr", encoding: .utf8)) ?? "" }

    func standardOutput() -> String { (try? String(contentsOfFile: directory + "/stdout", encoding: .utf8)) ?? "" }

    /// Runs `socat -t 5 - UNIX-CONNECT:path` with `input`, as the README tells users to, and returns its output.
    static func socat(_ input: String, path: String) async throws -> String {
        guard let socat = which("socat") else { throw TestFailure("socat is not installed (.ci/run installs it)") }
        let child = try DaemonProcess(
            executable: socat, arguments: ["-t", "5", "-", "UNIX-CONNECT:\(path)"], environment: [:], input: input
        )
        _ = await child.waitForExit(within: 10)
        return child.standardOutput()
    }

    // MARK: Private

    private let directory: String
    private var exitStatus: Int32?
}

/// Waits until `path` exists (the daemon has bound its socket).
func waitForFile(_ path: String, within seconds: Double = 5) async -> Bool {
    await eventually(within: seconds) { access(path, F_OK) == 0 }
}
