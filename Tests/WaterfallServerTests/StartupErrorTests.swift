import Foundation
import Glibc
import Testing
import WaterfallTestSupport

/// Every start-up error is one `waterfalld: …` line on stderr, the last, with the exit status the README documents.
@Suite(.tags(.process)) struct StartupErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: [String]
        /// Written to `DIR/c.json` first when set; `DIR` in arguments is the test's temporary directory.
        var config: String?
        var status: Int32
        var words: [String]

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "socket in a missing directory", arguments: ["--socket", "DIR/missing/w.sock"], status: 1,
            words: ["DIR/missing/w.sock", "DIR/missing does not exist"]),
        Case(
            name: "socket path that is a file", arguments: ["--socket", "DIR/c.json"], config: "{}", status: 1,
            words: ["DIR/c.json", "not a socket"]),
        Case(name: "unknown flag", arguments: ["--frobnicate"], status: 2, words: ["--frobnicate", "--help"]),
        Case(name: "bad log level", arguments: ["--log-level", "loud"], status: 2, words: ["loud"]),
        Case(
            name: "missing config file", arguments: ["--config", "DIR/none.json"], status: 78,
            words: ["DIR/none.json", "No such file or directory"]),
        Case(
            name: "config syntax error", arguments: ["--config", "DIR/c.json"],
            config: "{\n  \"logLevel\": \"info\",\n}",
            status: 78, words: ["DIR/c.json", "line 3, column 1"]),
        Case(
            name: "unknown config key", arguments: ["--config", "DIR/c.json"], config: #"{"maxLineByte": 100}"#,
            status: 78, words: ["'maxLineByte'"]),
        Case(
            name: "unknown group", arguments: ["--config", "DIR/c.json"],
            config: #"{"allowedGroups": ["no-such-group-here"]}"#, status: 78, words: ["no-such-group-here"]),
    ]

    @Test(arguments: cases)
    func isOneLineWithItsExitStatus(_ test: Case) async throws {
        try #require(DaemonProcess.builtDaemon != nil)
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        if let config = test.config {
            try config.write(toFile: directory + "/c.json", atomically: false, encoding: .utf8)
        }
        let arguments = test.arguments.map { $0.replacingOccurrences(of: "DIR", with: directory) }
        let process = try DaemonProcess(
            .init(arguments: arguments, environment: ["WATERFALLD_SOCKET": directory + "/w.sock"]))
        #expect(await process.waitForExit(within: 10)?.status == test.status)
        // The error is one line, the last; log lines (the state directory recovered) may come before it.
        let lines = process.standardError.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("waterfalld: ") }.count == 1, "\(lines)")
        let line = String(lines.last ?? "")
        #expect(line.hasPrefix("waterfalld: "), "\(line)")
        for word in test.words.map({ $0.replacingOccurrences(of: "DIR", with: directory) }) {
            #expect(line.contains(word), "\(line) lacks \(word)")
        }
    }

    /// A second daemon on a state directory in use refuses to start, naming the directory and the pid holding it.
    @Test func aLockedStateDirectoryIsOneLineNamingThePid() async throws {
        try #require(DaemonProcess.builtDaemon != nil)
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let state = directory + "/state"
        let first = try await DaemonProcess.start(.init(arguments: ["--state-dir", state]))
        let second = try DaemonProcess(
            .init(arguments: ["--state-dir", state, "--socket", directory + "/second.sock"]))
        #expect(await second.waitForExit(within: 10)?.status == 1)
        #expect(second.standardError == "waterfalld: state directory \(state) is in use by pid \(first.pid)\n")
        #expect(access(directory + "/second.sock", F_OK) != 0)
        #expect(await first.stop() == .exited(0))
    }
}
