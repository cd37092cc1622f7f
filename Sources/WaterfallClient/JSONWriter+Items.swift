@_spi(Package) import WaterfallJSON
import WaterfallModel

extension JSONWriter {
    /// An `items` member of `items.insert`: each item as `itemObject` writes it.
    mutating func itemsMember(_ items: [Item]) {
        key("items")
        beginArray()
        for item in items { itemObject(item) }
        endArray()
    }

    /// An `items` member of `items.update`: each update as `itemObject` writes it, with its index.
    mutating func itemsMember(_ updates: [ItemUpdate]) {
        key("items")
        beginArray()
        for update in updates { itemObject(update.item, index: update.index) }
        endArray()
    }

    /// An item as one object, its members as `CommandEncoding` spells them (`i` for an update's index, `h`, then
    /// `w`, `span`, `id` and `column` when set), written straight into a request as one fragment: a tree of values
    /// per item was a third of a one-item update's cost in the client, and a writer call per member, with its room
    /// check and comma bookkeeping, most of the rest. `JSONWriterItemsTests` holds the bytes to `CommandEncoding`'s.
    mutating func itemObject(_ item: Item, index: Int? = nil) {
        let idLength = item.id.map { JSONFragment.stringLength($0) } ?? 0
        fragment(maximumLength: 48 + 5 * JSONFragment.numberLength + idLength) { f in
            f.text("{")
            if let index {
                f.text(#""i":"#)
                f.integer(index)
                f.text(",")
            }
            f.text(#""h":"#)
            f.number(item.height)
            if let w = item.aspectWidth {
                f.text(#","w":"#)
                f.number(w)
            }
            switch item.span {
            case .full:
                f.text(#","span":"full""#)
            case .columns(1):
                break
            case .columns(let n):
                f.text(#","span":"#)
                f.integer(n)
            }
            if let id = item.id {
                f.text(#","id":"#)
                f.string(id)
            }
            if let column = item.column {
                f.text(#","column":"#)
                f.integer(column)
            }
            f.text("}")
        }
    }
}
