@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallWire

/// The daemon's flags; they override the config file, which overrides the defaults.
///
/// A flag that sets a config key is declared with the key (`ConfigKey.flag`) and checked by the key's own rule;
/// the daemon's other flags are declared in `ownFlags`. The parser and `--help` read both lists.
package struct CommandLineOptions: Sendable, Equatable {
    // MARK: Lifecycle

    package init() {}

    // MARK: Internal

    /// A flag that does not exist or lacks its value; the daemon prints it with the usage and exits 2.
    package struct UsageError: Error, Sendable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// Exit statuses, as sysexits(3) names them where one fits; the README lists them.
    package enum ExitStatus: Int32, Sendable {
        /// Clean shutdown, or `--help` / `--version`.
        case success = 0
        /// The server could not start or failed (socket in use, bind error).
        case failure = 1
        /// Bad flags.
        case usage = 2
        /// A bad config file or setting (EX_CONFIG; the unit sets RestartPreventExitStatus=78).
        case config = 78
    }

    /// `--config FILE`.
    package var configPath: String?
    /// `--repair`: keep the longest valid prefix of damaged state files, move the rest aside, then run.
    package var repair = false
    /// `--version`.
    package var showVersion = false
    /// `--help` or `-h`.
    package var showHelp = false

    /// `--socket PATH`.
    package var socket: String? { flagged("socket", \.socket) ?? nil }
    /// `--log-level LEVEL`.
    package var logLevel: LogLevel? { flagged("logLevel", \.logLevel) }
    /// `--state-dir DIR`.
    package var stateDirectory: String? { flagged("stateDirectory", \.stateDirectory) ?? nil }
    /// `--ephemeral`: keep nothing across restarts.
    package var ephemeral: Bool { flagged("ephemeral", \.ephemeral) ?? false }

    /// The flags that are not config keys, in `--help`'s order around the keys' flags (`--config` first).
    static let ownFlags = [
        ConfigKey.Flag(
            name: "--config", value: "FILE", help: "read settings from FILE (JSON; unknown keys are refused)"),
        ConfigKey.Flag(
            name: "--repair", value: nil,
            help: "keep the valid start of damaged state files, move the rest aside, then run"),
        ConfigKey.Flag(name: "--version", value: nil, help: "print the version and exit"),
        ConfigKey.Flag(name: "--help", value: nil, help: "print this help and exit (also -h)"),
    ]

    /// Every flag in `--help`'s order, with the config key it sets (nil for the daemon's own).
    static var flags: [(flag: ConfigKey.Flag, key: ConfigKey?)] {
        let keyed = ConfigKey.all.compactMap { key in key.flag.map { (flag: $0, key: Optional(key)) } }
        let own = ownFlags.map { (flag: $0, key: ConfigKey?.none) }
        return own.prefix(1) + keyed + own.dropFirst()
    }

    /// Parses arguments without the program name; accepts `--flag value` and `--flag=value`.
    package static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            var (name, inline) = split(argument)
            if name == "-h" { name = "--help" }
            guard let (flag, key) = flags.first(where: { $0.flag.name == name }) else {
                let hint = NearestName.hint(for: name, among: flags.map(\.flag.name))
                throw UsageError(message: "unknown argument '\(argument)'\(hint)")
            }
            var text: String?
            if flag.value != nil {
                if let inline {
                    text = inline
                } else {
                    guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                        throw UsageError(message: "\(name) needs a value")
                    }
                    text = next
                }
            } else if inline != nil {
                throw UsageError(message: "\(name) takes no value")
            }
            guard let key else {
                switch name {
                case "--config": options.configPath = text
                case "--repair": options.repair = true
                case "--version": options.showVersion = true
                default: options.showHelp = true
                }
                continue
            }
            do {
                // A switch sets its key to true; a value is the key's string, checked as the file's would be.
                let value = text.map(JSONValue.string) ?? .bool(true)
                try key.write(&options.flaggedConfig, value, ConfigKey.Source(name: name, isFlag: true))
            } catch {
                throw UsageError(message: error.message)
            }
            if !options.flaggedKeys.contains(key.key) { options.flaggedKeys.append(key.key) }
        }
        return options
    }

    /// The effective config: the file (if any) with the flags applied on top.
    package func loadConfig() throws(ConfigError) -> Config {
        var config = try configPath.map { path throws(ConfigError) in try Config.load(from: path) } ?? Config()
        for key in ConfigKey.all where flaggedKeys.contains(key.key) { key.copy(flaggedConfig, &config) }
        return config
    }

    /// The `--help` text, with the socket path the daemon would use and the config keys with their defaults.
    package static func usage(program: String, resolvedSocket: String) -> String {
        let synopsis = flags.map { "[\($0.flag.name)\($0.flag.value.map { " " + $0 } ?? "")]" }
        let width = flags.map { $0.flag.name.count + ($0.flag.value?.count ?? -1) + 1 }.max() ?? 0
        let flagLines = flags.map { flag, key in
            let head = flag.name + (flag.value.map { " " + $0 } ?? "")
            let overrides = key.map { " (overrides \"\($0.key)\")" } ?? ""
            return "  " + head.padded(to: width) + "  " + flag.help + overrides
        }
        let keyWidth = ConfigKey.all.map(\.key.count).max() ?? 0
        let defaultWidth = ConfigKey.all.map(\.defaultText.count).max() ?? 0
        let keyLines = ConfigKey.all.map { key in
            let kind = key.range.map { "\(key.type) \($0.filter { $0 != "`" })" } ?? key.type
            let reload = key.reload == .immediately ? "" : "; at next start"
            return "  \(key.key.padded(to: keyWidth))  \(key.defaultText.padded(to: defaultWidth))  \(kind)\(reload)"
        }
        return """
            usage: \(program) \(wrap(synopsis, width: 100, indent: program.count + 8))

            Serves masonry layouts as newline-delimited JSON-RPC 2.0 on a Unix stream socket.

            \(flagLines.joined(separator: "\n"))

            Socket: \(resolvedSocket)
              (--socket, else "socket" in the config, else $WATERFALLD_SOCKET, else
              $XDG_RUNTIME_DIR/waterfalld.sock, else /tmp/waterfalld-<uid>/waterfalld.sock)
            State directory: --state-dir, else "stateDirectory", else $STATE_DIRECTORY, else
              $XDG_STATE_HOME/waterfalld, else ~/.local/state/waterfalld

            Config keys (FILE is a JSON object of them), with their defaults and the values they take; SIGHUP
            applies a changed value at once unless it says otherwise:
            \(keyLines.joined(separator: "\n"))

            Signals: SIGTERM/SIGINT shut down gracefully; SIGHUP reloads the config file.
            Exit status: 0 ok, 1 failure (e.g. socket or state directory in use, damaged state), 2 bad flags,
            78 bad config.
            """
    }

    // MARK: Private

    /// The defaults with the flags' values applied, and the keys the flags set, in the order given.
    private var flaggedConfig = Config()
    private var flaggedKeys: [String] = []

    /// A key's value if a flag set it.
    private func flagged<Value>(_ key: String, _ path: KeyPath<Config, Value>) -> Value? {
        flaggedKeys.contains(key) ? flaggedConfig[keyPath: path] : nil
    }

    private static func split(_ argument: String) -> (flag: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// Words joined by spaces, broken before `width` columns, continued lines indented by `indent`.
    private static func wrap(_ words: [String], width: Int, indent: Int) -> String {
        var lines = [""]
        for word in words {
            if !lines[lines.count - 1].isEmpty && lines[lines.count - 1].count + 1 + word.count > width - indent {
                lines.append("")
            }
            lines[lines.count - 1] += (lines[lines.count - 1].isEmpty ? "" : " ") + word
        }
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }
}

extension String {
    /// The string with spaces after it up to `width` characters.
    fileprivate func padded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
