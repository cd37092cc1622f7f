import Foundation
import Glibc
import WaterfallTestSupport

/// The built `waterfalld` run as a child on a socket in a fresh directory, with what /proc says about it: its
/// memory and CPU time are its own, not the test process's.
final class SpawnedDaemon: @unchecked Sendable {
    // MARK: Lifecycle

    /// Starts the daemon and waits for its socket; `config` is written to a file and passed with `--config`.
    init(config: String? = nil, arguments: [String] = []) async throws {
        guard let daemon = DaemonProcess.daemonPath else {
            throw TestFailure("the built waterfalld is not next to the tests (swift build builds it)")
        }
        directory = try makeTemporaryDirectory()
        path = directory + "/waterfalld.sock"
        var flags = arguments
        if let config {
            try config.write(toFile: directory + "/config.json", atomically: false, encoding: .utf8)
            flags += ["--config", directory + "/config.json"]
        }
        process = try DaemonProcess(executable: daemon, arguments: flags, environment: ["WATERFALLD_SOCKET": path])
        // The file exists from bind on, a moment before listen: wait until a client gets in.
        let path = self.path
        guard await waitForFile(path, within: 10),
            await eventually(within: 10, { (try? TestClient(path: path)) != nil })
        else {
            throw TestFailure("the daemon did not listen on \(path): \(process.standardError())")
        }
    }

    deinit { removeDirectory(directory) }

    // MARK: Internal

    let process: DaemonProcess
    let directory: String
    let path: String

    var pid: pid_t { process.pid }

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
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return 0 }
        // After "pid (comm)": state is field 3, utime 14 and stime 15.
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }

    /// Clock ticks per second.
    static let ticksPerSecond = Int(sysconf(Int32(_SC_CLK_TCK)))

    /// Sends `signal` and waits for the exit; the exit status, or nil if it did not exit in time.
    func stop(_ signal: Int32 = SIGTERM, within seconds: Double = 5) async -> Int32? {
        process.signal(signal)
        return await process.waitForExit(within: seconds).status
    }
}

extension TestClient {
    /// `layout.create` of one two-column section of `items` items of assorted heights, without a diff.
    func createLayout(_ name: String, items: Int) async throws {
        var text = #"{"id":"create","method":"layout.create","params":{"layout":""# + name
        text += #"","width":375,"diff":false,"defaults":{"columns":2},"sections":[{"items":["#
        text.reserveCapacity(text.utf8.count + items * 9)
        for i in 0..<items {
            if i > 0 { text += "," }
            text += #"{"h":"# + String(40 + i % 97) + "}"
        }
        text += "]}]}}\n"
        try await write(text)
        guard let reply = try await readLines(1).first, reply.contains(#""seq":1"#) else {
            throw TestFailure("layout.create of \(items) items failed")
        }
    }
}
