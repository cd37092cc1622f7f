import Foundation
import Testing
import WaterfallCommandLine
import WaterfallJSON

/// The completion scripts: valid for their shell, complete with respect to the declarations `--help` reads, and
/// (in bash, always at hand) offering what the line needs, layouts from a running daemon included.
@Suite struct CompletionScriptTests {
    /// The shell's executable, or nil when it is not installed (CI installs zsh and fish; a machine without them
    /// skips their syntax check, and the test says so).
    static func shellPath(_ shell: CompletionScript.Shell) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + shell.rawValue }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(arguments: CompletionScript.Shell.allCases)
    func theScriptIsValidForItsShell(_ shell: CompletionScript.Shell) async throws {
        guard let path = Self.shellPath(shell) else {
            print("note: \(shell.rawValue) is not installed; its completion script's syntax is not checked")
            return
        }
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/waterfallctl.\(shell.rawValue)"
        try CompletionScript.script(for: shell).write(toFile: file, atomically: false, encoding: .utf8)
        let check = try await BuiltBinary.run(path, ["-n", file], environment: ["PATH": "/usr/bin:/bin"])
        #expect(check.status == 0 && check.err.isEmpty, "\(shell.rawValue) -n: \(check.err)")
    }

    /// Every command, every option (global and each command's) and every word an argument may be is in the script:
    /// they come from the declarations that `--help` prints, so the two cannot drift apart.
    @Test(arguments: CompletionScript.Shell.allCases)
    func theScriptListsEveryCommandAndOption(_ shell: CompletionScript.Shell) {
        let script = CompletionScript.script(for: shell)
        // fish names long options without their dashes (`-l rect`).
        func spelled(_ option: CommandOption) -> String {
            shell == .fish ? "-l \(option.name.dropFirst(2))" : option.name
        }
        for command in Command.allCases {
            #expect(script.contains(command.rawValue), "\(shell.rawValue) lacks \(command.rawValue)")
            for option in command.options {
                #expect(script.contains(spelled(option)), "\(shell.rawValue) lacks \(command.rawValue) \(option.name)")
            }
        }
        for option in CommandOption.global {
            #expect(script.contains(spelled(option)), "\(shell.rawValue) lacks \(option.name)")
        }
        for method in ["layout.create", "items.update", "query"] { #expect(script.contains(method)) }
        #expect(script.contains("list --names"))
    }

    /// (words on the line, the last being completed; what bash offers)
    static let bashCases: [([String], [String])] = [
        ([""], Command.allCases.map(\.rawValue)),
        (["--socket", "/x", "ge"], ["get"]),
        (["--js"], ["--json"]),
        (["get", "feed", "--"], CommandOption.global.map(\.name) + ["--sections"]),
        (["call", "layout.d"], ["layout.drop"]),
        (["completion", ""], ["bash", "zsh", "fish"]),
        (["help", "re"], ["render"]),
        (["query", "feed", "--rect", ""], []),
        (["get", "f"], ["feed"]),
        (["--timeout", "3", "watch", ""], ["feed", "photos"]),
    ]

    @Test(.enabled(if: BuiltBinary.path("waterfallctl") != nil, "waterfallctl is not built"))
    func bashOffersCommandsOptionsAndLayouts() async throws {
        try await InProcessDaemon.with { daemon in
            for name in ["feed", "photos"] {
                _ = await WaterfallCtlTests.run(
                    ["call", "layout.create", #"{"layout":"\#(name)","width":10}"#], socket: daemon.path)
            }
            let binaries = try #require(BuiltBinary.path("waterfallctl")).split(separator: "/").dropLast()
                .joined(separator: "/")
            let probes = Self.bashCases.map { words, _ in
                let line = (["waterfallctl"] + words).map { "'\($0)'" }.joined(separator: " ")
                return "probe \(line)"
            }
            let program = """
                source /dev/stdin <<'SCRIPT'
                \(CompletionScript.script(for: .bash))
                SCRIPT
                probe() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _waterfallctl; echo "${COMPREPLY[*]}"; }
                \(probes.joined(separator: "\n"))
                """
            let run = try await BuiltBinary.run(
                "/bin/bash", ["-c", program],
                environment: ["PATH": "/\(binaries):/usr/bin:/bin", "WATERFALLD_SOCKET": daemon.path])
            #expect(run.status == 0 && run.err.isEmpty, "\(run.err)")
            let offered = run.out.split(separator: "\n", omittingEmptySubsequences: false).map {
                Set($0.split(separator: " ").map(String.init))
            }
            for (k, (words, expected)) in Self.bashCases.enumerated() {
                #expect(k < offered.count && offered[k] == Set(expected), "\(words)")
            }
        }
    }
}
