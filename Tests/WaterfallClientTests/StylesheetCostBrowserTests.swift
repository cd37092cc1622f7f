import Foundation
import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallTestSupport

/// What `layout.css` costs the browser: in one Chromium page load, inserting the photo feed's first 100 items
/// with the stylesheet (inserted with them) and forcing style and layout, against the same elements at fixed
/// inline positions at one width, in alternating rounds; the ratio of the means of the middle rounds is printed.
/// Timers in a page tick in 0.1 ms and the machine is shared, so only a generous bound is asserted.
@Suite(
    .tags(.server, .browser), .serialized,
    .enabled(if: Chromium.path != nil, "no chromium on PATH (or WATERFALL_CHROMIUM=0)"))
struct StylesheetCostBrowserTests {
    @Test func theFirstPageCostsLittleMoreThanFixedPositions() async throws {
        let (sheet, frames) = try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.createLayout("photos", ResponsiveFeeds.photoFeed(count: 100))
            let sheet = try await client.stylesheet(of: "photos", minWidth: 320, maxWidth: 1920, selector: ".c")
            _ = try await client.createLayout(
                "scratch", ResponsiveFeeds.spec(ResponsiveFeeds.photoFeed(count: 100), width: 1000), replace: true)
            return (sheet, try await client.frames(of: "scratch"))
        }
        let styled = sheet.elements()
        let inline = frames.sections[0].items.map { item in
            let f = item.frame
            return
                "<div style=\"position:absolute;left:\(f.x)px;top:\(f.y)px;width:\(f.width)px;height:\(f.height)px\"></div>"
        }.joined()
        let html = """
            <!doctype html><html><head><style>body{margin:0}#host{width:1000px}#host div{background:#ccc}</style>
            </head><body><div id="host"></div><pre id="out"></pre><script>
            const css = \(try Self.literal(sheet.css)), styled = \(try Self.literal(styled));
            const inline = \(try Self.literal(inline));
            const host = document.getElementById('host');
            function round(withSheet) {
              const start = performance.now();
              const style = document.createElement('style');
              if (withSheet) { style.textContent = css; document.head.append(style); }
              const c = document.createElement('div');
              if (withSheet) c.className = 'c'; else c.style.cssText = 'position:relative;height:\(frames.contentSize.height)px';
              c.innerHTML = withSheet ? styled : inline;
              host.append(c);
              document.body.offsetHeight;
              const time = performance.now() - start;
              c.remove();
              style.remove();
              document.body.offsetHeight;
              return time;
            }
            const a = [], b = [];
            for (let k = 0; k < 10; k++) { round(true); round(false); }
            for (let k = 0; k < 200; k++) { a.push(round(true)); b.push(round(false)); }
            // The page's timer ticks in 0.1 ms, about a tenth of a round: the mean of the middle 80 % of the
            // rounds resolves what a median (one tick) cannot, and drops the rounds a collection or the shared
            // machine spoiled.
            const middleMean = (x) => {
              x.sort((p, q) => p - q);
              const kept = x.slice(x.length / 10, x.length - x.length / 10);
              return kept.reduce((s, v) => s + v, 0) / kept.length;
            };
            document.getElementById('out').textContent = JSON.stringify([middleMean(a), middleMean(b)]);
            </script></body></html>
            """
        let medians = try JSONDecoder().decode([Double].self, from: Data(try Chromium.output(of: html).utf8))
        try #require(medians.count == 2)
        let ratio = medians[0] / max(medians[1], 0.1)
        func text(_ value: Double) -> String { String(format: "%.3f", value) }
        print(
            "StylesheetCostBrowserTests: \(sheet.css.utf8.count) bytes, \(sheet.pieces) pieces; 100 items with the "
                + "stylesheet \(text(medians[0])) ms, at inline positions \(text(medians[1])) ms (means of the middle "
                + "160 of 200 rounds): \(String(format: "%.2f", ratio))×")
        #expect(ratio <= 5)
    }

    /// `text` as a JavaScript string literal.
    static func literal(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }
}
