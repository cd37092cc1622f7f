import Foundation
import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallTestSupport

/// `layout.css` in a real browser: seeded random feeds (fixed heights, aspect sizes, spans, headers, footers,
/// insets, adaptive and fixed column counts, several sections, right to left, a first page) are styled by the
/// daemon, and one page holds a container per feed and width: random widths of the range, and both sides of every
/// piece's start, 1/64 px apart. Every element's box (relative to its container) must be the frame of a fresh
/// `layout.create` at that width within 0.05 px, and the container's height the content height.
@Suite(
    .tags(.server, .browser), .serialized,
    .enabled(if: Chromium.path != nil, "no chromium on PATH (or WATERFALL_CHROMIUM=0)"))
struct ResponsiveCSSBrowserTests {
    @Test func everyBoxIsTheDaemonsFrameAtEveryWidth() async throws {
        let (worst, boxes, count) = try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            var page = StyledContainers()
            for feed in 0..<6 {
                var feeds = ResponsiveFeeds(seed: UInt64(5300 + feed))
                let (spec, minWidth, maxWidth) = feeds.feed(maxItems: 30)
                let firstItems = feed == 5 ? 6 : nil
                _ = try await client.createLayout("css-\(feed)", ResponsiveFeeds.spec(spec, width: minWidth))
                let sheet = try await client.stylesheet(
                    of: "css-\(feed)", minWidth: minWidth, maxWidth: maxWidth, items: firstItems, selector: ".f\(feed)")
                page.style += sheet.css
                let widths = try StyledContainers.widths(
                    spec, minWidth: minWidth, maxWidth: maxWidth, firstItems: firstItems, random: 16, &feeds.random.rng)
                let elements = sheet.elements()
                for width in widths {
                    try await page.add(
                        client, spec: spec, firstItems: firstItems, width: width, className: "f\(feed)",
                        elements: elements, label: "feed \(feed)")
                }
            }
            let (worst, boxes) = try page.check()
            return (worst, boxes, page.containers.count)
        }
        print("ResponsiveCSSBrowserTests: \(boxes) boxes in \(count) containers, largest difference \(worst) px")
        #expect(count >= 100)
        #expect(worst <= StyledContainers.tolerance)
    }

    /// The photo feed `layout.css` is sized on (100 photos, adaptive columns, 320–1920 px): exact too.
    @Test func thePhotoFeedIsTheDaemonsFramesAtEveryWidth() async throws {
        let (worst, boxes) = try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            let spec = ResponsiveFeeds.photoFeed(count: 100)
            _ = try await client.createLayout("photos", spec)
            let sheet = try await client.stylesheet(of: "photos", minWidth: 320, maxWidth: 1920, selector: ".p")
            var page = StyledContainers()
            page.style = sheet.css
            var rng = SplitMix64(seed: 43)
            let elements = sheet.elements()
            for width in try StyledContainers.widths(
                spec, minWidth: 320, maxWidth: 1920, firstItems: nil, random: 16, &rng)
            {
                try await page.add(
                    client, spec: spec, firstItems: nil, width: width, className: "p", elements: elements,
                    label: "photos")
            }
            return try page.check()
        }
        print("ResponsiveCSSBrowserTests: photo feed, \(boxes) boxes, largest difference \(worst) px")
        #expect(boxes >= 3000)
        #expect(worst <= StyledContainers.tolerance)
    }
}
