import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

@testable import WaterfallClient

@Suite struct ReplyDecodingTests {
    @Test func aMutationResultWithShiftsAndAnAnchor() throws {
        // A mutation result with an anchor.
        let text = #"""
            {"seq":12,"contentSize":{"w":375,"h":5210},"diff":{"sections":[{"section":0,"origin":0,"height":812,"count":31,"items":[{"i":30,"x":10,"y":700,"w":172.5,"h":102}]}],"shifts":[{"from":1,"to":999,"dy":102}]},"anchor":{"section":3,"i":4,"dy":102}}
            """#
        let result = try ReplyDecoding.mutation(try JSONDocument(parsing: text).root)
        #expect(result.seq == 12 && result.contentSize == Size(width: 375, height: 5210))
        #expect(result.diff?.shifts == [SectionShift(from: 1, to: 999, dy: 102)])
        #expect(
            result.diff?.sections.first?.items == [
                ItemFrame(index: 30, frame: Rect(x: 10, y: 700, width: 172.5, height: 102))
            ])
        #expect(result.anchor == .moved(ItemPath(section: 3, item: 4), dy: 102))
        let removed = try ReplyDecoding.mutation(
            try JSONDocument(parsing: #"{"seq":2,"contentSize":{"w":1,"h":1},"anchor":null}"#).root)
        #expect(removed.anchor == .removed && removed.diff == nil)
    }

    @Test(arguments: [
        (
            #"{"seq":1,"contentSize":{"w":1,"h":1},"diff":{"sections":[{"section":0}]}}"#,
            "result.diff.sections[0]: no member origin"
        ),
        (#"{"seq":"1","contentSize":{"w":1,"h":1}}"#, "result.seq: not an integer"),
        (
            #"{"seq":1,"contentSize":{"w":1,"h":1},"diff":{"sections":[{"section":0,"origin":0,"height":1,"count":1,"items":[{"i":0,"x":0}]}]}}"#,
            "result.diff.sections[0].items[0]: not an item frame {i, x, y, w, h} of numbers"
        ),
        (
            #"{"seq":1,"contentSize":{"w":1,"h":1},"diff":{"sections":[{"section":0,"origin":0,"count":1}]}}"#,
            "result.diff.sections[0]: no member height"
        ),
        (
            #"{"seq":1,"contentSize":{"w":1,"h":1},"diff":{"sections":[{"section":0,"origin":0,"width":1,"count":"1"}]}}"#,
            "result.diff.sections[0].count: not an integer"
        ),
        (
            #"{"seq":1,"contentSize":{"w":1,"h":1},"diff":{"sections":[{"section":0,"origin":0,"height":1,"count":1,"dx":null}]}}"#,
            "result.diff.sections[0].dx: not a number"
        ),
        (
            #"{"seq":1,"contentSize":{"w":1,"h":1},"diff":{"sections":[{"section":0,"origin":0,"height":1,"count":1,"header":{"x":0}}]}}"#,
            "result.diff.sections[0].header: no member y"
        ),
        (#"{"seq":1,"contentSize":{"w":1,"h":1},"diff":{"sections":[7]}}"#, "result.diff.sections[0]: not an object"),
    ])
    func aMalformedResultNamesTheField(_ text: String, _ message: String) throws {
        #expect {
            try ReplyDecoding.mutation(try JSONDocument(parsing: text).root)
        } throws: { error in
            (error as? ReplyError)?.message == message
        }
    }

    /// An event's ops become the engine's commands through the daemon's own decoder: a single request's params carry
    /// its layout, diff, anchor and viewport, which are read and left out; a batch's ops are commands as they are.
    @Test func anEventsOpsAreTypedCommands() throws {
        let text = #"""
            {"method":"layout.changed","params":{"layout":"feed","seq":6,"contentSize":{"w":300,"h":95},"ops":[{"method":"items.insert","params":{"layout":"feed","section":0,"at":0,"items":[{"h":20}],"anchor":{"section":0,"i":1},"viewport":{"y":0,"h":50},"diff":false}},{"method":"sections.move","params":{"from":1,"to":0}},{"method":"sections.configure","params":{"section":0,"columns":3}}],"diff":{"sections":[]}}}
            """#
        guard case .changed(let change) = try LayoutEvent(notification: try JSONDocument(parsing: text).root) else {
            Issue.record("not a layout.changed event")
            return
        }
        var patch = SectionPatch()
        patch.columns = .set(3)
        #expect(
            change.commands == [
                .insertItems(section: 0, at: 0, items: [Item(height: 20)]), .moveSection(from: 1, to: 0),
                .configureSection(0, patch),
            ])
        #expect(change.ops.map(\.method) == ["items.insert", "sections.move", "sections.configure"])
    }

    /// An op the client cannot turn into a command makes the event unreadable, naming the op: a frame model never
    /// skips a change it does not know (what `IndexChange`'s `default: break` did).
    @Test(arguments: [
        (
            #"[{"method":"items.shuffle","params":{"section":0}}]"#,
            #"event.params.ops[0].method: "items.shuffle" is not a method that changes a layout"#
        ),
        (#"[{"method":"layout.create","params":{}}]"#, #"event.params.ops[0].method: "layout.create" is not"#),
        (#"[{"method":"items.delete","params":{"section":0,"items":[0],"color":1}}]"#, "ops[0].params.color"),
        (#"[{"method":"items.move","params":{"from":[0,0]}}]"#, "event.params.ops[0].params.to: missing"),
        (#"{"method":"items.move"}"#, "event.params.ops: not an array"),
    ])
    func anEventWithAnUnknownOpIsUnreadable(_ ops: String, _ message: String) throws {
        let text =
            #"{"method":"layout.changed","params":{"layout":"a","seq":2,"contentSize":{"w":1,"h":1},"ops":"#
            + ops + #","diff":{"sections":[]}}}"#
        let root = try JSONDocument(parsing: text).root
        #expect {
            try LayoutEvent(notification: root)
        } throws: { error in
            (error as? WaterfallClientError)?.message.contains(message) == true
        }
    }
}
