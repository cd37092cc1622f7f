import Testing
@_spi(Package) import WaterfallJSON
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// Decoding a request line into the typed request the server runs.
@Suite struct DecodedRequestTests {
    /// Layout names at the edges of `[A-Za-z0-9._:-]{1,128}`, and whether each is accepted.
    static let names: [(name: String, valid: Bool)] = [
        ("a", true), ("feed-2:main_v1.0", true), ("AZaz09._:-", true), (String(repeating: "x", count: 128), true),
        ("", false), (String(repeating: "x", count: 129), false), ("my feed", false), ("é", false), ("a/b", false),
        ("a\\u0000", false), ("[", false), ("@", false), ("`", false), ("{", false),
    ]

    @Test(arguments: names)
    func layoutNamesAreCheckedByteByByte(name: String, valid: Bool) throws {
        let document = try JSONDocument(parsing: Array(#"{"layout":"\#(name)"}"#.utf8)[...])
        var params = try Params(document.root, path: "params")
        do throws(ProtocolError) {
            let decoded = try DecodedRequest.layoutName(&params)
            #expect(valid && decoded == (try? JSONDocument(parsing: Array(#""\#(name)""#.utf8)[...]).root.string))
        } catch {
            #expect(!valid && error.message.hasPrefix("params.layout: '"), "\(error.message)")
        }
    }

    struct Misnamed: Sendable, CustomTestStringConvertible {
        var line: String
        var kind: String
        var message: String
        var testDescription: String { message }
    }

    /// A misspelt method or field: the error names it, then the nearest known name when one is clearly nearest.
    static let misnamed: [Misnamed] = [
        Misnamed(
            line: #"{"id":1,"method":"layout.craete","params":{"layout":"f","width":1}}"#, kind: "unknown_method",
            message: #"method: no method named "layout.craete"; did you mean 'layout.create'?"#),
        Misnamed(
            line: #"{"id":1,"method":"frobnicate"}"#, kind: "unknown_method",
            message: #"method: no method named "frobnicate""#),
        Misnamed(
            line: #"{"id":1,"method":"ping","param":{}}"#, kind: "bad_params",
            message: "param: unknown field; did you mean 'params'?"),
        Misnamed(
            line: #"{"id":1,"method":"layout.create","params":{"layout":"f","width":1,"section":[]}}"#,
            kind: "bad_params", message: "params.section: unknown field; did you mean 'sections'?"),
        Misnamed(
            line: #"{"id":1,"method":"layout.create","params":{"layout":"f","width":1,"sections":[{"colums":2}]}}"#,
            kind: "bad_params", message: "params.sections[0].colums: unknown field; did you mean 'columns'?"),
        Misnamed(
            line:
                #"{"id":1,"method":"layout.create","params":{"layout":"f","width":1,"sections":[{"items":[{"hh":2}]}]}}"#,
            kind: "bad_params", message: "params.sections[0].items[0].hh: unknown field; did you mean 'h'?"),
        Misnamed(
            line:
                #"{"id":1,"method":"items.update","params":{"layout":"f","section":0,"items":[{"i":0,"h":1,"colunm":2}]}}"#,
            kind: "bad_params", message: "params.items[0].colunm: unknown field; did you mean 'column'?"),
        Misnamed(
            line: #"{"id":1,"method":"batch","params":{"layout":"f","ops":[{"method":"items.delet","params":{}}]}}"#,
            kind: "bad_params",
            message: #"params.ops[0].method: "items.delet" cannot be used in a batch; did you mean 'items.delete'?"#),
        Misnamed(
            line:
                #"{"id":1,"method":"batch","params":{"layout":"f","ops":[{"method":"items.delete","params":{"section":0,"items":[0],"sectoin":1}}]}}"#,
            kind: "bad_params", message: "params.ops[0].params.sectoin: unknown field; did you mean 'section'?"),
        Misnamed(
            line: #"{"id":1,"method":"query","params":{"layout":"f","rect":{"x":0,"y":0,"w":1,"h":1,"z":0}}}"#,
            kind: "bad_params", message: "params.rect.z: unknown field"),
        Misnamed(
            line: #"{"id":1,"method":"ping","params":{"frobnicate":1}}"#, kind: "bad_params",
            message: "params.frobnicate: unknown field"),
    ]

    @Test(arguments: misnamed)
    func suggestsTheNearestName(_ c: Misnamed) {
        var reader = JSONReader.forRequests()
        let decoded = DecodedRequest(.line(ArraySlice(c.line.utf8)), reader: &reader, maxBatchOps: 100)
        guard case .failed(_, let error, _, _) = decoded else {
            Issue.record("decoded: \(decoded)")
            return
        }
        #expect(error.code.kind.description == c.kind)
        #expect(error.message == c.message)
    }
}
