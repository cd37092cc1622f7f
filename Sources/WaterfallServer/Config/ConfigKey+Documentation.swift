/// The keys as documentation: the README's configuration table is this text (a test compares them).
extension ConfigKey {
    /// The Markdown table of every key: its type and range, default, what SIGHUP does, and meaning (with the flag
    /// that overrides it).
    package static var markdownTable: String {
        var lines = ["| key | type and range | default | SIGHUP | meaning |", "|---|---|---|---|---|"]
        for key in all {
            let kind = key.range.map { "\(key.type), \(ranged($0))" } ?? key.type
            let flag = key.flag.map { "; flag `\($0.name)\($0.value.map { " " + $0 } ?? "")`" } ?? ""
            lines.append(
                "| `\(key.key)` | \(kind) | `\(key.defaultText)` | \(key.reload.text) | \(key.help)\(flag) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A range as the table writes it: numbers as code, `1`–`1024`; a list of choices as it is.
    private static func ranged(_ range: String) -> String {
        guard let dash = range.firstIndex(of: "–") else { return range }
        return "`\(range[..<dash])`–`\(range[range.index(after: dash)...])`"
    }
}

extension ConfigKey.Reload {
    /// The table's SIGHUP column.
    var text: String {
        switch self {
        case .immediately: "applies"
        case .atNextStart: "next start"
        }
    }
}
