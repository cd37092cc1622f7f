import Foundation
import Glibc
import Testing
import WaterfallTestSupport

/// The built `waterfallctl` against the built `waterfalld`, as users run them.
@Suite(.enabled(if: BuiltBinary.path("waterfallctl") != nil && BuiltBinary.path("waterfalld") != nil, "not built"))
struct BuiltBinaryTests {
    @Test func aSessionThroughTheBinaries() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/wf.sock"
        let daemon = try BuiltBinary(
            "waterfalld", [], environment: ["WATERFALLD_SOCKET": socket, "STATE_DIRECTORY": directory + "/state"],
            directory: directory, name: "daemon")
        defer { daemon.stop() }
        for _ in 0..<500 where access(socket, F_OK) != 0 { try await Task.sleep(for: .milliseconds(10)) }
        let environment = ["WATERFALLD_SOCKET": socket]
        let create = #"{"layout":"feed","width":375,"sections":[{"items":[{"h":120},{"h":80}]}]}"#
        #expect(try await BuiltBinary.run("waterfallctl", ["ping"], environment: environment) == (0, "pong\n", ""))
        let created = try await BuiltBinary.run(
            "waterfallctl", ["call", "layout.create", "-"], environment: environment, input: create)
        #expect(created.status == 0 && created.out.hasPrefix(#"{"seq":1,"contentSize":{"w":375,"h":120}"#))
        let list = try await BuiltBinary.run("waterfallctl", ["list"], environment: environment)
        #expect(list.out == "LAYOUT  SECTIONS  ITEMS  SEQ  WIDTHS\nfeed           1      2    1  375\n")
        let missing = try await BuiltBinary.run("waterfallctl", ["get", "nope"], environment: environment)
        #expect(missing == (1, "", "waterfallctl: not_found: params.layout: layout 'nope' does not exist\n"))
        let usage = try await BuiltBinary.run("waterfallctl", ["frobnicate"], environment: environment)
        #expect(
            usage.status == 2 && usage.err == "waterfallctl: unknown command 'frobnicate' (try 'waterfallctl --help')\n"
        )
        let svg = directory + "/feed.svg"
        let render = try await BuiltBinary.run(
            "waterfallctl", ["render", "feed", "--output", svg], environment: environment)
        #expect(render.status == 0)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("feed  ·  seq 1"))
        daemon.stop()
        let gone = try await BuiltBinary.run("waterfallctl", ["ping"], environment: environment)
        #expect(gone.status == 3 && gone.err.hasPrefix("waterfallctl: cannot_connect: cannot connect to \(socket): "))
    }
}

/// A built executable of the package, run with posix_spawn and its output in files.
final class BuiltBinary: @unchecked Sendable {
    let pid: pid_t
    let directory: String
    let name: String
    private var reaped = false

    /// The executable next to the test bundle (SwiftPM builds both into one directory).
    static func path(_ program: String) -> String? {
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidate = directory.appendingPathComponent(program).path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    init(
        _ program: String, _ arguments: [String], environment: [String: String], directory: String, name: String,
        input: String = ""
    ) throws {
        self.directory = directory
        self.name = name
        // A program of the package, or any executable by its absolute path (a shell).
        let executable = try #require(program.hasPrefix("/") ? program : Self.path(program))
        try input.write(toFile: "\(directory)/\(name).in", atomically: false, encoding: .utf8)
        pid = try ChildProcess.spawn(
            executable, arguments, environment: environment.map { "\($0.key)=\($0.value)" },
            input: "\(directory)/\(name).in", output: "\(directory)/\(name).out", errors: "\(directory)/\(name).err")
    }

    deinit { stop() }

    /// Runs `program` (a program of the package, or an absolute path) to its end (at most 30 s); its exit status and
    /// output.
    static func run(
        _ program: String, _ arguments: [String], environment: [String: String], input: String = ""
    ) async throws -> (status: Int32, out: String, err: String) {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let child = try BuiltBinary(
            program, arguments, environment: environment, directory: directory, name: "run", input: input)
        let status = await child.waitForExit(within: 30)
        return (
            status ?? -1, (try? String(contentsOfFile: "\(directory)/run.out", encoding: .utf8)) ?? "",
            (try? String(contentsOfFile: "\(directory)/run.err", encoding: .utf8)) ?? ""
        )
    }

    /// The exit status once the child exits (nil if it is still running after `seconds`, or was killed).
    func waitForExit(within seconds: Double) async -> Int32? {
        for _ in 0..<Int(seconds * 200) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                // WIFEXITED / WEXITSTATUS, which Swift does not import as macros.
                return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// SIGTERM, then waits for the exit (SIGKILL after 5 s).
    func stop() {
        guard !reaped else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<500 {
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                return
            }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        reaped = true
    }
}
