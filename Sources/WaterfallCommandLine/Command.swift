import WaterfallProtocol
import WaterfallWire

/// waterfallctl's commands, each with its arguments, options and help in one place: the parser, `help`, the
/// completion scripts and the README's table read this list.
///
/// Besides the commands written for people (`get`, `watch`, `render`…), every method of the protocol is a command
/// of its own name (`items.delete`), its flags its declared params (`Command+Method.swift`).
package enum Command: Hashable, Sendable {
    case ping, version, stats, metrics, list, get, query, neighbors, export, css, html, call, describe, watch, render,
        completion, help
    /// A method of the protocol, by its own name.
    case declared(Method)

    /// A positional argument: its placeholder, and what a shell may complete it with.
    package struct Argument: Sendable, Equatable {
        /// What the argument names.
        package enum Kind: Sendable, Equatable {
            /// A layout; completed with the daemon's layouts (`list --names`).
            case layout
            /// A protocol method.
            case method
            /// A waterfallctl command.
            case command
            /// One of `CompletionScript.Shell`'s names.
            case shell
            /// Free text (JSON params).
            case text
        }

        /// `LAYOUT`, or `PARAMS | -`.
        package var name: String
        package var kind: Kind
        package var optional = false
    }

    /// The positional arguments, in order.
    package var arguments: [Argument] {
        switch self {
        case .ping, .version, .stats, .metrics, .list: []
        case .get, .query, .neighbors, .export, .css, .html, .watch, .render:
            [Argument(name: "LAYOUT", kind: .layout)]
        case .call:
            [Argument(name: "METHOD", kind: .method), Argument(name: "PARAMS | -", kind: .text, optional: true)]
        case .describe: [Argument(name: "METHOD", kind: .method, optional: true)]
        case .completion: [Argument(name: "SHELL", kind: .shell)]
        case .help: [Argument(name: "COMMAND", kind: .command, optional: true)]
        case .declared(let method): method.takesLayout ? [Argument(name: "LAYOUT", kind: .layout)] : []
        }
    }

    /// The options the command takes besides the global ones: its own, then those its method's declaration gives
    /// it (`declaredOptions`).
    package var options: [CommandOption] { ownOptions + declaredOptions }

    /// The options written for this command alone.
    private var ownOptions: [CommandOption] {
        switch self {
        case .list: [CommandOption(name: "--names", help: "only the layouts' names, one per line")]
        case .get: [CommandOption(name: "--sections", value: "0,2", help: "only these sections (indices)")]
        case .query:
            [
                CommandOption(
                    name: "--rect", value: "X,Y,W,H", help: "the rect, in points (W and H ≥ 0)", required: true),
                CommandOption(
                    name: "--order", value: "ORDER",
                    help: "document (the default) or reading: rows top to bottom, each left to right"),
            ]
        case .neighbors:
            [CommandOption(name: "--item", value: "S,I", help: "the item: its section and its index", required: true)]
        case .watch:
            [
                CommandOption(
                    name: "--viewport", value: "Y,H",
                    help: "only what the band from Y, H points high (H > 0) shows: its elements, then each change there"
                )
            ]
        case .render:
            [
                CommandOption(
                    name: "--image-width", value: "PX",
                    help: "the picture's width in pixels (default: one pixel per point)"),
                CommandOption(
                    name: "--rect", value: "X,Y,W,H",
                    help: "the part drawn (default: the full width and the first 4000 points)"),
                CommandOption(
                    name: "--output", value: "FILE", help: "write to FILE instead of standard output",
                    completion: .file),
            ]
        case .css, .html:
            [
                CommandOption(name: "--min", value: "PX", help: "the narrowest container width", required: true),
                CommandOption(name: "--max", value: "PX", help: "the widest container width", required: true),
                CommandOption(
                    name: "--items", value: "N", help: "a first page: each section as if it held its first N items"),
                CommandOption(name: "--sections", value: "0,2", help: "only these sections' elements"),
            ]
                + (self == .css
                    ? [CommandOption(name: "--selector", value: "S", help: "the container's selector (.waterfall)")]
                    : [])
                + [
                    CommandOption(
                        name: "--output", value: "FILE", help: "write to FILE instead of standard output",
                        completion: .file)
                ]
        default: []
        }
    }

    /// The arguments after the command's name: `LAYOUT [--sections 0,2]`.
    var usage: String {
        let positionals = arguments.map { $0.optional ? "[\($0.name)]" : $0.name }
        let flags = options.map { $0.required ? $0.synopsis : "[\($0.synopsis)]" }
        return (positionals + flags).joined(separator: " ")
    }

    /// One line for the command list.
    var summary: String {
        switch self {
        case .ping: "check that the daemon answers"
        case .version: "the daemon's name, version, protocol and instance"
        case .stats: "the daemon's counters, as a table"
        case .metrics: "the daemon's counters in Prometheus' text format"
        case .list: "the layouts, with their sections, items and seq"
        case .get: "a layout's frames, one per line"
        case .query: "the headers, items and footers in a rect, one per line"
        case .neighbors: "the items next to one on screen: above, below, left and right"
        case .export: "a layout's inputs, as layout.create takes them"
        case .css: "a stylesheet exact at every container width of a range (layout.css)"
        case .html: "a self-contained page of the stylesheet, items as coloured boxes"
        case .call: "any method, with params as JSON (or - to read them from stdin)"
        case .describe: "the protocol as OpenRPC (rpc.discover), or one method readably"
        case .watch: "subscribe and print each event until interrupted"
        case .render: "an SVG picture of a layout"
        case .completion: "a completion script for bash, zsh or fish"
        case .help: "this list, or a command's help"
        case .declared(let method):
            // The declaration's first sentence, as a line of the list: "deletes items of a section, …".
            Self.firstSentence(MethodTable.declaration(method).summary).lowercasedFirst
        }
    }

    /// The paragraph `help COMMAND` adds under the usage line, before the options.
    var details: String {
        switch self {
        case .ping: "Prints \"pong\"."
        case .version: "Prints the server, its version, the protocol version and the instance id."
        case .stats: "Prints one counter per line (nested counters as a.b), aligned."
        case .metrics:
            "Prints the metrics text as Prometheus' text format 0.0.4 has it (for node_exporter's textfile collector)."
        case .list: "Prints a table: LAYOUT, SECTIONS, ITEMS, SEQ, WIDTHS (the first first)."
        case .get:
            """
            Prints a table of frames: a section line (its band: from its origin for its height, or along x for a
            horizontal layout), then its header, items and footer.
            """
        case .query: "Prints a table of the elements visible in the rect (the Geometry article's query rule)."
        case .neighbors:
            "Prints a table of the item's neighbours (items.neighbors), one line per side; a side at an edge says none."
        case .export: "Prints the layout's inputs as JSON (layout.create of them rebuilds the same frames)."
        case .css:
            """
            Writes the stylesheet of layout.css: every header, item and footer of the container placed as the
            daemon places it at every container width from --min to --max (CSS px).
            """
        case .html:
            """
            Writes a page with the stylesheet inlined and the elements it places (items as coloured boxes with
            their index) in a container that starts --max px wide and can be resized, to try it in a browser.
            """
        case .call:
            """
            Sends METHOD with PARAMS (a JSON object) and prints the result as JSON. With - the params are read
            from standard input. Example: waterfallctl call items.delete '{"layout":"feed","section":0,"items":[0]}'
            """
        case .describe:
            """
            Prints the daemon's OpenRPC document (rpc.discover) as JSON; with METHOD, that method's params, result,
            errors and example as text (with --json, its entry in the document).
            """
        case .watch:
            """
            Subscribes to LAYOUT and prints one line per event (with --json, the event as the daemon sent it)
            until interrupted. With --viewport, the subscription is scoped to that band: it first prints the band's
            elements, and each event then lists only the frames the band needs, one per line under the event's.
            It ends with exit status 0 when the layout is dropped, 1 when the daemon ends the subscription because
            this watcher fell behind (subscription.overflow), 3 when the connection ends.
            """
        case .render:
            """
            Writes an SVG picture: sections as bands, column lanes shaded, headers and footers labelled, items
            labelled with their index and id, and a caption with name, seq, content size and item count.
            """
        case .completion:
            """
            Prints a script that completes waterfallctl's commands, options and, from the daemon at the time of
            completion (waterfallctl list --names), layout names. Install it with, for example:
              bash: waterfallctl completion bash > ~/.local/share/bash-completion/completions/waterfallctl
              zsh:  waterfallctl completion zsh > ~/.zfunc/_waterfallctl  (with ~/.zfunc in $fpath)
              fish: waterfallctl completion fish > ~/.config/fish/completions/waterfallctl.fish
            """
        case .help: "Prints the commands, or with COMMAND its usage and options."
        case .declared(let method):
            """
            Sends \(method.rawValue) with the params its flags give (a list as 1,2,3; a list of lists as 0:1,0:2;
            an object as JSON) and prints the result: its elements as a table, anything else as the daemon's JSON.
            """
        }
    }

    /// How many positional arguments the command takes.
    var positionals: ClosedRange<Int> {
        arguments.filter { !$0.optional }.count...arguments.count
    }

    /// `waterfallctl [--socket PATH] … get LAYOUT [--sections 0,2]`.
    var usageLine: String {
        "waterfallctl \(Self.globalUsage) \(rawValue)\(usage.isEmpty ? "" : " " + usage)"
    }

    /// The text of `help COMMAND` and `COMMAND --help`.
    var help: String {
        let optionLines = options.isEmpty ? "" : CommandOption.helpLines(options) + "\n"
        return "usage: \(usageLine)\n\n\(summary.prefix(1).uppercased() + summary.dropFirst()).\n\(details)\n"
            + optionLines
    }

    /// `[--socket PATH] [--json] [--exact] [--timeout S]`: the global options but `--help`.
    static var globalUsage: String {
        CommandOption.global.filter { $0.name != "--help" }.map { "[\($0.synopsis)]" }.joined(separator: " ")
    }

    /// The text of `help` and `--help`.
    static var overview: String {
        let width = allCases.map(\.rawValue.count).max() ?? 0
        let lines = allCases.map {
            "  \($0.rawValue.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)"
        }
        return """
            usage: waterfallctl \(globalUsage) COMMAND [ARGS]

            Commands:
            \(lines.joined(separator: "\n"))

            Options:
            \(CommandOption.helpLines(CommandOption.global))

            Exit status: 0 success, 1 the daemon answered an error, 2 bad usage, 3 could not connect (or the
            connection was lost or timed out). 'waterfallctl help COMMAND' tells more.

            """
    }
}
