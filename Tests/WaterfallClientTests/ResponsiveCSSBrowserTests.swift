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
        let (worst, boxes, count) = try await StyledContainers.checked { client, page in
            for feed in 0..<6 {
                var feeds = ResponsiveFeeds(seed: UInt64(5300 + feed))
                let (spec, minWidth, maxWidth) = feeds.feed(maxItems: 30)
                try await page.addFeed(
                    client, name: "css-\(feed)", spec: spec, minWidth: minWidth, maxWidth: maxWidth,
                    firstItems: feed == 5 ? 6 : nil, className: "f\(feed)", random: 16, &feeds.random.rng)
            }
        }
        print("ResponsiveCSSBrowserTests: \(boxes) boxes in \(count) containers, largest difference \(worst) px")
        #expect(count >= 100)
        #expect(worst <= StyledContainers.tolerance)
    }

    /// Columns of different widths (`columnWidths`): a feed with every feature (weights of its own and from the
    /// defaults, spans, a full span, aspect items, spacings, insets, headers and footers) left to right and right to
    /// left, and seeded random feeds whose sections mostly have weights, one of them a first page.
    @Test func columnsOfDifferentWidthsAreTheDaemonsFramesAtEveryWidth() async throws {
        let (worst, boxes, count) = try await StyledContainers.checked { client, page in
            var rng = SplitMix64(seed: 59)
            for direction in [Direction.ltr, .rtl] {
                try await page.addFeed(
                    client, name: "weights-\(direction)", spec: Self.weightedFeed(direction), minWidth: 320,
                    maxWidth: 1280, firstItems: nil, className: "w\(direction)", random: 12, &rng)
            }
            for feed in 0..<4 {
                var feeds = ResponsiveFeeds(seed: UInt64(5400 + feed), columnWidthsChance: 0.8)
                let (spec, minWidth, maxWidth) = feeds.feed(maxItems: 30)
                try await page.addFeed(
                    client, name: "weights-\(feed)", spec: spec, minWidth: minWidth, maxWidth: maxWidth,
                    firstItems: feed == 3 ? 8 : nil, className: "g\(feed)", random: 12, &feeds.random.rng)
            }
        }
        print(
            "ResponsiveCSSBrowserTests: columnWidths, \(boxes) boxes in \(count) containers, largest difference \(worst) px"
        )
        #expect(count >= 60)
        #expect(worst <= StyledContainers.tolerance)
    }

    /// Two sections: one with its own header, footer, insets and header insets on the defaults' three columns of
    /// `[1, 2, 1.5]` (12 apart, rows 6 apart), and one of four columns `[3, 1, 1, 2]` with no spacing; aspect items,
    /// fixed heights, spans of two and full spans, all real-valued.
    static func weightedFeed(_ direction: Direction) -> LayoutSpec {
        var rng = SplitMix64(seed: 61)
        func items(_ count: Int) -> [Item] {
            (0..<count).map { k in
                var item = Item(height: Double.random(in: 30...200, using: &rng))
                if k % 3 != 1 { item.aspectWidth = Double.random(in: 60...200, using: &rng) }
                if k % 7 == 3 { item.span = .columns(2) }
                if k % 11 == 6 { item.span = .full }
                return item
            }
        }
        let first = SectionProperties(
            insets: Insets(top: 8, left: 16, bottom: 10.5, right: 4), headerHeight: 36.5, footerHeight: 21.25,
            headerInsets: Insets(top: 2, left: 3, bottom: 4, right: 5))
        let second = SectionProperties(columns: 4, columnSpacing: 0, columnWidths: [3, 1, 1, 2])
        return LayoutSpec(
            width: 0, direction: direction,
            defaults: SectionProperties(columns: 3, columnSpacing: 12, rowSpacing: 6, columnWidths: [1, 2, 1.5]),
            sections: [
                SectionSpec(properties: first, items: items(24)), SectionSpec(properties: second, items: items(16)),
            ])
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
