import Foundation
import Glibc
import Testing
import WaterfallTestSupport

/// The README's tutorial, pasted top to bottom into one fresh daemon started as the README starts it: every reply,
/// every event and every line `waterfallctl` prints must be the README's, byte for byte.
///
/// The tutorial is the README's text between `<!-- tutorial -->` and `<!-- /tutorial -->`. Its indented lines are
/// commands and what they print; `<!-- terminal: NAME -->` puts the lines up to the next paragraph in terminal
/// NAME (`daemon`, `subscriber`, `watcher`), the others are in the main terminal. A command's output is the lines
/// after it up to the next command of its terminal. `/tmp/wf.sock` stands for the test's own socket.
@Suite(
    .tags(.process, .tool),
    .enabled(if: BuiltBinary.path("waterfallctl") != nil && BuiltBinary.path("waterfalld") != nil, "not built"))
struct TutorialTests {
    /// An indented line of the tutorial: its terminal, its text and its line number in the README.
    struct Line {
        var terminal: String
        var text: String
        var number: Int
    }

    static let documentedSocket = "/tmp/wf.sock"

    @Test func theTutorialWorksPastedTopToBottom() async throws {
        let lines = try Self.tutorial()
        try #require(lines.first?.terminal == "daemon", "the tutorial must start the daemon first")
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var run = try TutorialRun(directory: directory)
        defer { run.stop() }
        var index = 0
        while index < lines.count {
            // A block may go on with what an open terminal prints next, before any command.
            let terminal = lines[index].terminal
            let command = TutorialRun.isCommand(lines[index].text, in: terminal) ? lines[index] : nil
            var output: [Line] = []
            if command != nil { index += 1 }
            while index < lines.count, lines[index].terminal == terminal,
                !TutorialRun.isCommand(lines[index].text, in: terminal)
            {
                output.append(lines[index])
                index += 1
            }
            try await run.perform(command, in: terminal, output: output)
        }
        try await run.finish()
        // The README's picture is what the tutorial's last command draws.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let drawn = try? String(contentsOfFile: directory + "/news.svg", encoding: .utf8)
        let committed = try String(contentsOf: root.appendingPathComponent("Examples/news.svg"), encoding: .utf8)
        #expect(drawn == committed, "Examples/news.svg differs from what the tutorial's `waterfallctl render` draws")
    }

    /// The tutorial's indented lines, with `/tmp/wf.sock` left as it is written.
    static func tutorial() throws -> [Line] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var lines: [Line] = []
        var inside = false
        var terminal = "main"
        for (offset, raw) in readme.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed == "<!-- tutorial -->" {
                inside = true
            } else if trimmed == "<!-- /tutorial -->" {
                break
            } else if !inside || trimmed.isEmpty {
                continue
            } else if trimmed.hasPrefix("<!-- terminal:"), trimmed.hasSuffix("-->") {
                terminal = trimmed.dropFirst("<!-- terminal:".count).dropLast(3).trimmingCharacters(in: .whitespaces)
            } else if raw.hasPrefix("    ") {
                lines.append(Line(terminal: terminal, text: String(raw.dropFirst(4)), number: offset + 1))
            } else {
                terminal = "main"
            }
        }
        return lines
    }
}

/// The terminals of one pasting of the tutorial: the daemon, the connections and processes that stay open, and a
/// directory to run commands in.
private struct TutorialRun {
    let directory: String
    let socket: String
    let environment: [String: String]
    var daemon: DaemonProcess?
    var subscriber: LineSocket?
    var watcher: ChildProcess?
    /// The lines of the watcher's output already compared.
    var watcherLines = 0

    init(directory: String) throws {
        self.directory = directory
        socket = directory + "/wf.sock"
        let binaries = try #require(BuiltBinary.path("waterfallctl")).split(separator: "/").dropLast()
        environment = ["PATH": "/" + binaries.joined(separator: "/") + ":/usr/bin:/bin", "WATERFALLD_SOCKET": socket]
    }

    /// Whether `text` is a command (not output) in `terminal`.
    static func isCommand(_ text: String, in terminal: String) -> Bool {
        switch terminal {
        case "daemon": true
        case "subscriber": text.hasPrefix("socat ") || text.hasPrefix(#"{"id""#)
        default: ["S=", "export ", "echo '", "waterfallctl "].contains { text.hasPrefix($0) }
        }
    }

    /// Runs `command` in `terminal` (nil: none, the terminal goes on printing) and compares what it prints with
    /// `output`.
    mutating func perform(
        _ command: TutorialTests.Line?, in terminal: String, output: [TutorialTests.Line]
    ) async throws {
        let text = (command?.text ?? "").replacingOccurrences(of: TutorialTests.documentedSocket, with: socket)
        let expected = output.map { $0.text.replacingOccurrences(of: TutorialTests.documentedSocket, with: socket) }
        let at = "README line \((command ?? output[0]).number)"
        switch terminal {
        case "daemon":
            let prefix = "WATERFALLD_SOCKET=\(socket) .build/release/waterfalld"
            try #require(text.hasPrefix(prefix), "\(at): the daemon must be started as \(prefix) …")
            let arguments = text.dropFirst(prefix.count).split(separator: " ").map(String.init)
            daemon = try DaemonProcess(.init(arguments: arguments, environment: environment))
            for _ in 0..<500 where access(socket, F_OK) != 0 { try await Task.sleep(for: .milliseconds(10)) }
        case "subscriber":
            if text.hasPrefix("socat ") {
                #expect(text == "socat -t 5 - UNIX-CONNECT:\(socket)", "\(at)")
                subscriber = try LineSocket(path: socket, timeout: 5)
            } else if text.hasPrefix(#"{"id""#) {
                let connection = try #require(subscriber, "\(at): no socat session is open")
                try connection.send(text + "\n")
            }
            for line in output { compare(try subscriber?.readLine(), line) }
        case "watcher":
            if text.hasPrefix("waterfallctl ") {
                watcher = try ChildProcess("/bin/sh", ["-c", "exec 2>&1; exec " + text], environment: environment)
            }
            for line in output { compare(try await watcherLine(), line) }
        default:
            if text.hasPrefix("S=") {
                #expect(text == #"S="socat -t 5 - UNIX-CONNECT:\#(socket)""#, "\(at)")
            } else if text.hasPrefix("echo '") {
                try #require(text.hasSuffix("' | $S"), "\(at): an echo is piped to $S")
                let connection = try LineSocket(path: socket, timeout: 5)
                try connection.send(String(text.dropFirst("echo '".count).dropLast("' | $S".count)) + "\n")
                for line in output { compare(try connection.readLine(), line) }
            } else if text.hasPrefix("waterfallctl ") {
                let run = try await BuiltBinary.run(
                    "/bin/sh", ["-c", "exec 2>&1; cd '\(directory)' && " + text], environment: environment)
                let printed = expected.isEmpty ? "" : expected.joined(separator: "\n") + "\n"
                #expect(run.out == printed, "\(at): \(text)")
            }
        }
    }

    /// Checks that the open terminals printed nothing the tutorial does not show.
    mutating func finish() async throws {
        if let subscriber {
            try subscriber.send(#"{"id":"sync","method":"ping"}"# + "\n")
            let line = try subscriber.readLine()
            #expect(line == #"{"jsonrpc":"2.0","id":"sync","result":{"pong":true}}"#, "the subscriber got \(line)")
        }
        if watcher != nil {
            try await Task.sleep(for: .milliseconds(200))
            let lines = watcherOutput()
            #expect(lines.count == watcherLines, "the watcher printed more: \(lines.dropFirst(watcherLines))")
        }
    }

    mutating func stop() {
        subscriber = nil
        // Killed, and reaped off this thread.
        watcher = nil
        daemon = nil
    }

    // MARK: Private

    /// Compares a line a terminal printed with the README's line (its socket path replaced).
    private func compare(_ actual: String?, _ documented: TutorialTests.Line) {
        let expected = documented.text.replacingOccurrences(of: TutorialTests.documentedSocket, with: socket)
        let printed = actual ?? "nothing"
        #expect(actual == expected, "README line \(documented.number) differs; the terminal printed:\n\(printed)")
    }

    /// The watcher's next line, once it has printed it (within 5 s).
    private mutating func watcherLine() async throws -> String? {
        for _ in 0..<500 {
            let lines = watcherOutput()
            if lines.count > watcherLines {
                watcherLines += 1
                return lines[watcherLines - 1]
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    private func watcherOutput() -> [String] {
        (watcher?.standardOutput ?? "").split(separator: "\n").map(String.init)
    }
}
