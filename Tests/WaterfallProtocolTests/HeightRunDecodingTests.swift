import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// The connection's reader keeps a bulk insert's items as their heights (`JSONReader.forRequests`): every line
/// decodes to what a plain reader's parse decodes to, the same command or the same error, whatever the method.
@Suite struct HeightRunDecodingTests {
    /// `line` decoded with the connection's reader and with a plain one, each described in full.
    static func decodeBoth(_ line: String) -> (runs: String, plain: String) {
        var runs = JSONReader.forRequests()
        var plain = JSONReader()
        let bytes = ArraySlice(line.utf8)
        return (
            String(reflecting: DecodedRequest(.line(bytes), reader: &runs, maxBatchOps: 100)),
            String(reflecting: DecodedRequest(.line(bytes), reader: &plain, maxBatchOps: 100))
        )
    }

    static let lines: [String] = [
        #"{"id":1,"method":"items.insert","params":{"layout":"f","section":0,"at":0,"items":[{"h":1},{"h":2.5}]}}"#,
        #"{"method":"items.insert","params":{"layout":"f","section":0,"at":3,"items":[{"h":-1}],"diff":false}}"#,
        #"{"id":2,"method":"items.insert","params":{"items":[{"h":1}],"layout":"f","section":"x","at":0}}"#,
        #"{"id":3,"method":"items.insert","params":{"layout":"f","section":0,"at":0,"items":[{"h":1}],"extra":1}}"#,
        #"{"id":4,"method":"items.update","params":{"layout":"f","section":0,"items":[{"h":1},{"h":2}]}}"#,
        #"{"id":5,"method":"items.delete","params":{"layout":"f","section":0,"items":[{"h":1}]}}"#,
        #"{"id":6,"method":"items.move","params":{"layout":"f","items":[{"h":1}]}}"#,
        #"{"id":7,"method":"ping","params":{"items":[{"h":1}]}}"#,
        #"{"id":8,"method":"no.such","params":{"items":[{"h":1}]}}"#,
        #"{"id":9,"method":"layout.create","params":{"layout":"f","width":300,"items":[{"h":1}]}}"#,
        #"{"id":10,"method":"batch","params":{"layout":"f","ops":[{"method":"items.insert","#
            + #""params":{"section":0,"at":0,"items":[{"h":1}]}}]}}"#,
        #"{"params":{"layout":"f","section":0,"at":0,"items":[{"h":1}]},"id":11,"method":"items.insert"}"#,
        #"{"params":{"layout":"f","section":0,"items":[{"h":1}]},"id":12,"method":"items.update"}"#,
        #"{"id":13,"method":"items.insert","params":{"layout":"f","section":0,"at":0,"items":[{"h":1},{"h":2}"#,
    ]

    @Test(arguments: lines)
    func decodesAsAPlainParse(_ line: String) {
        let decoded = Self.decodeBoth(line)
        #expect(decoded.runs == decoded.plain)
    }

    /// A bulk insert decodes to bare heights, whichever reader reads it.
    @Test func aBulkInsertIsItsHeights() throws {
        var reader = JSONReader.forRequests()
        let items = (0..<1_000).map { "{\"h\":\(Double($0) / 8)}" }.joined(separator: ",")
        let line = #"{"id":1,"method":"items.insert","params":{"layout":"f","section":0,"at":0,"items":[\#(items)]}}"#
        guard case .change(let change) = DecodedRequest(.line(ArraySlice(line.utf8)), reader: &reader, maxBatchOps: 1)
        else {
            Issue.record("not a change")
            return
        }
        #expect(
            change.commands == [
                .insertItems(section: 0, at: 0, items: ItemList(heights: (0..<1_000).map { Double($0) / 8 }))
            ])
    }
}
