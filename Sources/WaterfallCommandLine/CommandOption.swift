/// One option of waterfallctl: its flag, the value it takes and its help. The parser, `--help`, `help COMMAND` and
/// the completion scripts all read these declarations, so none of them can list an option the others lack.
package struct CommandOption: Sendable, Equatable {
    /// What a shell may offer for the option's value.
    package enum Completion: Sendable, Equatable {
        /// Nothing to offer (a number, a rect).
        case none
        /// A path.
        case file
    }

    /// `--rect`.
    package var name: String
    /// The value's placeholder (`X,Y,W,H`); nil for a switch such as `--json`.
    package var value: String?
    /// One line of help.
    package var help: String
    package var completion: Completion = .none
    /// Whether the command needs it (`query --rect`).
    package var required = false

    package init(
        name: String, value: String? = nil, help: String, completion: Completion = .none, required: Bool = false
    ) {
        self.name = name
        self.value = value
        self.help = help
        self.completion = completion
        self.required = required
    }

    /// `--rect X,Y,W,H`, or `--json`.
    package var synopsis: String { value.map { "\(name) \($0)" } ?? name }

    // MARK: Global options

    /// The options every command takes, before or after its name.
    package static let global: [CommandOption] = [
        CommandOption(
            name: "--socket", value: "PATH",
            help: """
                the daemon's socket (default: $WATERFALLD_SOCKET, $XDG_RUNTIME_DIR/waterfalld.sock,
                or /tmp/waterfalld-<uid>/waterfalld.sock, as waterfalld chooses)
                """, completion: .file),
        CommandOption(name: "--json", help: "print results as the daemon's JSON, as it wrote them"),
        CommandOption(
            name: "--exact", help: "print numbers in tables with all their digits (default: at most 2 decimals)"),
        CommandOption(name: "--timeout", value: "S", help: "seconds to wait for each reply (default 30)"),
        CommandOption(name: "--help", help: "this text; after a command, its help"),
    ]

    /// The options' help as aligned lines, two spaces in; a help of several lines continues under its first.
    static func helpLines(_ options: [CommandOption]) -> String {
        let width = options.map(\.synopsis.count).max() ?? 0
        let indent = String(repeating: " ", count: width + 4)
        return options.map { option in
            let pad = String(repeating: " ", count: width - option.synopsis.count)
            let help = option.help.split(separator: "\n").joined(separator: "\n" + indent)
            return "  \(option.synopsis)\(pad)  \(help)"
        }.joined(separator: "\n")
    }
}
