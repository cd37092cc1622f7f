/// Rows of text in aligned columns, for `list`, `stats`, `get` and `query`.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []
    /// Columns aligned to the right (numbers).
    var rightAligned: Set<Int> = []

    /// The table, two spaces between columns, no trailing spaces.
    var text: String {
        var widths = header.map(\.count)
        for row in rows {
            for (k, cell) in row.enumerated() where k < widths.count { widths[k] = max(widths[k], cell.count) }
        }
        var out = ""
        for row in [header] + rows {
            var line = ""
            for (k, cell) in row.enumerated() {
                let pad = String(repeating: " ", count: max(0, widths[k] - cell.count))
                let aligned = rightAligned.contains(k) ? pad + cell : cell + (k == row.count - 1 ? "" : pad)
                line += (k == 0 ? "" : "  ") + aligned
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }
}
