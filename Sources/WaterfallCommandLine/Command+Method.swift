import WaterfallProtocol

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
        }
    }

    /// The declared params that become a flag of every command whose method takes them: the param's name and the
    /// flag's value placeholder.
    static let declaredFlags: [(param: String, value: String)] = [("width", "W")]

    /// A flag for each of `declaredFlags` that the command's method takes, `--NAME`, its help the param's summary.
    var declaredOptions: [CommandOption] {
        guard let method else { return [] }
        let params = MethodTable.declaration(method).params
        return Self.declaredFlags.compactMap { flag in
            params.first { $0.name == flag.param }.map {
                CommandOption(name: "--\(flag.param)", value: flag.value, help: $0.summary)
            }
        }
    }
}
