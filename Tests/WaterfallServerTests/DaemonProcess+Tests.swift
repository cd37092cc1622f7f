import Foundation
import Glibc
import WaterfallTestSupport

/// What the tests read of a spawned daemon in /proc: its memory and CPU time are its own, not the test process's.
extension DaemonProcess {
    /// A field of /proc/PID/status in bytes (`VmRSS`, `VmHWM`), or 0.
    func status(_ field: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            let words = line.dropFirst(field.count + 1).split { $0 == " " || $0 == "\t" }
            let number = words.first.flatMap { Int($0) } ?? 0
            return number * 1024
        }
        return 0
    }

    /// Resets the peak resident size (`VmHWM`) to the current one.
    func resetPeakMemory() {
        let fd = open("/proc/\(pid)/clear_refs", O_WRONLY)
        guard fd >= 0 else { return }
        _ = write(fd, "5", 1)
        close(fd)
    }

    /// The CPU time the daemon has used, user and system, in clock ticks (utime + stime of /proc/PID/stat).
    func cpuTicks() -> Int {
        let fields = statFields
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }
}

/// Runs `socat -t 5 - UNIX-CONNECT:path` with `input`, as the README tells users to, and returns its output.
func socat(_ input: String, path: String) async throws -> String {
    guard let socat = ChildProcess.which("socat") else {
        throw TestFailure("socat is not installed (.ci/run installs it)")
    }
    return try await ChildProcess.run(socat, ["-t", "5", "-", "UNIX-CONNECT:\(path)"], input: input, within: 10).output
}

/// Waits until `path` exists (the daemon has bound its socket).
func waitForFile(_ path: String, within seconds: Double = 5) async -> Bool {
    await eventually(within: seconds) { access(path, F_OK) == 0 }
}
