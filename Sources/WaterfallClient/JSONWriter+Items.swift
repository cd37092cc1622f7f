@_spi(Package) import WaterfallJSON
import WaterfallModel

extension JSONWriter {
    /// An item's members as `CommandEncoding` spells them (`h`, then `w`, `span`, `id` and `column` when set),
    /// written straight into a request: `items.update` and `items.insert` built a tree of values per item first,
    /// a third of a one-item update's cost in the client. `JSONWriterItemsTests` holds the bytes to `CommandEncoding`'s.
    mutating func itemMembers(_ item: Item) {
        member("h", item.height)
        if let w = item.aspectWidth { member("w", w) }
        switch item.span {
        case .full: member("span", "full")
        case .columns(1): break
        case .columns(let n): member("span", n)
        }
        if let id = item.id { member("id", id) }
        if let column = item.column { member("column", column) }
    }

    /// An `items` member: an object per element, its members written by `members`.
    mutating func itemsMember<S: Sequence>(_ elements: S, _ members: (inout JSONWriter, S.Element) -> Void) {
        key("items")
        beginArray()
        for element in elements {
            beginObject()
            members(&self, element)
            endObject()
        }
        endArray()
    }
}
