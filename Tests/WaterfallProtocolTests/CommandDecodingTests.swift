import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallTestSupport
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// The params of each mutating method, as the engine command they decode to.
@Suite struct CommandDecodingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var method: ChangeMethod
        var params: String
        var command: LayoutCommand
        var testDescription: String { "\(method.rawValue) \(params)" }
    }

    static let cases: [Case] = [
        Case(
            method: .itemsInsert,
            params: #"{"section":1,"at":2,"items":[{"h":120},{"h":0.5,"w":2,"span":"full","id":"a"}]}"#,
            command: .insertItems(
                section: 1, at: 2,
                items: [Item(height: 120), Item(height: 0.5, aspectWidth: 2, span: .full, id: "a")])),
        Case(
            method: .itemsInsert, params: #"{"section":0,"at":0,"items":[{"h":1,"span":2,"w":null,"id":null}]}"#,
            command: .insertItems(section: 0, at: 0, items: [Item(height: 1, span: .columns(2))])),
        Case(
            method: .itemsInsert, params: #"{"section":0,"at":0,"items":[{"h":1},{"w":2,"h":3},{"h":-0.25},{"h" :4}]}"#,
            command: .insertItems(
                section: 0, at: 0,
                items: [Item(height: 1), Item(height: 3, aspectWidth: 2), Item(height: -0.25), Item(height: 4)])),
        Case(
            method: .itemsInsert, params: #"{"section":0,"at":0,"items":[]}"#,
            command: .insertItems(section: 0, at: 0, items: [])),
        Case(
            method: .itemsDelete, params: #"{"section":3,"items":[5,0,2]}"#,
            command: .deleteItems(section: 3, indices: [5, 0, 2])),
        Case(
            method: .itemsUpdate,
            params: #"{"section":0,"items":[{"i":4,"h":10},{"h":7,"i":0,"span":"full","id":"x"}]}"#,
            command: .updateItems(
                section: 0,
                updates: [
                    ItemUpdate(index: 4, item: Item(height: 10)),
                    ItemUpdate(index: 0, item: Item(height: 7, span: .full, id: "x")),
                ])),
        Case(
            method: .itemsMove, params: #"{"from":[0,3],"to":[2,0]}"#,
            command: .moveItem(from: ItemPath(section: 0, item: 3), to: ItemPath(section: 2, item: 0))),
        Case(
            method: .sectionsInsert,
            params: #"{"at":1,"sections":[{},{"columns":3,"rowSpacing":8,"items":[{"h":5}]}]}"#,
            command: .insertSections(
                at: 1,
                sections: [
                    SectionSpec(),
                    SectionSpec(properties: SectionProperties(columns: 3, rowSpacing: 8), items: [Item(height: 5)]),
                ])),
        Case(
            method: .sectionsInsert,
            params: #"""
                {"at":0,"sections":[{"minColumnWidth":100,"maxColumns":4,"columnSpacing":2,"insets":{"top":1,"left":2},
                "headerHeight":40,"footerHeight":20,"headerInsets":{"bottom":3},"footerInsets":{"right":4},
                "placement":"next","tolerance":6}]}
                """#,
            command: .insertSections(
                at: 0,
                sections: [
                    SectionSpec(
                        properties: SectionProperties(
                            minColumnWidth: 100, maxColumns: 4, columnSpacing: 2,
                            insets: Insets(top: 1, left: 2, bottom: 0, right: 0), headerHeight: 40, footerHeight: 20,
                            headerInsets: Insets(top: 0, left: 0, bottom: 3, right: 0),
                            footerInsets: Insets(top: 0, left: 0, bottom: 0, right: 4), placement: .next, tolerance: 6
                        ))
                ])),
        Case(method: .sectionsDelete, params: #"{"sections":[2,0]}"#, command: .deleteSections([2, 0])),
        Case(method: .sectionsMove, params: #"{"from":2,"to":0}"#, command: .moveSection(from: 2, to: 0)),
        Case(
            method: .sectionsConfigure,
            params: #"{"section":1,"columns":4,"headerHeight":null,"placement":"shortest"}"#,
            command: .configureSection(
                1,
                patch {
                    $0.columns = .set(4); $0.headerHeight = .reset; $0.placement = .set(.shortest)
                })),
        // Setting minColumnWidth while resetting columns is not a conflict.
        Case(
            method: .sectionsConfigure, params: #"{"section":0,"columns":null,"minColumnWidth":90}"#,
            command: .configureSection(
                0,
                patch {
                    $0.columns = .reset; $0.minColumnWidth = .set(90)
                })),
        Case(method: .sectionsConfigure, params: #"{"section":0}"#, command: .configureSection(0, SectionPatch())),
        Case(
            method: .sectionsConfigure, params: #"{"section":2,"tieBreak":"cursor","pinHeader":true}"#,
            command: .configureSection(
                2,
                patch {
                    $0.tieBreak = .set(.cursor); $0.pinHeader = .set(true)
                })),
        // `null` resets either property.
        Case(
            method: .sectionsConfigure, params: #"{"section":0,"tieBreak":null,"pinHeader":null}"#,
            command: .configureSection(
                0,
                patch {
                    $0.tieBreak = .reset; $0.pinHeader = .reset
                })),
        Case(
            method: .sectionsInsert,
            params: #"{"at":0,"sections":[{"tieBreak":"leftmost","pinHeader":false},{"tieBreak":null}]}"#,
            command: .insertSections(
                at: 0,
                sections: [
                    SectionSpec(properties: SectionProperties(tieBreak: .leftmost, pinHeader: false)), SectionSpec(),
                ])),
        Case(
            method: .layoutConfigure, params: #"{"defaults":{"tieBreak":"cursor","pinHeader":true}}"#,
            command: .configureLayout(LayoutPatch(defaults: SectionProperties(tieBreak: .cursor, pinHeader: true)))),
        Case(
            method: .layoutConfigure, params: #"{"width":320,"scale":2,"direction":"rtl","minContentHeight":900}"#,
            command: .configureLayout(LayoutPatch(width: 320, scale: 2, direction: .rtl, minContentHeight: 900))),
        Case(
            method: .layoutConfigure, params: #"{"axis":"horizontal"}"#,
            command: .configureLayout(LayoutPatch(axis: .horizontal))),
        Case(
            method: .layoutConfigure, params: #"{"axis":"vertical","direction":null}"#,
            command: .configureLayout(LayoutPatch(axis: .vertical))),
        Case(
            method: .layoutConfigure, params: #"{"defaults":{"columns":2,"rowSpacing":4}}"#,
            command: .configureLayout(LayoutPatch(defaults: SectionProperties(columns: 2, rowSpacing: 4)))),
        // `defaults: null` replaces the defaults with none.
        Case(
            method: .layoutConfigure, params: #"{"defaults":null}"#,
            command: .configureLayout(LayoutPatch(defaults: SectionProperties()))),
        Case(method: .layoutConfigure, params: #"{}"#, command: .configureLayout(LayoutPatch())),
    ]

    @Test(arguments: cases)
    func decodesTheCommand(_ c: Case) throws {
        let document = try JSONDocument(parsing: c.params)
        var p = try Params(document.root, path: "params")
        #expect(try CommandDecoding.command(c.method, &p) == c.command)
        try p.finish()
    }

    /// Params a method refuses, with the exact message.
    @Test(arguments: [
        (ChangeMethod.itemsInsert, #"{"section":0,"items":[]}"#, "params.at: missing"),
        (.itemsMove, #"{"from":[0],"to":[0,0]}"#, "params.from: [0] is not a [section, item] pair"),
        (.itemsMove, #"{"from":[0,"1"],"to":[0,0]}"#, #"params.from[1]: must be an integer, not string "1""#),
        (.itemsMove, #"{"to":[0,0]}"#, "params.from: missing"),
        (.itemsDelete, #"{"section":0,"items":[1,2.5]}"#, "params.items[1]: 2.5 is not an integer in range"),
        (
            .sectionsConfigure, #"{"section":0,"columns":2,"minColumnWidth":80}"#,
            "params.minColumnWidth: cannot be set together with columns"
        ),
        (
            .sectionsConfigure, #"{"section":0,"placement":"tallest"}"#,
            #"params.placement: "tallest" is not "shortest" or "next""#
        ),
        (.sectionsConfigure, #"{"section":0,"insets":{"top":1,"up":2}}"#, "params.insets.up: unknown field"),
        (
            .sectionsConfigure, #"{"section":0,"tieBreak":"middle"}"#,
            #"params.tieBreak: "middle" is not "leftmost" or "cursor""#
        ),
        (.sectionsConfigure, #"{"section":0,"tieBreak":1}"#, #"params.tieBreak: 1 is not "leftmost" or "cursor""#),
        (.sectionsConfigure, #"{"section":0,"pinHeader":1}"#, "params.pinHeader: must be true or false, not number 1"),
        (
            .sectionsInsert, #"{"at":0,"sections":[{"pinHeader":"yes"}]}"#,
            #"params.sections[0].pinHeader: must be true or false, not string "yes""#
        ),
        (
            .layoutConfigure, #"{"defaults":{"tieBreak":"Cursor"}}"#,
            #"params.defaults.tieBreak: "Cursor" is not "leftmost" or "cursor""#
        ),
        (
            .sectionsInsert, #"{"at":0,"sections":[{"columns":2,"minColumnWidth":80}]}"#,
            "params.sections[0].minColumnWidth: cannot be set together with columns"
        ),
        (.sectionsInsert, #"{"at":0,"sections":[{"items":[{"h":1},{}]}]}"#, "params.sections[0].items[1].h: missing"),
        (.layoutConfigure, #"{"direction":"up"}"#, #"params.direction: "up" is not "ltr" or "rtl""#),
        (.layoutConfigure, #"{"axis":"diagonal"}"#, #"params.axis: "diagonal" is not "vertical" or "horizontal""#),
        (.layoutConfigure, #"{"axis":1}"#, #"params.axis: 1 is not "vertical" or "horizontal""#),
        (.layoutConfigure, #"{"defaults":{"colums":2}}"#, "params.defaults.colums: unknown field"),
        (.itemsDelete, #"{"section":0,"items":[1,-1]}"#, "params.items[1]: -1 is out of range (0 to 2147483647)"),
        (
            .itemsInsert, #"{"section":0,"at":2147483648,"items":[]}"#,
            "params.at: 2147483648 is out of range (0 to 2147483647)"
        ),
        (
            .itemsInsert, #"{"section":-9223372036854775808,"at":0,"items":[]}"#,
            "params.section: -9223372036854775808 is out of range (0 to 2147483647)"
        ),
        (
            .itemsInsert, #"{"section":0,"at":0,"items":[{"h":1,"span":0}]}"#,
            "params.items[0].span: 0 is out of range (1 to 2147483647)"
        ),
        (
            .itemsUpdate, #"{"section":0,"items":[{"i":9223372036854775807,"h":1}]}"#,
            "params.items[0].i: 9223372036854775807 is out of range (0 to 2147483647)"
        ),
        (.itemsMove, #"{"from":[0,0],"to":[-1,0]}"#, "params.to[0]: -1 is out of range (0 to 2147483647)"),
        (.sectionsMove, #"{"from":0,"to":2147483648}"#, "params.to: 2147483648 is out of range (0 to 2147483647)"),
        (.sectionsConfigure, #"{"section":0,"columns":1025}"#, "params.columns: 1025 is out of range (1 to 1024)"),
        (
            .sectionsConfigure, #"{"section":0,"maxColumns":0}"#,
            "params.maxColumns: 0 is out of range (1 to 2147483647)"
        ),
    ])
    func refusesBadParams(method: ChangeMethod, params: String, message: String) throws {
        let document = try JSONDocument(parsing: params)
        let error = #expect(throws: ProtocolError.self) {
            var p = try Params(document.root, path: "params")
            _ = try CommandDecoding.command(method, &p)
            try p.finish()
        }
        #expect(error?.code == .badParams)
        #expect(error?.message == message)
    }

    @Test func decodesALayoutSpec() throws {
        let document = try JSONDocument(
            parsing: #"""
                {"width":375,"scale":3,"direction":"rtl","minContentHeight":10,"defaults":{"columns":2},
                "sections":[{"headerHeight":30,"items":[{"h":100}]}]}
                """#)
        var p = try Params(document.root, path: "params")
        let spec = try CommandDecoding.layoutSpec(&p)
        try p.finish()
        #expect(
            spec
                == LayoutSpec(
                    width: 375, scale: 3, direction: .rtl, minContentHeight: 10,
                    defaults: SectionProperties(columns: 2),
                    sections: [SectionSpec(properties: SectionProperties(headerHeight: 30), items: [Item(height: 100)])]
                ))
    }

    @Test func aLayoutSpecNeedsAWidth() throws {
        let document = try JSONDocument(parsing: #"{"sections":[]}"#)
        var p = try Params(document.root, path: "params")
        #expect(throws: ProtocolError.badParams("params.width", "missing")) { try CommandDecoding.layoutSpec(&p) }
    }

    @Test func decodesABatch() throws {
        let document = try JSONDocument(
            parsing: #"""
                [{"method":"items.insert","params":{"section":0,"at":0,"items":[{"h":1}]}},
                 {"params":{"from":0,"to":1},"method":"sections.move"},
                 {"method":"layout.configure","params":{"width":100}}]
                """#)
        let commands = try CommandDecoding.batch(document.root.elements, "params.ops")
        #expect(
            commands == [
                .insertItems(section: 0, at: 0, items: [Item(height: 1)]), .moveSection(from: 0, to: 1),
                .configureLayout(LayoutPatch(width: 100)),
            ])
    }

    @Test(arguments: [
        (
            #"[{"method":"layout.create","params":{"width":1}}]"#,
            #"params.ops[0].method: "layout.create" cannot be used in a batch"#
        ),
        (#"[{"method":"batch","params":{}}]"#, #"params.ops[0].method: "batch" cannot be used in a batch"#),
        (#"[{"method":"nope"}]"#, #"params.ops[0].method: "nope" cannot be used in a batch"#),
        (#"[{"method":"sections.move","params":{"from":0,"to":1}},{"params":{}}]"#, "params.ops[1].method: missing"),
        (
            #"[{"method":"sections.move","params":{"layout":"a","from":0,"to":1}}]"#,
            "params.ops[0].params.layout: unknown field"
        ),
        (
            #"[{"method":"sections.move","params":{"from":0,"to":1,"diff":false}}]"#,
            "params.ops[0].params.diff: unknown field"
        ),
        (#"[{"method":"sections.move","params":{"from":0,"to":1},"id":1}]"#, "params.ops[0].id: unknown field"),
        (#"[{"method":"sections.move"}]"#, "params.ops[0].params.from: missing"),
        (
            #"[{"method":"items.delete","params":{"section":0,"items":[[1]]}}]"#,
            "params.ops[0].params.items[0]: must be an integer, not array [1]"
        ),
        (#"[7]"#, "params.ops[0]: must be an object, not number"),
    ])
    func refusesABadBatch(ops: String, message: String) throws {
        let document = try JSONDocument(parsing: ops)
        let error = #expect(throws: ProtocolError.self) {
            _ = try CommandDecoding.batch(document.root.elements, "params.ops")
        }
        #expect(error?.code == .badParams)
        #expect(error?.message == message)
    }

    /// Random commands, written as the wire writes them, decode to themselves.
    @Test func roundTripsRandomCommands() throws {
        var random = RandomCommands(seed: 0x5EED)
        var counts = [3, 0, 5]
        for step in 0..<2000 {
            let command = random.command(counts: counts)
            let wire = WireCommand(command)
            let document = try JSONDocument(parsing: wire.params.jsonText)
            var p = try Params(document.root, path: "params")
            let decoded = try CommandDecoding.command(try #require(ChangeMethod(rawValue: wire.method)), &p)
            try p.finish()
            #expect(decoded == command, "step \(step): \(wire.params)")
            if decoded != command { return }
            counts = counts.map { _ in random.int(0...8) }
        }
    }
}

private func patch(_ body: (inout SectionPatch) -> Void) -> SectionPatch {
    var patch = SectionPatch()
    body(&patch)
    return patch
}
