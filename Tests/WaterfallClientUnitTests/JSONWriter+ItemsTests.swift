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
        #expect(Self.written { $0.itemsMember([item]) } == Self.encoded(.insertItems(section: 0, at: 0, items: [item])))
    }

    @Test(arguments: items)
    func anUpdateIsWrittenAsCommandEncodingWritesIt(item: Item) {
        let updates = [ItemUpdate(index: 7, item: item), ItemUpdate(index: 0, item: item)]
        #expect(Self.written { $0.itemsMember(updates) } == Self.encoded(.updateItems(section: 0, updates: updates)))
    }

    /// The `items` member as the client writes it, in an object of its own.
    static func written(_ body: (inout JSONWriter) -> Void) -> String {
        var w = JSONWriter()
        w.beginObject()
        body(&w)
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The `items` member of `command` as `CommandEncoding` writes it, in an object of its own.
    static func encoded(_ command: LayoutCommand) -> String {
        let (_, params) = CommandEncoding.request(command)
        var w = JSONWriter()
        w.beginObject()
        if let items = params["items"] {
            w.key("items")
            w.write(items)
        }
        w.endObject()
        return String(decoding: w.bytes, as: UTF8.self)
    }
}
