import Testing
import WaterfallJSON
import WaterfallLayout

@testable import WaterfallClient

@Suite struct ReplyDecodingTests {
    @Test func aMutationResultWithShiftsAndAnAnchor() throws {
        // PROTOCOL.md's example, with an anchor.
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
    ])
    func aMalformedResultNamesTheField(_ text: String, _ message: String) throws {
        #expect {
            try ReplyDecoding.mutation(try JSONDocument(parsing: text).root)
        } throws: { error in
            (error as? WaterfallClientError)?.message == message
        }
    }
}
