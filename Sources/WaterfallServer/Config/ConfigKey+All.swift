/// The declarations: every key of the config file, in the order the shipped file lists them.
extension ConfigKey {
    /// The largest index the engine keeps (item and section indices are `Int32` in its lists and diffs).
    static let engineIndexLimit = Int(Int32.max)
    /// A byte or count limit beyond any use (a tebibyte), which keeps sums and doublings of it far from overflow.
    static let tebi = 1 << 40

    /// Every key, in the file's order.
    package static let all: [ConfigKey] = [
        .path(
            "socket", \.socket, reload: .atNextStart,
            flag: Flag(name: "--socket", value: "PATH", help: "listen on PATH"),
            help: "socket path; `null` = `$WATERFALLD_SOCKET`, `$XDG_RUNTIME_DIR/waterfalld.sock`, or "
                + "`/tmp/waterfalld-<uid>/waterfalld.sock`; ignored under socket activation"),
        .mode("socketMode", \.socketMode, help: "permission bits of the socket file"),
        .path(
            "socketGroup", \.socketGroup, reload: .atNextStart,
            help: "group (name or gid) given the socket file, so its members can open it with e.g. `\"0660\"`"),
        .principals(
            "allowedUsers", \.allowedUsers,
            help: "users (names or uids) allowed to connect besides root and the daemon's own user"),
        .principals("allowedGroups", \.allowedGroups, help: "groups (names or gids) whose members may connect"),
        .choice(
            "logLevel", \.logLevel, reload: .immediately,
            flag: Flag(name: "--log-level", value: "LEVEL", help: "error, warning, info or debug"),
            help: "the least severe level logged"),
        .integer(
            "maxLineBytes", \.maxLineBytes, in: 64...(1 << 31), inVersion: true,
            help: "longest request line; longer lines are discarded as they stream in and answered `too_large`"),
        .integer("maxConnections", \.maxConnections, in: 1...1_000_000, inVersion: true, help: "connections at once"),
        .integer("maxLayouts", \.maxLayouts, in: 1...100_000_000, inVersion: true, help: "layouts held at once"),
        .integer(
            "maxItemsPerLayout", \.maxItemsPerLayout, in: 1...engineIndexLimit, inVersion: true,
            bound: "the engine keeps item indices in 32 bits",
            help: "items in one layout; also bounds the columns of all its sections together (at most 2³¹−1: "
                + "the engine keeps item indices in 32 bits)"),
        .integer(
            "maxSectionsPerLayout", \.maxSectionsPerLayout, in: 1...engineIndexLimit, inVersion: true,
            bound: "the engine keeps section indices in 32 bits",
            help: "sections in one layout (at most 2³¹−1, as items)"),
        .integer(
            "maxTotalItems", \.maxTotalItems, in: 1...tebi, inVersion: true,
            help: "items in all layouts together, counting each section and each column as one more (they hold "
                + "memory even when empty)"),
        .integer(
            "maxColumns", \.maxColumns, in: 1...1024, inVersion: true, bound: "a section has at most 1024 columns",
            help: "columns in one section (adaptive column counts are capped here too)"),
        .integer(
            "maxBatchOps", \.maxBatchOps, in: 1...100_000_000, inVersion: true,
            help: "operations in one `batch`; requests in one batch array"),
        .integer(
            "outputPauseBytes", \.outputPauseBytes, in: 1024...tebi,
            help: "a client with this much unsent output is not read, and a reply being produced for it waits, "
                + "until it drains to half"),
        .seconds(
            "outputStallSeconds", \.outputStallSeconds, in: 0.1...86_400,
            help: "a client whose unsent output makes no progress this long is closed"),
        .integer(
            "subscriberMaxPendingBytes", \.subscriberMaxPendingBytes, in: 1024...tebi,
            help: "a subscriber with this much unsent output gets `subscription.overflow` and is unsubscribed"),
        .seconds(
            "shutdownTimeoutSeconds", \.shutdownTimeoutSeconds, in: 0...60,
            help: "how long a graceful shutdown waits for requests in flight and unsent output"),
        .path(
            "stateDirectory", \.stateDirectory, reload: .atNextStart,
            flag: Flag(name: "--state-dir", value: "DIR", help: "keep layouts in DIR across restarts"),
            help: "where layouts are kept across restarts; `null` = `$STATE_DIRECTORY` (systemd's "
                + "`StateDirectory=`), else `$XDG_STATE_HOME/waterfalld`, else `~/.local/state/waterfalld`; "
                + "created 0700 and locked while the daemon runs"),
        .boolean(
            "ephemeral", \.ephemeral, reload: .atNextStart,
            flag: Flag(name: "--ephemeral", value: nil, help: "keep nothing across restarts"),
            help: "`true` keeps nothing: no state directory, every layout gone at a restart"),
        .choice(
            "fsync", \.fsync, reload: .atNextStart,
            help: "`\"always\"`: a reply means the change is on disk (the changes of one read share one fsync); "
                + "`\"everysec\"`: written at once, so nothing is lost if the process dies, and synced about once "
                + "a second, so at most about a second if the machine does; `\"never\"`: written at once, the "
                + "kernel syncs when it likes"),
        .integer(
            "maxOpenJournals", \.maxOpenJournals, in: 8...1_000_000, reload: .atNextStart,
            help: "layout journals kept open at once, fewer when the open-file limit is low: the least recently "
                + "written is closed, and opened again when its layout is next written"),
    ]

    /// The key named `name`, if there is one.
    package static func named(_ name: String) -> ConfigKey? { all.first { $0.key == name } }
}

extension Config {
    /// The limits `version` reports, from the keys declared `inVersion`, in their order.
    package var versionLimits: [(key: StaticString, value: Int)] {
        ConfigKey.all.filter(\.inVersion).compactMap { key in
            guard case .int(let value) = key.read(self) else { return nil }
            return (key.name, Int(value))
        }
    }
}
