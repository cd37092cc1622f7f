import Foundation
import Testing
import WaterfallLayout
import WaterfallTestSupport

/// The browser as the oracle of `tieBreak: "cursor"`: seeded random sections laid out by the engine and by
/// Chromium's `display: grid-lanes` with the same tracks, gaps, spans and `flow-tolerance` must give the same item
/// positions (the Geometry article's promise).
///
/// Runs with `chromium` on PATH (`.ci/run` installs it) or the binary `WATERFALL_CHROMIUM` names, e.g.
/// `swift test --filter ChromiumOracleTests`. Values are whole points, so the
/// browser's layout units (1/64 px) hold them exactly.
@Suite(
    .tags(.browser), .serialized, .enabled(if: Chromium.path != nil, "no chromium on PATH (or WATERFALL_CHROMIUM=0)"))
struct ChromiumOracleTests {
    /// One section as both sides see it.
    struct Section {
        var columns: Int
        var columnWidth: Int
        var columnSpacing: Int
        var rowSpacing: Int
        var tolerance: Int
        var items: [Item]

        var width: Double { Double(columns * columnWidth + (columns - 1) * columnSpacing) }
    }

    @Test(arguments: [0, 1, 2, 3])
    func cursorEqualsGridLanes(batch: Int) async throws {
        var random = RandomCommands(seed: UInt64(7000 + batch))
        let sections = (0..<40).map { _ in Self.section(&random) }
        let browser = try Self.browserPositions(sections)
        try #require(browser.count == sections.count)
        for (k, section) in sections.enumerated() {
            let spec = LayoutSpec(
                width: section.width,
                sections: [
                    SectionSpec(
                        properties: SectionProperties(
                            columns: section.columns, columnSpacing: Double(section.columnSpacing),
                            rowSpacing: Double(section.rowSpacing), tolerance: Double(section.tolerance),
                            tieBreak: .cursor),
                        items: section.items)
                ])
            let frames = try await Layout.make(spec).layout.frames(ofSection: 0).items.map(\.frame)
            let engine = frames.map { [$0.x, $0.y] }
            #expect(engine == browser[k], "batch \(batch), section \(k): \(section)")
        }
    }

    /// A section of 1 to 6 columns whose items mostly take a few standard heights (ties), some a span.
    static func section(_ random: inout RandomCommands) -> Section {
        let columns = random.int(1...6)
        let standard = [40, 60, 60, 80, 120]
        let items = (0..<random.int(1...40)).map { _ in
            var item = Item(height: Double(random.chance(0.8) ? standard[random.int(0...4)] : random.int(0...150)))
            if random.chance(0.15) { item.span = .columns(random.int(1...3)) }
            return item
        }
        return Section(
            columns: columns, columnWidth: random.int(20...120), columnSpacing: random.int(0...12),
            rowSpacing: random.int(0...12), tolerance: random.chance(0.4) ? random.int(0...30) : 0, items: items)
    }

    /// Each item's `[x, y]` relative to its grid, as Chromium lays the sections out.
    static func browserPositions(_ sections: [Section]) throws -> [[[Double]]] {
        var html = "<!doctype html><html><head><style>body{margin:0}.g{display:grid-lanes}</style></head><body>"
        for section in sections {
            // A span over the column count is clamped, as the Geometry article clamps it.
            html +=
                "<div class=\"g\" style=\"grid-template-columns:repeat(\(section.columns),\(section.columnWidth)px);"
            html += "column-gap:\(section.columnSpacing)px;row-gap:\(section.rowSpacing)px;"
            html += "flow-tolerance:\(section.tolerance)px;width:\(Int(section.width))px\">"
            for item in section.items {
                var span = 1
                if case .columns(let n) = item.span { span = min(n, section.columns) }
                html += "<div style=\"height:\(Int(item.height))px;grid-column:span \(span)\"></div>"
            }
            html += "</div>"
        }
        html += """
            <pre id="out"></pre><script>
            const out = [...document.querySelectorAll('.g')].map(g => {
              const o = g.getBoundingClientRect();
              return [...g.children].map(e => { const r = e.getBoundingClientRect(); return [r.x - o.x, r.y - o.y]; });
            });
            document.getElementById('out').textContent = JSON.stringify(out);
            </script></body></html>
            """
        let text = try Chromium.output(of: html)
        let json = Data(text.utf8)
        guard let positions = try JSONSerialization.jsonObject(with: json) as? [[[Double]]] else {
            throw OracleError(message: "unexpected output \(text.prefix(300))")
        }
        return positions
    }

    struct OracleError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
