import Testing
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

@_spi(Package) @testable import WaterfallClient

/// The client writes `items.update` and `items.insert` items itself, straight into the request: byte for byte as
/// the protocol module's `CommandEncoding` spells them.
@Suite struct JSONWriterItemsTests {
    static let items: [Item] = [
        Item(height: 120), Item(height: 100.25, aspectWidth: 4), Item(height: 3, aspectWidth: 4, span: .full),
        Item(height: 0.1, span: .columns(2), id: "ad \"1\"", column: 1), Item(height: 1e-7, column: 0),
        Item(height: 44, span: .columns(1), id: "é"),
    ]

    @Test(arguments: items)
    func anItemIsWrittenAsCommandEncodingWritesIt(item: Item) {
        let (_, params) = CommandEncoding.request(.insertItems(section: 0, at: 0, items: [item]))
        var expected = JSONWriter()
        guard case .array(let written)? = params["items"] else {
            Issue.record("no items in \(params)")
            return
        }
        expected.write(written[0])
        var w = JSONWriter()
        w.beginObject()
        w.itemMembers(item)
        w.endObject()
        #expect(String(decoding: w.bytes, as: UTF8.self) == String(decoding: expected.bytes, as: UTF8.self))
    }
}
