import Testing
@_spi(Package) import WaterfallJSON
import WaterfallWire

@testable import WaterfallLayout
@testable import WaterfallModel
@testable import WaterfallProtocol
@testable import WaterfallWire

/// The exact bytes of replies, results and events.
@Suite struct ReplyEncodingTests {
    @Test(arguments: [
        (
            RequestID.int(7), ProtocolError(.notFound, "params.layout: layout 'feed' does not exist"),
            #"{"jsonrpc":"2.0","id":7,"error":{"code":-32001,"message":"params.layout: layout 'feed' does not exist","#
                + #""data":{"kind":"not_found"}}}"#
        ),
        (
            .none, ProtocolError(.tooLarge, "line: longer than the limit of 100 bytes"),
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32004,"message":"line: longer than the limit of 100 bytes","#
                + #""data":{"kind":"too_large"}}}"#
        ),
        (
            .string("a\"b\n"), ProtocolError.badParams("params.x", #"must be a number, not string "y""#),
            #"{"jsonrpc":"2.0","id":"a\"b\n","error":{"code":-32602,"message":"params.x: must be a number, not "#
                + #"string \"y\"","data":{"kind":"bad_params"}}}"#
        ),
    ])
    func writesAnErrorReply(id: RequestID, error: ProtocolError, expected: String) {
        var w = JSONWriter()
        ReplyEncoding.error(&w, id: id, error)
        #expect(text(w) == expected + "\n")
    }

    @Test func everyErrorCodeHasItsNumberAndKind() {
        let table: [(ErrorCode, Int, String)] = [
            (.parseError, -32700, "parse_error"), (.invalidRequest, -32600, "invalid_request"),
            (.unknownMethod, -32601, "unknown_method"), (.badParams, -32602, "bad_params"),
            (.internalError, -32603, "internal"), (.notFound, -32001, "not_found"), (.exists, -32002, "exists"),
            (.invalidGeometry, -32003, "invalid_geometry"), (.tooLarge, -32004, "too_large"),
            (.limit, -32005, "limit"), (.shuttingDown, -32006, "shutting_down"), (.forbidden, -32007, "forbidden"),
            (.storage, -32008, "storage"),
        ]
        for (code, number, kind) in table {
            #expect(code.code == number)
            #expect(code.kind.description == kind)
        }
    }

    /// A mutation result, byte for byte.
    @Test func writesAMutationResultWithADiff() {
        let diff = LayoutDiff(sections: [
            SectionDiff(
                section: 0, origin: 0, height: 812, count: 31,
                items: [ItemFrame(index: 30, frame: Rect(x: 10, y: 700, width: 172.5, height: 102))]),
            SectionDiff(section: 1, origin: 812, height: 4398, count: 200, dy: 102),
        ])
        var d = JSONWriter()
        ReplyEncoding.diff(diff, &d)
        var w = JSONWriter()
        ReplyEncoding.result(&w, id: .int(3)) { w in
            ReplyEncoding.mutation(&w, seq: 12, contentSize: Size(width: 375, height: 5210), encodedDiff: d.bytes)
        }
        #expect(
            text(w)
                == #"{"jsonrpc":"2.0","id":3,"result":{"seq":12,"contentSize":{"w":375,"h":5210},"diff":{"sections":["#
                + #"{"section":0,"origin":0,"height":812,"count":31,"items":[{"i":30,"x":10,"y":700,"w":172.5,"h":102}]},"#
                + #"{"section":1,"origin":812,"height":4398,"count":200,"dy":102}]}}}"# + "\n")
        // Encoded in place (no event shares the bytes), the same line.
        var inPlace = JSONWriter()
        ReplyEncoding.result(&inPlace, id: .int(3)) { w in
            ReplyEncoding.mutation(&w, seq: 12, contentSize: Size(width: 375, height: 5210), diff: diff)
        }
        #expect(text(inPlace) == text(w))
    }

    /// Doubles in their shortest round-trip form, written without a `String`.
    @Test(arguments: [
        (336.6666666666667, "336.6666666666667"), (1e-5, "1e-05"), (-0.0, "-0.0"), (1e16, "1e+16"),
        (-2.2250738585072014e-308, "-2.2250738585072014e-308"), (0.1, "0.1"), (172.5, "172.5"),
    ])
    func writesDoublesInTheirShortestForm(value: Double, expected: String) {
        var w = JSONWriter()
        w.beginArray()
        w.value(1)
        w.value(value)
        w.endArray()
        #expect(text(w) == "[1,\(expected)]")
        #expect(Double(expected) == value)
    }

    @Test func writesAMutationResultWithoutADiff() {
        var w = JSONWriter()
        ReplyEncoding.mutation(&w, seq: 1, contentSize: Size(width: 320.25, height: 0), diff: nil)
        #expect(text(w) == #"{"seq":1,"contentSize":{"w":320.25,"h":0}}"#)
    }

    @Test func writesNewSectionsHeadersAndFooters() {
        let diff = LayoutDiff(sections: [
            SectionDiff(section: 2, origin: 100, height: 0, count: 0, isNew: true),
            SectionDiff(
                section: 3, origin: 100, height: 50, count: 0, dy: -20,
                header: .set(Rect(x: 0, y: 100, width: 320, height: 30)), footer: .removed),
        ])
        var w = JSONWriter()
        ReplyEncoding.diff(diff, &w)
        #expect(
            text(w)
                == #"{"sections":[{"section":2,"origin":100,"height":0,"count":0,"new":true,"items":[]},"#
                + #"{"section":3,"origin":100,"height":50,"count":0,"dy":-20,"header":{"x":0,"y":100,"w":320,"h":30},"#
                + #""footer":null}]}"#)
    }

    @Test func writesSectionFrames() {
        let frames = SectionFrames(
            section: 1, origin: 40, height: 90, count: 2,
            items: [
                ItemFrame(index: 0, frame: Rect(x: 0, y: 50, width: 49.5, height: 30), id: "a"),
                ItemFrame(index: 1, frame: Rect(x: 50.5, y: 50, width: 49.5, height: 1.0 / 3)),
            ], header: Rect(x: 0, y: 40, width: 100, height: 10), footer: nil)
        var w = JSONWriter()
        ReplyEncoding.section(frames, &w)
        #expect(
            text(w)
                == #"{"section":1,"origin":40,"height":90,"count":2,"header":{"x":0,"y":40,"w":100,"h":10},"items":["#
                + #"{"i":0,"x":0,"y":50,"w":49.5,"h":30,"id":"a"},{"i":1,"x":50.5,"y":50,"w":49.5,"#
                + #""h":0.3333333333333333}]}"#)
    }

    @Test(arguments: [
        (
            Element(kind: .item, section: 0, index: 3, frame: Rect(x: 0, y: 10.5, width: 100, height: 50), id: "p1"),
            #"{"kind":"item","section":0,"i":3,"x":0,"y":10.5,"w":100,"h":50,"id":"p1"}"#
        ),
        (
            Element(kind: .header, section: 2, index: nil, frame: Rect(x: 0, y: 0, width: 375, height: 44), id: nil),
            #"{"kind":"header","section":2,"x":0,"y":0,"w":375,"h":44}"#
        ),
        (
            Element(kind: .footer, section: 1, index: nil, frame: Rect(x: 8, y: 1e6, width: 1, height: 2), id: nil),
            #"{"kind":"footer","section":1,"x":8,"y":1000000,"w":1,"h":2}"#
        ),
    ])
    func writesAnElement(element: Element, expected: String) {
        var w = JSONWriter()
        ReplyEncoding.element(element, &w)
        #expect(text(w) == expected)
    }

    /// Integral doubles are written as integers, the others in their shortest round-tripping form.
    @Test(arguments: [
        (120.0, "120"), (0.0, "0"), (-3.0, "-3"), (172.5, "172.5"), (0.1, "0.1"), (1e15, "1000000000000000"),
        (9_007_199_254_740_991, "9007199254740991"),
    ])
    func writesIntegralDoublesAsIntegers(value: Double, expected: String) {
        var w = JSONWriter()
        ReplyEncoding.size(Size(width: value, height: 1), &w)
        #expect(text(w) == #"{"w":\#(expected),"h":1}"#)
    }

    @Test func writesANotification() {
        var w = JSONWriter()
        ReplyEncoding.notification(&w, method: "layout.dropped") { w in
            w.beginObject()
            w.member("layout", "feed")
            w.endObject()
        }
        #expect(text(w) == #"{"jsonrpc":"2.0","method":"layout.dropped","params":{"layout":"feed"}}"# + "\n")
    }

    @Test(arguments: [(RequestID.int(-1), "-1"), (.string("x"), #""x""#), (.none, "null")])
    func echoesTheID(id: RequestID, expected: String) {
        var w = JSONWriter()
        ReplyEncoding.result(&w, id: id, ReplyEncoding.empty)
        #expect(text(w) == #"{"jsonrpc":"2.0","id":\#(expected),"result":{}}"# + "\n")
    }

    private func text(_ w: JSONWriter) -> String { String(decoding: w.bytes, as: UTF8.self) }
}
