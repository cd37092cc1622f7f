/// waterfallctl's commands, each with its usage and help in one place: the parser, `help` and the README's table
/// read this list.
public enum Command: String, CaseIterable, Sendable {
    case ping, version, stats, list, get, query, export, call, watch, render, help

    /// The arguments after the command's name.
    var usage: String {
        switch self {
        case .ping, .version, .stats, .list: return ""
        case .get: return "LAYOUT [--sections 0,2]"
        case .query: return "LAYOUT --rect X,Y,W,H [--order reading]"
        case .export: return "LAYOUT"
        case .call: return "METHOD [PARAMS | -]"
        case .watch: return "LAYOUT"
        case .render: return "LAYOUT [--width PX] [--rect X,Y,W,H] [--output FILE]"
        case .help: return "[COMMAND]"
        }
    }

    /// One line for the command list.
    var summary: String {
        switch self {
        case .ping: return "check that the daemon answers"
        case .version: return "the daemon's name, version, protocol and instance"
        case .stats: return "the daemon's counters, as a table"
        case .list: return "the layouts, with their sections, items and seq"
        case .get: return "a layout's frames, one per line"
        case .query: return "the headers, items and footers in a rect, one per line"
        case .export: return "a layout's inputs, as layout.create takes them"
        case .call: return "any method, with params as JSON (or - to read them from stdin)"
        case .watch: return "subscribe and print each event until interrupted"
        case .render: return "an SVG picture of a layout"
        case .help: return "this list, or a command's help"
        }
    }

    /// The paragraph `help COMMAND` adds under the usage line.
    var details: String {
        switch self {
        case .ping: return "Prints \"pong\"."
        case .version: return "Prints the server, its version, the protocol version and the instance id."
        case .stats: return "Prints one counter per line (nested counters as a.b), aligned."
        case .list: return "Prints a table: LAYOUT, SECTIONS, ITEMS, SEQ."
        case .get:
            return """
                Prints a table of frames: a section line (its origin and height), then its header, items and footer.
                  --sections 0,2   only these sections (indices)
                """
        case .query:
            return """
                Prints a table of the elements visible in the rect (LAYOUT.md's visibility rule).
                  --rect X,Y,W,H   the rect, in points (W and H ≥ 0)
                  --order ORDER    document (the default) or reading: rows top to bottom, each left to right
                """
        case .export: return "Prints the layout's inputs as JSON (layout.create of them rebuilds the same frames)."
        case .call:
            return """
                Sends METHOD with PARAMS (a JSON object) and prints the result as JSON. With - the params are read
                from standard input. Example: waterfallctl call items.delete '{"layout":"feed","section":0,"items":[0]}'
                """
        case .watch:
            return """
                Subscribes to LAYOUT and prints one line per event (with --json, the event as the daemon sent it)
                until interrupted. It ends with exit status 0 when the layout is dropped, 1 when the daemon ends the
                subscription because this watcher fell behind (subscription.overflow), 3 when the connection ends.
                """
        case .render:
            return """
                Writes an SVG picture: sections as bands, column lanes shaded, headers and footers labelled, items
                labelled with their index and id, and a caption with name, seq, content size and item count.
                  --width PX       the picture's width in pixels (default: one pixel per point)
                  --rect X,Y,W,H   the part drawn (default: the full width and the first 4000 points)
                  --output FILE    write to FILE instead of standard output
                """
        case .help: return "Prints the commands, or with COMMAND its usage and options."
        }
    }

    /// The options the command takes, each with a value.
    var options: Set<String> {
        switch self {
        case .get: return ["--sections"]
        case .query: return ["--rect", "--order"]
        case .render: return ["--width", "--rect", "--output"]
        default: return []
        }
    }

    /// How many positional arguments the command takes.
    var positionals: ClosedRange<Int> {
        switch self {
        case .ping, .version, .stats, .list: return 0...0
        case .get, .query, .export, .watch, .render: return 1...1
        case .call: return 1...2
        case .help: return 0...1
        }
    }

    /// `waterfallctl get LAYOUT [--sections 0,2]`.
    var usageLine: String {
        "waterfallctl [--socket PATH] [--json] [--timeout S] \(rawValue)\(usage.isEmpty ? "" : " " + usage)"
    }

    /// The text of `help COMMAND` and `COMMAND --help`.
    var help: String { "usage: \(usageLine)\n\n\(summary.prefix(1).uppercased() + summary.dropFirst()).\n\(details)\n" }

    /// The text of `help` and `--help`.
    static var overview: String {
        let width = allCases.map(\.rawValue.count).max() ?? 0
        let lines = allCases.map {
            "  \($0.rawValue.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.summary)"
        }
        return """
            usage: waterfallctl [--socket PATH] [--json] [--timeout S] COMMAND [ARGS]

            Commands:
            \(lines.joined(separator: "\n"))

            Options:
              --socket PATH  the daemon's socket (default: $WATERFALLD_SOCKET, $XDG_RUNTIME_DIR/waterfalld.sock,
                             or /tmp/waterfalld-<uid>/waterfalld.sock, as waterfalld chooses)
              --json         print results as the daemon's JSON
              --timeout S    seconds to wait for each reply (default 30)
              --help         this text; after a command, its help

            Exit status: 0 success, 1 the daemon answered an error, 2 bad usage, 3 could not connect (or the
            connection was lost or timed out). 'waterfallctl help COMMAND' tells more.

            """
    }
}
