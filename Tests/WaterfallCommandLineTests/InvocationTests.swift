import Testing
import WaterfallCommandLine
import WaterfallProtocol
import WaterfallWire

@Suite struct InvocationTests {
    struct Good: Sendable, CustomTestStringConvertible {
        var line: [String]
        var check: @Sendable (Invocation) -> Bool
        var testDescription: String { line.joined(separator: " ") }
    }

    static let good: [Good] = [
        Good(line: ["ping"]) { $0.command == .ping && !$0.json && $0.timeout == 30 && $0.socket == nil },
        Good(line: ["--socket", "/s", "--json", "--timeout", "2.5", "list"]) {
            $0.command == .list && $0.json && $0.timeout == 2.5 && $0.socket == "/s"
        },
        Good(line: ["get", "feed", "--sections=0,2", "--json"]) {
            $0.command == .get && $0.arguments == ["feed"] && $0.options["--sections"] == "0,2" && $0.json
        },
        Good(line: ["query", "feed", "--rect", "0,100,375,100"]) { $0.options["--rect"] == "0,100,375,100" },
        Good(line: ["call", "items.delete", "-"]) { $0.arguments == ["items.delete", "-"] },
        Good(line: ["call", "ping"]) { $0.arguments == ["ping"] },
        Good(line: ["render", "feed", "--image-width", "800", "--output", "f.svg", "--width", "820"]) {
            $0.options == ["--image-width": "800", "--output": "f.svg", "--width": "820"]
        },
        Good(line: ["get", "feed", "--width=820"]) { $0.options == ["--width": "820"] },
        Good(line: ["query", "feed", "--rect", "0,0,1,1", "--width", "820"]) { $0.options["--width"] == "820" },
        Good(line: ["neighbors", "feed", "--item", "0,3", "--width", "820"]) {
            $0.command == .neighbors && $0.options == ["--item": "0,3", "--width": "820"]
        },
        Good(line: ["watch", "feed", "--width", "820"]) { $0.options == ["--width": "820"] },
        Good(line: ["help", "get"]) { $0.command == .get && $0.wantsHelp },
        Good(line: ["get", "--help"]) { $0.command == .get && $0.wantsHelp },
        Good(line: ["--help"]) { $0.command == nil },
        Good(line: ["get", "feed", "--exact"]) { $0.exact && !$0.json },
        Good(line: ["list", "--names"]) { $0.options == ["--names": ""] },
        Good(line: ["completion", "zsh"]) { $0.command == .completion && $0.arguments == ["zsh"] },
        Good(line: ["help"]) { $0.command == nil },
    ]

    @Test(arguments: good)
    func parses(_ testCase: Good) throws {
        #expect(testCase.check(try Invocation(parsing: testCase.line)))
    }

    @Test(arguments: [
        (["frobnicate"], "unknown command 'frobnicate'"),
        ([], "no command given"),
        (["get"], "get needs LAYOUT"),
        (["get", "a", "b"], "get: unexpected argument 'b'"),
        (["ping", "--rect", "1,2,3,4"], "unknown option '--rect'"),
        (["--timeout", "0", "ping"], "--timeout: '0' is not a number of seconds > 0"),
        (["--timeout"], "--timeout needs a value"),
        (["--socket=", "ping"], "--socket: the path is empty"),
        (["query", "feed"], "query needs --rect X,Y,W,H"),
        (["neighbors", "feed"], "neighbors needs --item S,I"),
        // Only a command whose method takes `width` has `--width`.
        (["export", "feed", "--width", "820"], "unknown option '--width'"),
        (["css", "feed", "--min", "1", "--max", "2", "--width", "3"], "unknown option '--width'"),
        (["help", "nope"], "unknown command 'nope'"),
        (["call"], "call needs METHOD"),
        (["--json=yes", "ping"], "--json takes no value"),
        (["list", "--names=a"], "--names takes no value"),
        (["get", "feed", "--names"], "unknown option '--names'"),
        (["completion"], "completion needs SHELL"),
        // A misspelt command or option names the nearest one.
        (["rendr", "feed"], "unknown command 'rendr'; did you mean 'render'?"),
        (["help", "stat"], "unknown command 'stat'; did you mean 'stats'?"),
        (["--sokcet", "/s", "ping"], "unknown option '--sokcet'; did you mean '--socket'?"),
        (["get", "feed", "--section", "0"], "unknown option '--section'; did you mean '--sections'?"),
    ])
    func refuses(_ line: [String], _ message: String) {
        #expect {
            try Invocation(parsing: line)
        } throws: { error in
            (error as? UsageError)?.message == message
        }
    }

    /// Every option the declarations list (and so `--help` and the completion scripts offer) parses, with a value
    /// where it takes one.
    @Test(arguments: Command.allCases)
    func everyDeclaredOptionParses(_ command: Command) throws {
        let positionals = command.arguments.filter { !$0.optional }.map { _ in "x" }
        for option in CommandOption.global + command.options where option.name != "--help" {
            let value = option.value.map { _ in option.name == "--timeout" ? "2" : "1,2,3,4" }
            let required = command.options.filter { $0.required && $0.name != option.name }.flatMap { [$0.name, "v"] }
            let line = [command.rawValue] + positionals + [option.name] + (value.map { [$0] } ?? []) + required
            let invocation = try Invocation(parsing: line)
            // `help` without a command means the overview.
            #expect(invocation.command == (command == .help ? nil : command), "\(line)")
        }
    }

    /// `--width` is a flag of exactly the commands whose method's declaration takes `width`, with that param's
    /// summary as its help.
    @Test(arguments: Command.allCases)
    func theWidthFlagFollowsTheMethodDeclarations(_ command: Command) {
        let declared = command.method.flatMap { method in
            MethodTable.declaration(method).params.first { $0.name == "width" }
        }
        let flag = command.options.first { $0.name == "--width" }
        #expect((flag != nil) == (declared != nil), "\(command.rawValue)")
        #expect(flag?.help == declared?.summary)
    }
}
