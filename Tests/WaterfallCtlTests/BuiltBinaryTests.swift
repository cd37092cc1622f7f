import Foundation
import Glibc
import Testing
import WaterfallTestSupport

/// The built `waterfallctl` against the built `waterfalld`, as users run them.
@Suite(
    .tags(.process),
    .enabled(if: BuiltBinary.path("waterfallctl") != nil && BuiltBinary.path("waterfalld") != nil, "not built"))
struct BuiltBinaryTests {
    @Test func aSessionThroughTheBinaries() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socket = directory + "/wf.sock"
        let daemon = try DaemonProcess(
            .init(environment: ["WATERFALLD_SOCKET": socket, "STATE_DIRECTORY": directory + "/state"]))
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
        await daemon.stop()
        let gone = try await BuiltBinary.run("waterfallctl", ["ping"], environment: environment)
        #expect(gone.status == 3 && gone.err.hasPrefix("waterfallctl: cannot_connect: cannot connect to \(socket): "))
    }
}

/// The package's executables, run to their end as users run them.
enum BuiltBinary {
    /// The executable next to the test bundle (SwiftPM builds both into one directory).
    static func path(_ program: String) -> String? { ChildProcess.built(program) }

    /// Runs `program` (a program of the package, or an absolute path) to its end (at most 30 s); its exit status
    /// (-1 if it was killed) and output.
    static func run(
        _ program: String, _ arguments: [String], environment: [String: String], input: String = ""
    ) async throws -> (status: Int32, out: String, err: String) {
        let executable = try #require(program.hasPrefix("/") ? program : path(program))
        let run = try await ChildProcess.run(executable, arguments, environment: environment, input: input)
        return (run.exit?.status ?? -1, run.output, run.errors)
    }
}
