import Foundation
import Testing
import WaterfallClient
import WaterfallCommandLine
import WaterfallLayout

/// Golden SVG files of small layouts laid out by the engine. `WATERFALL_RECORD_GOLDEN=1` re-records them, and the
/// test then fails, so a recording is always looked at (in a browser) before it is committed.
@Suite struct SVGRendererTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var spec: LayoutSpec
        var renderer: SVGRenderer
        var exactLanes: Bool
        var testDescription: String { name }
    }

    static func properties(_ body: (inout SectionProperties) -> Void) -> SectionProperties {
        var p = SectionProperties()
        body(&p)
        return p
    }

    /// Heights of 20 to 79 points, varied by `seed`.
    static func height(_ seed: Int) -> Double { Double(20 + seed % 60) }

    static let cases: [Case] = [
        Case(
            name: "feed",
            spec: LayoutSpec(
                width: 375,
                defaults: properties {
                    $0.columns = 2
                    $0.insets = Insets(top: 0, left: 10, bottom: 0, right: 10)
                },
                sections: [
                    SectionSpec(
                        properties: properties { $0.headerHeight = 44 },
                        items: [
                            Item(height: 120), Item(height: 80), Item(height: 100, id: "ad-1"), Item(height: 60),
                            Item(height: 3, aspectWidth: 4, span: .full),
                        ])
                ]),
            renderer: SVGRenderer(), exactLanes: true),
        Case(
            name: "rtl-three-columns",
            spec: LayoutSpec(
                width: 320, direction: .rtl,
                sections: [
                    SectionSpec(
                        properties: properties {
                            $0.columns = 3
                            $0.insets = Insets(top: 8, left: 8, bottom: 8, right: 8)
                            $0.columnSpacing = 6
                            $0.headerHeight = 30
                            $0.footerHeight = 24
                        },
                        items: (0..<10).map { k in Item(height: Self.height(k * 37), span: .columns(k == 4 ? 2 : 1)) }),
                    SectionSpec(
                        properties: properties { $0.columns = 1 },
                        items: [Item(height: 40, id: "banner"), Item(height: 25)]),
                ]),
            renderer: SVGRenderer(width: 480), exactLanes: false),
        Case(
            name: "window-of-sections",
            spec: LayoutSpec(
                width: 300,
                defaults: properties {
                    $0.minColumnWidth = 90
                    $0.headerHeight = 20
                },
                sections: (0..<6).map { s in
                    // Section 2's header pins: its range is drawn from the engine's pinMaxY.
                    SectionSpec(
                        properties: s == 2 ? properties { $0.pinHeader = true } : SectionProperties(),
                        items: (0..<(3 + s)).map { k in Item(height: Self.height(s * 13 + k * 29)) })
                }),
            renderer: SVGRenderer(width: 300, window: Rect(x: 0, y: 150, width: 300, height: 300)), exactLanes: true),
    ]

    @Test(arguments: cases)
    func matchesItsGoldenFile(_ testCase: Case) async throws {
        let (layout, _) = try await Layout.make(testCase.spec)
        let frames = LayoutFrames(
            seq: layout.seq, contentSize: layout.contentSize,
            sections: (0..<layout.sectionCount).map { layout.frames(ofSection: $0) })
        var picture = LayoutPicture(name: testCase.name, model: FrameModel(frames))
        if testCase.exactLanes {
            picture.lanes = (0..<layout.sectionCount).map { layout.columnLanes(ofSection: $0) }
            picture.laneSource = .export
        }
        let svg = testCase.renderer.render(picture)
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Golden/\(testCase.name).svg").path
        if ProcessInfo.processInfo.environment["WATERFALL_RECORD_GOLDEN"] == "1" {
            try svg.write(toFile: path, atomically: true, encoding: .utf8)
            Issue.record(
                "recorded \(path): look at it in a browser, then run the tests without WATERFALL_RECORD_GOLDEN")
            return
        }
        let golden = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg == golden, "\(testCase.name) differs from \(path); WATERFALL_RECORD_GOLDEN=1 re-records it")
    }

    @Test func inferredLanesAreTheNarrowestItemsColumns() {
        let items: [FrameModel.Item?] = [
            .init(frame: Rect(x: 10, y: 0, width: 50, height: 20)),
            .init(frame: Rect(x: 70, y: 0, width: 50, height: 40)),
            .init(frame: Rect(x: 10, y: 30, width: 110, height: 20)),
        ]
        let lanes = LayoutPicture.inferredLanes(of: FrameModel.Section(origin: 0, height: 60, items: items))
        #expect(lanes == [Rect(x: 10, y: 0, width: 50, height: 50), Rect(x: 70, y: 0, width: 50, height: 50)])
    }

    /// The numbers of attributes `names` of every `<rect class="kind" …>` in `svg`.
    static func rects(_ kind: String, in svg: String, _ names: [String]) -> [[Double]] {
        svg.split(separator: "\n").filter { $0.hasPrefix("<rect class=\"\(kind)\"") }.map { line in
            names.map { name in
                let value = line.components(separatedBy: " \(name)=\"")[1].prefix { $0 != "\"" }
                return Double(value) ?? .nan
            }
        }
    }

    /// Each section's tag stands in the margin left of the window, clear of every header and item, and level with
    /// the top of its section.
    @Test(arguments: cases)
    func sectionTagsStandClearOfTheWindow(_ testCase: Case) async throws {
        let golden = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("Golden/\(testCase.name).svg").path, encoding: .utf8)
        let tags = Self.rects("tag", in: golden, ["x", "width", "y"])
        let boxes = ["header", "footer", "item", "section"].flatMap { Self.rects($0, in: golden, ["x"]) }
        let windowLeft = try #require(boxes.map { $0[0] }.min())
        #expect(!tags.isEmpty)
        for tag in tags { #expect(tag[0] >= 0 && tag[0] + tag[1] <= windowLeft, "\(tag) reaches x \(windowLeft)") }
        let sectionTops = Self.rects("section", in: golden, ["y"]).map { $0[0] }
        #expect(tags.map { $0[2] - 2 } == sectionTops.map { max($0, 40) })
    }

    @Test func theDefaultWindowIsTheFirst4000Points() async throws {
        let spec = LayoutSpec(width: 100, sections: [SectionSpec(items: (0..<400).map { _ in Item(height: 50) })])
        let (layout, _) = try await Layout.make(spec)
        let frames = LayoutFrames(
            seq: 1, contentSize: layout.contentSize, sections: [layout.frames(ofSection: 0)])
        let svg = SVGRenderer().render(LayoutPicture(name: "tall", model: FrameModel(frames)))
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="116" height="4040""#))
        #expect(svg.contains("window x 0–100, y 0–4000"))
        // 400 items in two columns, 60 points apart: about 67 rows fit, not 200.
        let drawn = svg.components(separatedBy: #"class="item""#).count - 1
        #expect(drawn > 120 && drawn < 140)
        #expect(svg.contains("tall  ·  seq 1  ·  100 × \(Int(layout.contentSize.height))  ·  400 items"))
    }

    @Test func namesAreEscaped() {
        let picture = LayoutPicture(
            name: "a<b>&\"c\"", seq: 1, contentSize: Size(width: 10, height: 10), sections: [], lanes: [],
            laneSource: .inferred)
        let svg = SVGRenderer().render(picture)
        #expect(svg.contains("a&lt;b&gt;&amp;&quot;c&quot;") && !svg.contains("a<b>"))
    }
}
