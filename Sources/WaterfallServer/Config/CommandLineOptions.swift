/// The daemon's flags; they override the config file, which overrides the defaults.
public struct CommandLineOptions: Sendable, Equatable {
    // MARK: Lifecycle

    public init() {}

    // MARK: Internal

    /// A flag that does not exist or lacks its value; the daemon prints it with the usage and exits 2.
    public struct UsageError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Exit statuses, as sysexits(3) names them where one fits; the README lists them.
    public enum ExitStatus: Int32, Sendable {
        /// Clean shutdown, or `--help` / `--version`.
        case success = 0
        /// The server could not start or failed (socket in use, bind error).
        case failure = 1
        /// Bad flags.
        case usage = 2
        /// A bad config file or setting (EX_CONFIG; the unit sets RestartPreventExitStatus=78).
        case config = 78
    }

    /// `--socket PATH`.
    public var socket: String?
    /// `--config FILE`.
    public var configPath: String?
    /// `--log-level LEVEL`.
    public var logLevel: LogLevel?
    /// `--state-dir DIR`.
    public var stateDirectory: String?
    /// `--ephemeral`: keep nothing across restarts.
    public var ephemeral = false
    /// `--repair`: keep the longest valid prefix of damaged state files, move the rest aside, then run.
    public var repair = false
    /// `--version`.
    public var showVersion = false
    /// `--help` or `-h`.
    public var showHelp = false

    /// Parses arguments without the program name; accepts `--flag value` and `--flag=value`.
    public static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (flag, inline) = split(argument)
            func value() throws(UsageError) -> String {
                if let inline { return inline }
                guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
                    throw UsageError(message: "\(flag) needs a value")
                }
                return next
            }
            switch flag {
            case "--socket":
                let path = try value()
                guard !path.isEmpty else { throw UsageError(message: "--socket needs a non-empty path") }
                options.socket = path
            case "--config":
                options.configPath = try value()
            case "--log-level":
                let text = try value()
                guard let level = LogLevel(rawValue: text) else {
                    let known = LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageError(message: "--log-level must be one of \(known), not '\(text)'")
                }
                options.logLevel = level
            case "--state-dir":
                let path = try value()
                guard !path.isEmpty else { throw UsageError(message: "--state-dir needs a non-empty path") }
                options.stateDirectory = path
            case "--ephemeral" where inline == nil:
                options.ephemeral = true
            case "--repair" where inline == nil:
                options.repair = true
            case "--version" where inline == nil:
                options.showVersion = true
            case "--help" where inline == nil, "-h" where inline == nil:
                options.showHelp = true
            default:
                throw UsageError(message: "unknown argument '\(argument)'")
            }
        }
        return options
    }

    /// The effective config: the file (if any) with the flags applied on top.
    public func loadConfig() throws(ConfigError) -> Config {
        var config = try configPath.map { path throws(ConfigError) in try Config.load(from: path) } ?? Config()
        if let socket { config.socket = socket }
        if let logLevel { config.logLevel = logLevel }
        if let stateDirectory { config.stateDirectory = stateDirectory }
        if ephemeral { config.ephemeral = true }
        return config
    }

    /// The `--help` text, with the socket path the daemon would use.
    public static func usage(program: String, resolvedSocket: String) -> String {
        """
        usage: \(program) [--socket PATH] [--config FILE] [--log-level LEVEL] [--state-dir DIR] [--ephemeral]
                  [--repair] [--version] [--help]

        Serves masonry layouts as newline-delimited JSON-RPC 2.0 on a Unix stream socket.

          --socket PATH       listen on PATH (overrides the config's "socket")
          --config FILE       read settings from FILE (JSON; unknown keys are refused)
          --log-level LEVEL   error, warning, info or debug (overrides "logLevel")
          --state-dir DIR     keep layouts in DIR across restarts (overrides "stateDirectory"; default
                              $STATE_DIRECTORY, else $XDG_STATE_HOME/waterfalld, else ~/.local/state/waterfalld)
          --ephemeral         keep nothing across restarts (like "ephemeral": true)
          --repair            keep the valid start of damaged state files, move the rest aside, then run
          --version           print the version and exit
          -h, --help          print this help and exit

        Socket: \(resolvedSocket)
          (--socket, else "socket" in the config, else $WATERFALLD_SOCKET, else
          $XDG_RUNTIME_DIR/waterfalld.sock, else /tmp/waterfalld-<uid>/waterfalld.sock)

        Signals: SIGTERM/SIGINT shut down gracefully; SIGHUP reloads the config file.
        Exit status: 0 ok, 1 failure (e.g. socket or state directory in use, damaged state), 2 bad flags,
        78 bad config.
        """
    }

    // MARK: Private

    private static func split(_ argument: String) -> (flag: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
