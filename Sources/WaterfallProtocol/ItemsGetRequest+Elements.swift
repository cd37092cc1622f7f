import WaterfallLayout
import WaterfallWire

extension ItemsGetRequest {
    /// The listed items' elements in `layout`, in flow terms; `not_found` naming `params.items[k]` for the first
    /// that names no item.
    package func elements(of layout: Layout) throws(ProtocolError) -> [Element] {
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for (k, path) in items.enumerated() {
            guard path.section < layout.sectionCount else {
                throw ProtocolError(
                    .notFound,
                    "params.items[\(k)][0]: \(path.section) is not a section (there are \(layout.sectionCount))")
            }
            let count = layout.itemCount(inSection: path.section)
            guard path.item < count else {
                throw ProtocolError(
                    .notFound,
                    "params.items[\(k)][1]: \(path.item) is not an item index of section \(path.section) "
                        + "(there are \(count))")
            }
            let frame = layout.frame(ofItem: path)
            elements.append(
                Element(kind: .item, section: path.section, index: path.item, frame: frame.frame, id: frame.id))
        }
        return elements
    }
}
