import WaterfallClient
import WaterfallLayout

/// The human output of `get`, `query` and `watch`: one frame, element or event per line.
enum FrameListing {
    static let header = ["KIND", "SECTION", "I", "X", "Y", "W", "H", "ID"]

    /// `layout.get`: a line per section (its origin and height, and its item count as ID), then its header (a
    /// pinned one's `pinMaxY` as ID), items and footer.
    static func frames(_ frames: LayoutFrames) -> String {
        var table = TextTable(header: header, rightAligned: [1, 2, 3, 4, 5, 6])
        for section in frames.sections {
            let band = Rect(x: 0, y: section.origin, width: frames.contentSize.width, height: section.height)
            table.rows.append(row("section", section.section, nil, band, "\(section.count) items"))
            if let header = section.header {
                let pin = section.pinMaxY.map { "pinMaxY \(format($0))" }
                table.rows.append(row("header", section.section, nil, header, pin))
            }
            for item in section.items {
                table.rows.append(row("item", section.section, item.index, item.frame, item.id))
            }
            if let footer = section.footer { table.rows.append(row("footer", section.section, nil, footer, nil)) }
        }
        return
            "# seq \(frames.seq), content \(format(frames.contentSize.width)) × \(format(frames.contentSize.height))\n"
            + table.text
    }

    /// `query`: a line per element; a pinned header says `pinned` as ID.
    static func elements(_ result: QueryResult) -> String {
        var table = TextTable(header: header, rightAligned: [1, 2, 3, 4, 5, 6])
        for e in result.elements {
            table.rows.append(row(e.kind.rawValue, e.section, e.index, e.frame, e.pinned ? "pinned" : e.id))
        }
        return
            "# seq \(result.seq), content \(format(result.contentSize.width)) × \(format(result.contentSize.height))\n"
            + table.text
    }

    /// `watch`: one line per change, naming its requests and what its diff lists.
    static func change(_ change: LayoutChange) -> String {
        let methods = change.ops.map(\.method).joined(separator: ", ")
        let listed = change.diff.sections.map { entry in
            let items = entry.items.count == 1 ? "1 item" : "\(entry.items.count) items"
            return "section \(entry.section) (\(entry.isNew ? "new, " : "")\(items))"
        }
        let shifts = change.diff.shifts.map { "sections \($0.from)–\($0.to) moved \(format($0.dy))" }
        let diff = (listed + shifts).joined(separator: "; ")
        return "seq \(change.seq)  \(methods)  diff: \(diff.isEmpty ? "no frame moved" : diff)\n"
    }

    private static func row(_ kind: String, _ section: Int, _ index: Int?, _ frame: Rect, _ id: String?) -> [String] {
        [
            kind, "\(section)", index.map(String.init) ?? "-", format(frame.x), format(frame.y), format(frame.width),
            format(frame.height), id ?? "",
        ]
    }
}
