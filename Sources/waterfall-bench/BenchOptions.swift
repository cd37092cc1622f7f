import Foundation
import WaterfallTestSupport

/// The benchmark's command line, parsed before anything runs: a mistyped flag must not start minutes of work.
struct BenchOptions: Equatable {
    /// What the command line asks for.
    enum Action: Equatable {
        /// Run the scenarios.
        case run
        /// Print the usage.
        case help
        /// `--serve [FLAGS]`: be the daemon of a scenario (`DaemonProcess.bench`), with waterfalld's flags and
        /// environment.
        case serve(flags: [String])
    }

    /// A flag the benchmark takes: its name, its value's placeholder (nil for a switch) and its help.
    struct Flag {
        var name: String
        var value: String?
        var help: String
    }

    /// The scenarios, in the order they run.
    static let scenarios = [
        "kernel", "incremental", "parallel", "query", "diff", "e2e", "wire", "viewport", "scopeddelete", "widths",
        "aspectwidths", "client", "json",
        "numparse", "numformat", "memory", "storage", "stages", "durability", "recovery", "layouts", "tiebreak",
        "spans", "stamps", "weights", "lookahead", "reflow", "css",
        "floor", "profile", "simdjson",
        "fuzz", "soak",
    ]

    /// Every flag but the internal `--serve`: the parser and `--help` both read this list.
    static let flags = [
        Flag(name: "--quick", help: "smaller sizes and fewer runs (a few minutes instead of ten or more)"),
        Flag(name: "--only", value: "NAME,…", help: "only these scenarios (listed below, and run in that order)"),
        Flag(
            name: "--columns", value: "N,…",
            help: "the column counts of the kernel, tiebreak, spans, stamps, weights and lookahead scenarios"),
        Flag(
            name: "--report", value: "PATH",
            help: "also write every table with the machine, toolchain, date and command to PATH (Markdown)"),
        Flag(name: "--help", help: "print this help and exit"),
    ]

    var action = Action.run
    var quick = false
    /// nil: every scenario.
    var only: [String]?
    var columns: [Int]?
    /// Where `--report` writes the run's report (`BenchReport`); nil: nowhere.
    var report: String?

    /// Parses arguments without the program name; `--flag value` and `--flag=value` both work.
    ///
    /// - Throws: the one-line message for a flag that is unknown, lacks its value or has a bad one.
    static func parse(_ arguments: [String]) throws(UsageError) -> BenchOptions {
        var options = BenchOptions()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            var name = argument
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            if name == "--serve" {
                // Everything after it is waterfalld's, checked by its own parser.
                guard inline == nil else { throw UsageError("--serve takes no value") }
                options.action = .serve(flags: Array(rest))
                return options
            }
            guard let flag = flags.first(where: { $0.name == name || (name == "-h" && $0.name == "--help") }) else {
                throw UsageError("unknown argument '\(argument)'")
            }
            let value: String?
            if flag.value == nil {
                guard inline == nil else { throw UsageError("\(name) takes no value") }
                value = nil
            } else {
                guard let given = inline ?? rest.popFirst(), !given.isEmpty else {
                    throw UsageError("\(name) needs a value (\(flag.value!))")
                }
                value = given
            }
            switch flag.name {
            case "--quick": options.quick = true
            case "--help": options.action = .help
            case "--only":
                let names = value!.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                for name in names where !scenarios.contains(name) {
                    throw UsageError(
                        "unknown scenario '\(name)'; the scenarios are \(scenarios.joined(separator: ", "))")
                }
                options.only = names
            case "--columns":
                let counts = value!.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
                guard counts.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 1024 }) else {
                    throw UsageError("--columns: '\(value!)' is not a list of column counts in 1...1024 like 2,8")
                }
                options.columns = counts.compactMap { $0 }
            case "--report": options.report = value
            default: break
            }
        }
        return options
    }

    /// The `--help` text.
    static var usage: String {
        let width = flags.map { $0.name.count + ($0.value.map { $0.count + 1 } ?? 0) }.max() ?? 0
        let lines = flags.map { flag in
            let synopsis = flag.name + (flag.value.map { " " + $0 } ?? "")
            return "  " + synopsis + String(repeating: " ", count: width - synopsis.count) + "  " + flag.help
        }
        return """
            usage: waterfall-bench \(flags.map { "[\($0.name)\($0.value.map { " " + $0 } ?? "")]" }.joined(separator: " "))

            Measures the engine, the protocol and the daemon, and prints one table of figures and ratios
            (build with -c release: swift run -c release waterfall-bench).

            \(lines.joined(separator: "\n"))

            Scenarios: \(scenarios.joined(separator: ", ")).

            Exit status: 0 done, 2 bad flags.
            """
    }

    /// A command line that cannot run: one line on stderr and exit status 2.
    struct UsageError: Error, Equatable {
        var message: String
        init(_ message: String) { self.message = message }
    }
}
