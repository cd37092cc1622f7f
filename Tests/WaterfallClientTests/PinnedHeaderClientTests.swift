import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallServerTestSupport
import WaterfallWire

@testable import WaterfallClient

/// Pinned headers on the client's side: `pinMaxY` and `pinned` read from replies, and a `FrameModel` that keeps
/// each pinned header's range through diffs.
@Suite(.tags(.server)) struct PinnedHeaderClientTests {
    /// Geometry.md's pinned example: two sections, headers of 40 pinned by the defaults.
    static let spec = LayoutSpec(
        width: 300, defaults: SectionProperties(headerHeight: 40, pinHeader: true),
        sections: [
            SectionSpec(
                properties: SectionProperties(insets: Insets(top: 0, left: 0, bottom: 10, right: 0)),
                items: [Item(height: 100), Item(height: 60)]),
            SectionSpec(items: [Item(height: 50)]),
        ])

    static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
        Rect(x: x, y: y, width: width, height: height)
    }

    @Test func repliesAreReadWithTheirPins() throws {
        let get = try ReplyDecoding.frames(
            try JSONDocument(
                parsing:
                    #"{"seq":1,"contentSize":{"w":300,"h":240},"sections":[{"section":0,"origin":0,"height":150,"count":0,"header":{"x":0,"y":0,"w":300,"h":40,"pinMaxY":110},"items":[]},{"section":1,"origin":150,"height":40,"count":0,"header":{"x":0,"y":150,"w":300,"h":40},"items":[]}]}"#
            ).root)
        #expect(get.sections.map(\.pinMaxY) == [110, nil])
        #expect(FrameModel(get).sections.map(\.pinMaxY) == [110, nil])
        let mutation = try ReplyDecoding.mutation(
            try JSONDocument(
                parsing:
                    #"{"seq":2,"contentSize":{"w":300,"h":240},"diff":{"sections":[{"section":0,"origin":0,"height":150,"count":0,"header":{"x":0,"y":0,"w":300,"h":40,"pinMaxY":110}},{"section":1,"origin":150,"height":40,"count":0,"header":null}]}}"#
            ).root)
        #expect(mutation.diff?.sections.map(\.pinMaxY) == [110, nil])
        #expect(mutation.diff?.sections.map(\.header) == [.set(Self.rect(0, 0, 300, 40)), .removed])
        let query = try ReplyDecoding.query(
            try JSONDocument(
                parsing:
                    #"{"seq":1,"contentSize":{"w":300,"h":240},"elements":[{"kind":"header","section":0,"x":0,"y":60,"w":300,"h":40,"pinned":true},{"kind":"header","section":1,"x":0,"y":150,"w":300,"h":40}]}"#
            ).root)
        #expect(query.elements.map(\.pinned) == [true, false])
    }

    @Test(arguments: [
        (
            #"{"seq":1,"contentSize":{"w":1,"h":1},"sections":[{"section":0,"origin":0,"height":1,"count":0,"header":{"x":0,"y":0,"w":1,"h":1,"pinMaxY":"9"},"items":[]}]}"#,
            "result.sections[0].header.pinMaxY: not a number"
        ),
        (
            #"{"seq":1,"contentSize":{"w":1,"h":1},"elements":[{"kind":"header","section":0,"x":0,"y":0,"w":1,"h":1,"pinned":1}]}"#,
            "result.elements[0].pinned: not a boolean"
        ),
    ])
    func aMalformedPinNamesTheField(_ text: String, _ message: String) throws {
        let root = try JSONDocument(parsing: text).root
        #expect {
            if root["sections"] != nil { _ = try ReplyDecoding.frames(root) } else { _ = try ReplyDecoding.query(root) }
        } throws: { error in
            (error as? ReplyError)?.message == message
        }
    }

    @Test func theModelKeepsPinsThroughDiffs() throws {
        var model = FrameModel(
            seq: 1, contentSize: Size(width: 300, height: 240),
            sections: [
                FrameModel.Section(origin: 0, height: 150, header: Self.rect(0, 0, 300, 40), pinMaxY: 110, items: []),
                FrameModel.Section(
                    origin: 150, height: 90, header: Self.rect(0, 150, 300, 40), pinMaxY: 200, items: []),
            ])
        // Section 0 lists its header with a new pinMaxY; section 1 only moves, its range with it.
        try model.apply(
            LayoutDiff(
                sections: [
                    SectionDiff(
                        section: 0, origin: 0, height: 170, count: 0, header: .set(Self.rect(0, 0, 300, 40)),
                        pinMaxY: 130)
                ], shifts: [SectionShift(from: 1, to: 1, dy: 20)]))
        #expect(model.sections.map(\.pinMaxY) == [130, 220])
        // A listed section that moved keeps its range moved by dy when its header is not listed.
        try model.apply(LayoutDiff(sections: [SectionDiff(section: 1, origin: 180, height: 100, count: 0, dy: 10)]))
        #expect(model.sections[1].pinMaxY == 230 && model.sections[1].header?.y == 180)
        // A header listed without pinMaxY is no longer pinned; one gone takes its range along.
        try model.apply(
            LayoutDiff(sections: [
                SectionDiff(section: 0, origin: 0, height: 170, count: 0, header: .set(Self.rect(0, 0, 300, 40))),
                SectionDiff(section: 1, origin: 180, height: 60, count: 0, header: .removed),
            ]))
        #expect(model.sections.map(\.pinMaxY) == [nil, nil])
    }

    /// Through a daemon: the frames, a query and a model kept by diffs agree with what the daemon says afresh.
    @Test func aModelKeptByDiffsEqualsAFreshGet() async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.createLayout("pins", Self.spec)
            var model = FrameModel(try await client.frames(of: "pins"))
            #expect(model.sections.map(\.pinMaxY) == [110, 200])
            let visible = try await client.query("pins", rect: Self.rect(0, 60, 300, 100))
            #expect(
                visible.elements.first?.frame == Self.rect(0, 60, 300, 40) && visible.elements.first?.pinned == true)
            #expect(visible.elements.last?.kind == .header && visible.elements.last?.pinned == false)
            let commands: [LayoutCommand] = [
                .insertItems(section: 0, at: 2, items: [Item(height: 70)]),
                .configureSection(
                    1,
                    { () -> SectionPatch in
                        var patch = SectionPatch()
                        patch.pinHeader = .set(false)
                        return patch
                    }()),
                .insertSections(at: 0, sections: [SectionSpec(items: [Item(height: 5)])]),
            ]
            for command in commands {
                let result = try await client.apply(command, to: "pins")
                try model.apply(result, replaying: [command])
            }
            let fresh = FrameModel(try await client.frames(of: "pins"))
            #expect(model == fresh)
            // The new section 0: header 40, item to 45, pinMaxY 5. The first section's new item goes to column 1 at
            // 110 and ends at 180: pinMaxY 180 + 10 − 40 = 150, moved down by 45. The last is unpinned.
            #expect(fresh.sections.map(\.pinMaxY) == [5, 195, nil])
        }
    }
}
