import WaterfallClient
import WaterfallLayout

/// The human output of `get`, `query` and `watch`: one frame, element or event per line, numbers
/// in the invocation's `NumberStyle`.
enum FrameListing {
    static let header = ["KIND", "SECTION", "I", "X", "Y", "W", "H", "ID"]

    /// `layout.get`: a line per section (its band on screen, and its item count as ID), then its header (a pinned
    /// one's bound as ID, named as the layout names it: `pinMaxY`, `pinMaxX` or `pinMinX`), items and footer.
    static func frames(_ frames: LayoutFrames, _ numbers: NumberStyle) -> String {
        var table = TextTable(header: header, rightAligned: [1, 2, 3, 4, 5, 6])
        for section in frames.sections {
            let band = self.band(of: section, in: frames.contentSize)
            table.rows.append(row("section", section.section, nil, band, count(section.count, "item"), numbers))
            if let header = section.header {
                let pin = section.pinMaxY.map { "\(section.screen.pinKey) \(numbers.text($0))" }
                table.rows.append(row("header", section.section, nil, header, pin, numbers))
            }
            for item in section.items {
                table.rows.append(row("item", section.section, item.index, item.frame, item.id, numbers))
            }
            if let footer = section.footer {
                table.rows.append(row("footer", section.section, nil, footer, nil, numbers))
            }
        }
        return
            "# seq \(frames.seq), content \(numbers.text(frames.contentSize.width)) × \(numbers.text(frames.contentSize.height))\n"
            + table.text
    }

    /// A section's band on screen: across the content's width from its origin for its height, or in a horizontal
    /// layout (whose `origin` and extent run along x) across the content's height from x = origin.
    static func band(of section: SectionFrames, in contentSize: Size) -> Rect {
        section.screen.axis == .horizontal
            ? Rect(x: section.origin, y: 0, width: section.height, height: contentSize.height)
            : Rect(x: 0, y: section.origin, width: contentSize.width, height: section.height)
    }

    /// `1 item`, `2 items`.
    static func count(_ n: Int, _ noun: String) -> String {
        n == 1 ? "1 \(noun)" : "\(n) \(noun)s"
    }

    /// `items.neighbors`: a line per side, its element or `none` at an edge.
    static func neighbors(_ neighbors: ItemNeighbors, _ numbers: NumberStyle) -> String {
        var table = TextTable(header: ["SIDE"] + header, rightAligned: [2, 3, 4, 5, 6, 7])
        let sides = [
            ("above", neighbors.above), ("below", neighbors.below), ("left", neighbors.left),
            ("right", neighbors.right),
        ]
        for (side, element) in sides {
            guard let e = element else {
                table.rows.append([side, "none", "", "", "", "", "", "", ""])
                continue
            }
            table.rows.append([side] + row(e.kind.rawValue, e.section, e.index, e.frame, e.id, numbers))
        }
        return table.text
    }

    /// `query`: a line per element; a pinned header says `pinned` as ID.
    static func elements(_ result: QueryResult, _ numbers: NumberStyle) -> String {
        var table = TextTable(header: header, rightAligned: [1, 2, 3, 4, 5, 6])
        for e in result.elements {
            table.rows.append(row(e.kind.rawValue, e.section, e.index, e.frame, e.pinned ? "pinned" : e.id, numbers))
        }
        return
            "# seq \(result.seq), content \(numbers.text(result.contentSize.width)) × \(numbers.text(result.contentSize.height))\n"
            + table.text
    }

    /// `watch`: one line per change, naming its requests and what its diff lists; with `listingFrames` (a scoped
    /// watch, whose diffs are bounded by its viewport), each frame listed on a line of its own under it.
    static func change(_ change: LayoutChange, _ numbers: NumberStyle, listingFrames: Bool = false) -> String {
        let methods = change.ops.map(\.method).joined(separator: ", ")
        let listed = change.diff.sections.map { entry in
            let items = count(entry.items.count, "item")
            return "section \(entry.section) (\(entry.isNew ? "new, " : "")\(items))"
        }
        let shifts = change.diff.shifts.map { "sections \($0.from)–\($0.to) moved \(numbers.text($0.dy))" }
        let diff = (listed + shifts).joined(separator: "; ")
        let line = "seq \(change.seq)  \(methods)  diff: \(diff.isEmpty ? "no frame moved" : diff)\n"
        guard listingFrames else { return line }
        var table = TextTable(header: header, rightAligned: [1, 2, 3, 4, 5, 6])
        for entry in change.diff.sections {
            if case .set(let frame) = entry.header {
                table.rows.append(row("header", entry.section, nil, frame, nil, numbers))
            }
            for item in entry.items {
                table.rows.append(row("item", entry.section, item.index, item.frame, item.id, numbers))
            }
            if case .set(let frame) = entry.footer {
                table.rows.append(row("footer", entry.section, nil, frame, nil, numbers))
            }
        }
        // The header row once, at the start of the watch: here only the rows, indented under their event.
        return line + table.text.split(separator: "\n").dropFirst().map { "  \($0)\n" }.joined()
    }

    /// A scoped `watch`'s start: the viewport's elements, as `query` lists them.
    static func viewport(_ model: WindowedModel, _ numbers: NumberStyle) -> String {
        var table = TextTable(header: header, rightAligned: [1, 2, 3, 4, 5, 6])
        for e in model.elements {
            table.rows.append(row(e.kind.rawValue, e.section, e.index, e.frame, e.pinned ? "pinned" : e.id, numbers))
        }
        let v = model.viewport
        let size = model.contentSize
        return "# seq \(model.seq), viewport \(numbers.text(v.y)) + \(numbers.text(v.height)), "
            + "content \(numbers.text(size.width)) × \(numbers.text(size.height))\n" + table.text
    }

    private static func row(
        _ kind: String, _ section: Int, _ index: Int?, _ frame: Rect, _ id: String?, _ numbers: NumberStyle
    ) -> [String] {
        [
            kind, "\(section)", index.map(String.init) ?? "-", numbers.text(frame.x), numbers.text(frame.y),
            numbers.text(frame.width),
            numbers.text(frame.height), id ?? "",
        ]
    }
}
