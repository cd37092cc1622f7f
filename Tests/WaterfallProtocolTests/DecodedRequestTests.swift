import Testing
import WaterfallJSON

@testable import WaterfallProtocol

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
}
