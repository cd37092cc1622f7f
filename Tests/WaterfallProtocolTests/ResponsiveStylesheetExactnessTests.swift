import Testing
import WaterfallLayout
import WaterfallTestSupport
import WaterfallWire

@testable import WaterfallProtocol

/// `layout.css` read back (`StylesheetEvaluation`) at random grid widths and both sides of every piece's start:
/// each element's box is a fresh `Layout.make`'s frame at that width, and the container's height its content
/// height, within the numbers' written precision and the 0.008 px the sheet adds for Chromium's truncation (which an
/// aspect item's height gets times its ratio).
@Suite struct ResponsiveStylesheetExactnessTests {
    static let tolerance = 0.016

    @Test(arguments: 0..<16)
    func equalColumns(seed: Int) async throws {
        var feeds = ResponsiveFeeds(seed: UInt64(7100 + seed))
        try await Self.check(&feeds, seed: seed)
    }

    /// Sections with `columnWidths`: per item `--a` and `--b` in the mean column `--w`.
    @Test(arguments: 0..<16)
    func columnsOfDifferentWidths(seed: Int) async throws {
        var feeds = ResponsiveFeeds(seed: UInt64(7200 + seed), columnWidthsChance: 0.8)
        try await Self.check(&feeds, seed: seed)
    }

    /// Weights 10¹² apart, the widest range the daemon takes: `--a` and `--b` are written to within the budget of
    /// the widest mean column.
    @Test func extremeWeights() async throws {
        var items: [Item] = []
        for k in 0..<12 {
            let height = 40 + Double(k % 5) * 13.3
            items.append(k % 2 == 0 ? Item(height: height, aspectWidth: 60 + Double(k)) : Item(height: height))
        }
        let spec = LayoutSpec(
            width: 0, direction: .rtl,
            sections: [
                SectionSpec(
                    properties: SectionProperties(columns: 3, columnSpacing: 6, columnWidths: [1e-6, 1e6, 1]),
                    items: items)
            ])
        try await Self.check(spec, minWidth: 90_000, maxWidth: 100_000, firstItems: nil, random: 8, seed: 0)
    }

    static func check(_ feeds: inout ResponsiveFeeds, seed: Int) async throws {
        let (spec, minWidth, maxWidth) = feeds.feed(maxItems: 30)
        try await check(
            spec, minWidth: minWidth, maxWidth: maxWidth, firstItems: seed % 4 == 3 ? 6 : nil, random: 12, seed: seed)
    }

    static func check(
        _ spec: LayoutSpec, minWidth: Double, maxWidth: Double, firstItems: Int?, random: Int, seed: Int
    ) async throws {
        let (sheet, responsive) = try StylesheetRequest(
            layout: "f", minWidth: minWidth, maxWidth: maxWidth, items: firstItems
        ).stylesheet(of: spec, columnLimit: 1024)
        let evaluation = StylesheetEvaluation(String(decoding: sheet.css, as: UTF8.self))
        var rng = SplitMix64(seed: UInt64(seed))
        var widths = (0..<random).map { _ in
            Double(Int.random(in: Int(minWidth * 64)...Int(maxWidth * 64), using: &rng)) / 64
        }
        for piece in responsive.pieces.dropFirst() { widths += [piece.start - responsive.step, piece.start] }
        for width in widths + [minWidth, maxWidth] {
            let layout = try await Layout.make(ResponsiveFeeds.spec(spec, width: width, firstItems: firstItems)).layout
            var worst = (evaluation.height(width: width) - layout.contentSize.height).magnitude
            var boxes: [(String, Rect?, Rect)] = []
            for s in spec.sections.indices {
                let frames = layout.frames(ofSection: s)
                func box(_ element: String) -> Rect { evaluation.box(section: s, element: element, width: width) }
                if let header = frames.header { boxes.append(("s\(s) h", header, box("h"))) }
                if let footer = frames.footer { boxes.append(("s\(s) f", footer, box("f"))) }
                for (k, item) in frames.items.enumerated() { boxes.append(("s\(s) i\(k)", item.frame, box("i\(k)"))) }
            }
            for (name, want, got) in boxes {
                let off =
                    want.map {
                        max(
                            ($0.x - got.x).magnitude, ($0.y - got.y).magnitude, ($0.width - got.width).magnitude,
                            ($0.height - got.height).magnitude - 0.008 * $0.height / max($0.width, 1))
                    } ?? .infinity
                worst = max(worst, off)
                #expect(
                    off <= tolerance, "seed \(seed), width \(width): \(name) at \(got), not \(String(describing: want))"
                )
            }
            #expect(worst <= tolerance, "seed \(seed), width \(width): off by \(worst); \(sheet.pieces) pieces")
        }
    }
}
