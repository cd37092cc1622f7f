import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// A parsed command line: the global options, the command, its positional arguments and options.
package struct Invocation: Sendable, Equatable {
    package var socket: String?
    package var json = false
    /// `--exact`: numbers in tables with all their digits.
    package var exact = false
    package var timeout: Double = 30
    /// nil: `--help` or `help` without a command.
    package var command: Command?
    /// `--help` after a command, or `help COMMAND`.
    package var wantsHelp = false
    package var arguments: [String] = []
    package var options: [String: String] = [:]

    // MARK: Lifecycle

    /// Parses `arguments` (without the program name). Global options may come before or after the command;
    /// both `--flag value` and `--flag=value` work.
    package init(parsing arguments: [String]) throws(UsageError) {
        var rest = arguments[...]
        var positionals: [String] = []
        var sawHelp = false
        while let argument = rest.popFirst() {
            if argument == "--" {
                positionals += rest
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                if command == nil && positionals.isEmpty {
                    guard let named = Command(rawValue: argument) else {
                        throw UsageError("unknown command '\(argument)'\(Self.commandHint(argument))", command: nil)
                    }
                    command = named
                } else {
                    positionals.append(argument)
                }
                continue
            }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inline { return inline }
                guard let next = rest.popFirst() else { throw UsageError("\(name) needs a value", command: command) }
                return next
            }
            switch name {
            case "--help", "-h": sawHelp = true
            case "--json": json = true
            case "--exact": exact = true
            case "--socket":
                let path = try value()
                guard !path.isEmpty else { throw UsageError("--socket: the path is empty", command: command) }
                socket = path
            case "--timeout":
                let text = try value()
                guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
                    throw UsageError("--timeout: '\(text)' is not a number of seconds > 0", command: command)
                }
                timeout = seconds
            default:
                guard let command, let option = command.options.first(where: { $0.name == name }) else {
                    let known = (CommandOption.global + (command?.options ?? [])).map(\.name)
                    throw UsageError(
                        "unknown option '\(name)'\(NearestName.hint(for: name, among: known))", command: command)
                }
                options[name] = option.value == nil ? "" : try value()
            }
            // A switch has no value: `--json=yes` is a mistake, not a way to say it.
            if inline != nil, Self.switches(of: command).contains(name) {
                throw UsageError("\(name) takes no value", command: command)
            }
        }
        if command == .help {
            guard positionals.count <= 1 else { throw UsageError("help takes at most one command", command: .help) }
            if let name = positionals.first {
                guard let named = Command(rawValue: name) else {
                    throw UsageError("unknown command '\(name)'\(Self.commandHint(name))", command: .help)
                }
                command = named
                wantsHelp = true
            } else if sawHelp {
                wantsHelp = true
            } else {
                command = nil
            }
            return
        }
        wantsHelp = sawHelp
        guard let command else {
            if sawHelp { return }
            throw UsageError("no command given", command: nil)
        }
        if sawHelp { return }
        guard command.positionals.contains(positionals.count) else {
            let expected = command.positionals
            let what =
                positionals.count < expected.lowerBound
                ? "\(command.rawValue) needs \(command.usage.split(separator: " ").first ?? "an argument")"
                : "\(command.rawValue): unexpected argument '\(positionals[expected.upperBound])'"
            throw UsageError(what, command: command)
        }
        self.arguments = positionals
        for option in command.options where option.required && options[option.name] == nil {
            throw UsageError("\(command.rawValue) needs \(option.synopsis)", command: command)
        }
    }

    /// The "did you mean" for `name`, which no command has: the nearest command's name, or nothing.
    private static func commandHint(_ name: String) -> String {
        NearestName.hint(for: name, among: Command.allCases.map(\.rawValue))
    }

    /// The names of the options without a value that `command` (or none yet, while parsing) accepts.
    private static func switches(of command: Command?) -> [String] {
        (CommandOption.global + (command?.options ?? [])).filter { $0.value == nil }.map(\.name) + ["-h"]
    }

    // MARK: Internal

    /// The rect of option `name` (`X,Y,W,H`), if given.
    func rect(_ name: String) throws(UsageError) -> Rect? {
        guard let text = options[name] else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmed) }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let w = parts[2], let h = parts[3],
            [x, y, w, h].allSatisfy(\.isFinite), w >= 0, h >= 0
        else {
            throw UsageError("\(name): '\(text)' is not X,Y,W,H (four numbers, W and H ≥ 0)", command: command)
        }
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// The viewport of `--viewport` (`Y,H`: finite numbers, H > 0), if given.
    func viewport() throws(UsageError) -> Viewport? {
        guard let text = options["--viewport"] else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmed) }
        guard parts.count == 2, let y = parts[0], let h = parts[1], y.isFinite, h.isFinite, h > 0 else {
            throw UsageError("--viewport: '\(text)' is not Y,H (two numbers, H > 0)", command: command)
        }
        return Viewport(y: y, height: h)
    }

    /// The order of `--order` (`document` or `reading`), document when not given.
    func order() throws(UsageError) -> ElementOrder {
        guard let text = options["--order"] else { return .document }
        guard let order = ElementOrder(rawValue: text) else {
            throw UsageError("--order: '\(text)' is not document or reading", command: command)
        }
        return order
    }

    /// The section indices of `--sections` (`0,2`), if given.
    func sections() throws(UsageError) -> [Int]? {
        guard let text = options["--sections"] else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmed) }
        guard !parts.isEmpty, parts.allSatisfy({ ($0 ?? -1) >= 0 }) else {
            throw UsageError("--sections: '\(text)' is not a list of section indices like 0,2", command: command)
        }
        return parts.compactMap { $0 }
    }

    /// The number of option `name` (a width in px, 0 < it ≤ 100000), if given.
    func pixels(_ name: String) throws(UsageError) -> Double? {
        guard let text = options[name] else { return nil }
        guard let value = Double(text), value > 0, value <= 100_000 else {
            throw UsageError("\(name): '\(text)' is not a number of pixels in 0...100000", command: command)
        }
        return value
    }

    /// The count of option `name` (an integer ≥ 0), if given.
    func count(_ name: String) throws(UsageError) -> Int? {
        guard let text = options[name] else { return nil }
        guard let value = Int(text), value >= 0 else {
            throw UsageError("\(name): '\(text)' is not an integer ≥ 0", command: command)
        }
        return value
    }

    /// The picture's width of `render --image-width`, if given.
    func imageWidth() throws(UsageError) -> Double? {
        guard let text = options["--image-width"] else { return nil }
        guard let width = Double(text), width > 0, width <= 100_000 else {
            throw UsageError("--image-width: '\(text)' is not a number of pixels in 1...100000", command: command)
        }
        return width
    }

    /// The layout width of `--width` (which of the layout's widths the frames are at), if given: a finite number
    /// > 0; whether the layout has it is the daemon's to say.
    func layoutWidth() throws(UsageError) -> Double? {
        guard let text = options["--width"] else { return nil }
        guard let width = Double(text), width.isFinite, width > 0 else {
            throw UsageError("--width: '\(text)' is not a width (a number > 0)", command: command)
        }
        return width
    }

    /// The item of `--item` (`S,I`: its section and its index, integers ≥ 0), if given.
    func item() throws(UsageError) -> ItemPath? {
        guard let text = options["--item"] else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmed) }
        guard parts.count == 2, let section = parts[0], let index = parts[1], section >= 0, index >= 0 else {
            throw UsageError(
                "--item: '\(text)' is not S,I (a section and an item index, integers ≥ 0)", command: command)
        }
        return ItemPath(section: section, item: index)
    }
}

/// A command line that cannot be run: exit status 2, with the message and where to find help.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var command: Command?

    package init(_ message: String, command: Command?) {
        self.message = message
        self.command = command
    }

    package var description: String { message }

    /// What waterfallctl prints: one line, with where to find help (as waterfalld and waterfall-bench do).
    package var line: String {
        let hint = command.map { "waterfallctl help \($0.rawValue)" } ?? "waterfallctl --help"
        return "waterfallctl: \(message) (try '\(hint)')\n"
    }
}

extension Substring {
    /// Without leading and trailing spaces.
    var trimmed: Substring {
        var s = self
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return s
    }
}
