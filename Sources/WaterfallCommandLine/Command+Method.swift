import WaterfallProtocol
import WaterfallWire

/// The protocol method behind each command, and the options that method's declaration gives it: a param that
/// several commands share (`width`) is declared once, in `MethodTable`, and each command whose method takes it
/// has its flag, with the declaration's words as help.
extension Command {
    /// The method the command calls for its result; nil for `call` (any method) and the commands that call none.
    package var method: Method? {
        switch self {
        case .ping: .ping
        case .version: .version
        case .stats: .stats
        case .metrics: .metrics
        case .list: .layoutList
        case .get, .render: .layoutGet
        case .query: .query
        case .neighbors: .itemsNeighbors
        case .export: .layoutExport
        case .css, .html: .layoutCSS
        case .describe: .rpcDiscover
        case .watch: .subscribe
        case .call, .completion, .help: nil
        case .declared(let method): method
        }
    }

    /// The declared params that become a flag of every command whose method takes them: the param's name and the
    /// flag's value placeholder.
    static let declaredFlags: [(param: String, value: String)] = [("width", "W")]

    /// A flag for each of `declaredFlags` that the command's method takes, `--NAME`, its help the param's summary;
    /// a method's own command has a flag for each param but `layout` (`ParamFlag`).
    var declaredOptions: [CommandOption] {
        guard let method else { return [] }
        let params = MethodTable.declaration(method).params
        if case .declared = self {
            // Required flags first, as the usage line of a written command lists them.
            let flags = params.filter { $0.name != "layout" }
            return (flags.filter(\.required) + flags.filter { !$0.required }).map { ParamFlag($0).option }
        }
        return Self.declaredFlags.compactMap { flag in
            params.first { $0.name == flag.param }.map {
                CommandOption(name: "--\(flag.param)", value: flag.value, help: $0.summary)
            }
        }
    }
}

extension Command: CaseIterable, RawRepresentable {
    /// The commands written for people, in the order `help` lists them.
    static let written: [Command] = [
        .ping, .version, .stats, .metrics, .list, .get, .query, .neighbors, .export, .css, .html, .call, .describe,
        .watch, .render, .completion, .help,
    ]

    /// The written commands, then a command for each method whose name is not one of theirs (`ping` is both);
    /// a subscription lasts as long as its connection, so `subscribe` and `unsubscribe` are `watch`'s.
    package static let allCases: [Command] =
        written
        + Method.allCases.filter { method in
            method != .subscribe && method != .unsubscribe && !written.contains { $0.rawValue == method.rawValue }
        }
        .sorted { $0.rawValue < $1.rawValue }.map(Command.declared)

    package init?(rawValue: String) {
        guard let command = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = command
    }

    /// The name typed on the command line.
    package var rawValue: String {
        switch self {
        case .ping: "ping"
        case .version: "version"
        case .stats: "stats"
        case .metrics: "metrics"
        case .list: "list"
        case .get: "get"
        case .query: "query"
        case .neighbors: "neighbors"
        case .export: "export"
        case .css: "css"
        case .html: "html"
        case .call: "call"
        case .describe: "describe"
        case .watch: "watch"
        case .render: "render"
        case .completion: "completion"
        case .help: "help"
        case .declared(let method): method.rawValue
        }
    }
}

extension Method {
    /// Whether the method's params name a layout: its command takes it as the argument `LAYOUT`.
    var takesLayout: Bool {
        MethodTable.declaration(self).params.contains { $0.name == "layout" && $0.required }
    }
}

extension Command {
    /// `text` up to its first full stop that ends a sentence (`layout.dropped` has a stop inside a name).
    static func firstSentence(_ text: String) -> Substring {
        guard let stop = text.firstRange(of: ". ") else { return text.hasSuffix(".") ? text.dropLast() : text[...] }
        return text[..<stop.lowerBound]
    }
}

extension StringProtocol {
    /// The text with its first letter lowercased.
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
