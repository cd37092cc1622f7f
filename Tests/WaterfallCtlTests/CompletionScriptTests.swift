import Foundation
import Testing
import WaterfallCommandLine
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport
import WaterfallTestSupport

/// The completion scripts: valid for their shell, complete with respect to the declarations `--help` reads, and
/// (in bash, always at hand) offering what the line needs, layouts from a running daemon included.
@Suite(.tags(.server, .process, .tool)) struct CompletionScriptTests {
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

    /// (words on the line, the last being completed; what the shell offers)
    static let cases: [([String], [String])] = [
        ([""], Command.allCases.map(\.rawValue)),
        (["--socket", "/x", "ge"], ["get"]),
        (["--socket=/x", "--timeout", "3", "ge"], ["get"]),
        (["--js"], ["--json"]),
        (["get", "feed", "--"], CommandOption.global.map(\.name) + ["--sections", "--width"]),
        (["call", "layout.d"], ["layout.drop"]),
        (["completion", ""], ["bash", "zsh", "fish"]),
        (["help", "re"], ["render"]),
        (["query", "feed", "--rect", ""], []),
        (["get", "f"], ["feed"]),
        (["--timeout", "3", "watch", ""], ["feed", "photos"]),
    ]

    /// A program for `shell` that loads the script and prints, for each case, the words offered and a line `.`.
    /// bash runs its completion function as `complete -F` would; zsh runs it with stand-ins for the completion
    /// system's `compadd`, `_describe` and `_files` (which need an interactive shell), filtering by the word
    /// typed as it would; fish asks its own completion engine (`complete -C`).
    static func probeProgram(_ shell: CompletionScript.Shell, script path: String) -> String {
        let script = "source \(path)\n"
        let lines = cases.map { words, _ in ["waterfallctl"] + words }
        switch shell {
        case .bash:
            return script + """
                probe() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _waterfallctl; printf '%s\\n' "${COMPREPLY[@]}" .; }

                """ + lines.map { "probe " + $0.map { "'\($0)'" }.joined(separator: " ") }.joined(separator: "\n")
        case .zsh:
            return "compdef() { :; }\n" + script + """
                compadd() {
                    [[ $1 == -- ]] && shift
                    local w
                    for w in "$@"; do [[ $w == ${words[CURRENT]}* ]] && print -r -- $w; done
                }
                _describe() { local -a items=("${(@P)2}"); compadd -- "${items[@]%%:*}"; }
                _files() { print -r -- FILES; }
                probe() { words=("$@"); CURRENT=$#; _waterfallctl; print -r -- .; }

                """ + lines.map { "probe " + $0.map { "'\($0)'" }.joined(separator: " ") }.joined(separator: "\n")
        case .fish:
            return script + lines.map { "complete -C '\($0.joined(separator: " "))'; echo ." }.joined(separator: "\n")
        }
    }

    @Test(
        .enabled(if: BuiltBinary.path("waterfallctl") != nil, "waterfallctl is not built"),
        arguments: CompletionScript.Shell.allCases)
    func theShellOffersCommandsOptionsAndLayouts(_ shell: CompletionScript.Shell) async throws {
        guard let path = Self.shellPath(shell) else {
            print("note: \(shell.rawValue) is not installed; its completion script is not run")
            return
        }
        try await InProcessDaemon.with { daemon in
            for name in ["feed", "photos"] {
                _ = await CommandTests.run(
                    ["call", "layout.create", #"{"layout":"\#(name)","width":10}"#], socket: daemon.path)
            }
            let binaries = try #require(BuiltBinary.path("waterfallctl")).split(separator: "/").dropLast()
                .joined(separator: "/")
            let directory = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let file = directory + "/probe"
            let script = directory + "/waterfallctl.\(shell.rawValue)"
            try CompletionScript.script(for: shell).write(toFile: script, atomically: false, encoding: .utf8)
            try Self.probeProgram(shell, script: script).write(toFile: file, atomically: false, encoding: .utf8)
            let run = try await BuiltBinary.run(
                path, shell == .zsh ? ["-f", file] : [file],
                environment: [
                    "PATH": "/\(binaries):/usr/bin:/bin", "WATERFALLD_SOCKET": daemon.path, "HOME": directory,
                ])
            #expect(run.status == 0 && run.err.isEmpty, "\(run.err)")
            // One word a line (fish adds a tab and the word's description), each case ended by a line ".".
            var offered: [Set<String>] = [[]]
            for line in run.out.split(separator: "\n") {
                if line == "." {
                    offered.append([])
                } else if let word = line.split(separator: "\t").first {
                    offered[offered.count - 1].insert(String(word))
                }
            }
            for (k, (words, expected)) in Self.cases.enumerated() {
                #expect(k < offered.count && offered[k] == Set(expected), "\(shell.rawValue): \(words)")
            }
        }
    }
}
