/// The daemon's settings: built-in defaults, overridden by the config file, overridden by flags.
///
/// Every field is a plain value so a reload can swap the whole struct; `Config.load(from:)` validates it.
package struct Config: Sendable, Equatable {
    // MARK: Lifecycle

    /// The built-in defaults.
    package init() {}

    // MARK: Internal

    /// The socket path; `nil` resolves to `$WATERFALLD_SOCKET`, `$XDG_RUNTIME_DIR/waterfalld.sock` or a private
    /// directory under /tmp (see `SocketPath`). Ignored under socket activation.
    package var socket: String?
    /// The socket file's permission bits, applied after bind (the config file spells it as an octal string).
    package var socketMode: UInt32 = 0o600
    /// A group to own the socket file, so its members can connect; `nil` keeps the daemon's group.
    package var socketGroup: String?
    /// Users allowed to connect besides root and the daemon's own user: names or decimal uids.
    package var allowedUsers: [String] = []
    /// Groups whose members (by the peer's primary gid) may connect: names or decimal gids.
    package var allowedGroups: [String] = []
    /// The least severe level that is logged.
    package var logLevel: LogLevel = .info
    /// The longest request line in bytes, without its `\r\n`; longer lines are answered `too_large`.
    package var maxLineBytes = 16_777_216
    /// Connections served at once; more are answered with a `limit` error and closed.
    package var maxConnections = 1024
    /// Layouts held at once.
    package var maxLayouts = 10_000
    /// Items in one layout.
    package var maxItemsPerLayout = 10_000_000
    /// Sections in one layout.
    package var maxSectionsPerLayout = 100_000
    /// Items in all layouts together.
    package var maxTotalItems = 100_000_000
    /// Columns in one section.
    package var maxColumns = 1024
    /// Operations in one `batch` request.
    package var maxBatchOps = 10_000
    /// Unsent output at which a client stops being read, and a reply being produced for it waits, until it reads
    /// down to half of this.
    package var outputPauseBytes = 1_048_576
    /// Seconds that pending output may make no progress before the client is disconnected.
    package var outputStallSeconds: Double = 30
    /// Unsent output past which a subscriber gets `subscription.overflow` and is unsubscribed.
    package var subscriberMaxPendingBytes = 4_194_304
    /// Seconds a graceful shutdown waits for in-flight requests and unsent output before closing anyway.
    package var shutdownTimeoutSeconds = 1.5
    /// Where layouts are kept across restarts; `nil` resolves to `$STATE_DIRECTORY` (systemd's
    /// `StateDirectory=`), `$XDG_STATE_HOME/waterfalld` or `~/.local/state/waterfalld` (see `StateDirectory`).
    package var stateDirectory: String?
    /// Keep nothing across restarts (no state directory at all).
    package var ephemeral = false
    /// When journal writes are made durable.
    package var fsync: FsyncPolicy = .everysec
    /// Journal files kept open at once (the open-file limit may lower it: see `DescriptorBudget`).
    package var maxOpenJournals = 1024
}

/// Severity of a log line, from most to least severe.
package enum LogLevel: String, Sendable, CaseIterable, Comparable {
    case error
    case warning
    case info
    case debug

    // MARK: Internal

    /// The syslog priority that journald reads from a `<N>` prefix.
    package var syslogPriority: Int {
        switch self {
        case .error: 3
        case .warning: 4
        case .info: 6
        case .debug: 7
        }
    }

    package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool {
        lhs.syslogPriority < rhs.syslogPriority
    }
}
