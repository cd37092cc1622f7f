import Foundation
import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallTestSupport

/// `layout.css` in a real browser: seeded random feeds (fixed heights, aspect sizes, spans, headers, footers,
/// insets, adaptive and fixed column counts, several sections, right to left, a first page) are styled by the
/// daemon, and one page holds a container per feed and width: random widths of the range, and both sides of every
/// piece's start, 1/64 px apart. Every element's box (relative to its container) must be the frame of a fresh
/// `layout.create` at that width within 0.05 px, and the container's height the content height.
@Suite(.serialized, .enabled(if: Chromium.path != nil, "set WATERFALL_CHROMIUM to a Chromium binary, or 1"))
struct ResponsiveCSSBrowserTests {
    /// What one container must show.
    struct Expected {
        var feed: Int
        var width: Double
        var frames: LayoutFrames
    }

    static let tolerance = 0.05

    @Test func everyBoxIsTheDaemonsFrameAtEveryWidth() async throws {
        let worst = try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            var style = ""
            var containers = ""
            var expected: [Expected] = []
            for feed in 0..<6 {
                var feeds = ResponsiveFeeds(seed: UInt64(5300 + feed))
                let (spec, minWidth, maxWidth) = feeds.feed(maxItems: 30)
                let firstItems = feed == 5 ? 6 : nil
                _ = try await client.createLayout("css-\(feed)", ResponsiveFeeds.spec(spec, width: minWidth))
                let sheet = try await client.stylesheet(
                    of: "css-\(feed)", minWidth: minWidth, maxWidth: maxWidth, items: firstItems, selector: ".f\(feed)")
                style += sheet.css
                // The engine's own pieces give the edges to look at (the stylesheet's are among them).
                let pieces = try ResponsiveLayout.compute(
                    spec, minWidth: minWidth, maxWidth: maxWidth, firstItems: firstItems
                ).pieces
                var widths = (0..<16).map { _ in
                    Double(feeds.random.int(Int(minWidth * 64)...Int(maxWidth * 64))) / 64
                }
                for piece in pieces.dropFirst() { widths += [piece.start - 1.0 / 64, piece.start] }
                widths += [minWidth, maxWidth]
                let elements = sheet.elements()
                for width in widths {
                    let fresh = ResponsiveFeeds.spec(spec, width: width, firstItems: firstItems)
                    _ = try await client.createLayout("css-fresh", fresh, replace: true, options: .init(diff: false))
                    expected.append(
                        Expected(feed: feed, width: width, frames: try await client.frames(of: "css-fresh")))
                    // Every container at the page's origin: getBoundingClientRect is in single precision, which
                    // far down a long page (a million px) rounds to 1/8 px.
                    containers += "<div class=\"w\"><div class=\"f\(feed)\" style=\"width:\(width)px\">\n"
                    containers += "\(elements)</div></div>\n"
                }
            }
            let html = """
                <!doctype html><html><head><style>body{margin:0}.w{position:absolute;left:0;top:0}
                \(style)</style></head><body>
                \(containers)<pre id="out"></pre><script>
                const out = [...document.querySelectorAll('.w > div')].map(c => {
                  const o = c.getBoundingClientRect();
                  const boxes = [...c.children].map(e => {
                    const r = e.getBoundingClientRect();
                    const kind = e.hasAttribute('data-header') ? -1 : e.hasAttribute('data-footer') ? -2 : +e.dataset.item;
                    return [+e.dataset.section, kind, r.x - o.x, r.y - o.y, r.width, r.height];
                  });
                  return [o.width, o.height, boxes];
                });
                document.getElementById('out').textContent = JSON.stringify(out);
                </script></body></html>
                """
            let measured = try JSONSerialization.jsonObject(with: Data(try Chromium.output(of: html).utf8)) as? [Any]
            let containerCount = measured?.count ?? 0
            try #require(containerCount == expected.count, "\(containerCount) containers measured")
            var worst = 0.0
            var boxes = 0
            for (container, want) in zip(measured ?? [], expected) {
                let row = container as? [Any] ?? []
                let width = row.first as? Double ?? -1
                let height = row.count > 1 ? row[1] as? Double ?? -1 : -1
                #expect(width == want.width, "feed \(want.feed): container \(width) px wide, not \(want.width)")
                let heightOff = (height - want.frames.contentSize.height).magnitude
                worst = max(worst, heightOff)
                #expect(
                    heightOff <= Self.tolerance,
                    "feed \(want.feed) at \(want.width): height \(height), not \(want.frames.contentSize.height)")
                for case let box as [Double] in row.count > 2 ? row[2] as? [Any] ?? [] : [] {
                    let frame = Self.frame(want.frames, section: Int(box[0]), kind: Int(box[1]))
                    let off = frame.map {
                        max(
                            ($0.x - box[2]).magnitude, ($0.y - box[3]).magnitude, ($0.width - box[4]).magnitude,
                            ($0.height - box[5]).magnitude)
                    }
                    worst = max(worst, off ?? .infinity)
                    boxes += 1
                    #expect(
                        (off ?? .infinity) <= Self.tolerance,
                        "feed \(want.feed) at \(want.width): element \(box[0...1]) at \(box[2...]), not \(String(describing: frame))"
                    )
                }
            }
            print(
                "ResponsiveCSSBrowserTests: \(boxes) boxes in \(containerCount) containers, largest difference \(worst) px"
            )
            return worst
        }
        #expect(worst <= Self.tolerance)
    }

    /// The daemon's frame of an element: kind -1 is the header, -2 the footer, else the item's index.
    static func frame(_ frames: LayoutFrames, section: Int, kind: Int) -> Rect? {
        guard section < frames.sections.count else { return nil }
        let s = frames.sections[section]
        switch kind {
        case -1: return s.header
        case -2: return s.footer
        default: return kind < s.items.count ? s.items[kind].frame : nil
        }
    }
}
