import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// A change's scroll anchor, `"anchor": {"section", "i"}`, as decoded from a whole request line.
@Suite struct AnchorDecodingTests {
    /// The request line with `params`, decoded.
    static func decoded(_ method: String, _ params: String) -> DecodedRequest {
        let line = #"{"jsonrpc":"2.0","id":1,"method":"\#(method)","params":\#(params)}"#
        var reader = JSONReader()
        return DecodedRequest(.line(ArraySlice(line.utf8)), reader: &reader, maxBatchOps: 100)
    }

    struct Accepted: Sendable, CustomTestStringConvertible {
        var method: String
        var params: String
        var anchor: ItemPath?
        var testDescription: String { "\(method) \(params)" }
    }

    static let accepted: [Accepted] = [
        Accepted(
            method: "items.insert",
            params: #"{"layout":"f","section":0,"at":0,"items":[{"h":1}],"anchor":{"section":2,"i":7}}"#,
            anchor: ItemPath(section: 2, item: 7)),
        Accepted(
            method: "items.update",
            params: #"{"layout":"f","anchor":{"i":0,"section":0},"section":0,"items":[{"i":0,"h":1}]}"#,
            anchor: ItemPath(section: 0, item: 0)),
        Accepted(
            method: "batch",
            params:
                #"{"layout":"f","ops":[{"method":"sections.move","params":{"from":0,"to":1}}],"anchor":{"section":1,"i":3},"diff":false}"#,
            anchor: ItemPath(section: 1, item: 3)),
        Accepted(
            method: "layout.configure", params: #"{"layout":"f","width":100,"anchor":{"section":0,"i":0}}"#,
            anchor: ItemPath(section: 0, item: 0)),
        Accepted(method: "items.delete", params: #"{"layout":"f","section":0,"items":[0]}"#, anchor: nil),
        // Null, like every optional param, is the same as absent.
        Accepted(method: "items.delete", params: #"{"layout":"f","section":0,"items":[0],"anchor":null}"#, anchor: nil),
    ]

    @Test(arguments: accepted)
    func decodesTheAnchor(_ c: Accepted) throws {
        guard case .change(let change) = Self.decoded(c.method, c.params) else {
            Issue.record("not decoded as a change: \(Self.decoded(c.method, c.params))")
            return
        }
        #expect(change.anchor == c.anchor)
    }

    struct Refused: Sendable, CustomTestStringConvertible {
        var method: String
        var params: String
        var message: String
        var testDescription: String { message }
    }

    static let refused: [Refused] = [
        Refused(
            method: "items.delete", params: #"{"layout":"f","section":0,"items":[0],"anchor":[0,1]}"#,
            message: "params.anchor: must be an object, not array"),
        Refused(
            method: "items.delete", params: #"{"layout":"f","section":0,"items":[0],"anchor":{"section":0}}"#,
            message: "params.anchor.i: missing"),
        Refused(
            method: "items.delete", params: #"{"layout":"f","section":0,"items":[0],"anchor":{"section":-1,"i":0}}"#,
            message: "params.anchor.section: -1 is out of range (0 to 2147483647)"),
        Refused(
            method: "items.delete", params: #"{"layout":"f","section":0,"items":[0],"anchor":{"section":0,"i":-2}}"#,
            message: "params.anchor.i: -2 is out of range (0 to 2147483647)"),
        Refused(
            method: "items.delete", params: #"{"layout":"f","section":0,"items":[0],"anchor":{"section":0,"i":1.5}}"#,
            message: "params.anchor.i: 1.5 is not an integer in range"),
        Refused(
            method: "items.delete",
            params: #"{"layout":"f","section":0,"items":[0],"anchor":{"section":0,"i":1,"item":1}}"#,
            message: "params.anchor.item: unknown field"),
        Refused(
            method: "batch",
            params:
                #"{"layout":"f","ops":[{"method":"items.delete","params":{"section":0,"items":[0],"anchor":{"section":0,"i":1}}}]}"#,
            message: "params.ops[0].params.anchor: unknown field"),
        Refused(
            method: "layout.create", params: #"{"layout":"f","width":100,"anchor":{"section":0,"i":0}}"#,
            message: "params.anchor: layout.create makes a new layout, with no item before it to anchor to"),
        Refused(
            method: "layout.create", params: #"{"layout":"f","width":100,"replace":true,"anchor":{"section":0,"i":0}}"#,
            message: "params.anchor: layout.create makes a new layout, with no item before it to anchor to"),
    ]

    /// Every malformed anchor is `bad_params` naming the field and the value; the request does not run.
    @Test(arguments: refused)
    func refusesABadAnchor(_ c: Refused) throws {
        guard case .failed(_, let error, _, _) = Self.decoded(c.method, c.params) else {
            Issue.record("decoded: \(c.params)")
            return
        }
        #expect(error.code == .badParams)
        #expect(error.message == c.message)
    }
}
