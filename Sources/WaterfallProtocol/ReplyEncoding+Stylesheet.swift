@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallWire

extension ReplyEncoding {
    /// The `layout.css` result: the stylesheet, its number of pieces, and per section what the page needs to
    /// hold (its items, and whether it has a header and a footer), for the sections the stylesheet places.
    package static func layoutCSS(
        _ w: inout JSONWriter, id: RequestID, _ sheet: ResponsiveStylesheet, _ layout: ResponsiveLayout,
        sections wanted: [Int]?
    ) {
        result(&w, id: id) { w in
            w.beginObject()
            w.member("css", String(decoding: sheet.css, as: UTF8.self))
            w.member("pieces", sheet.pieces)
            w.key("sections")
            w.beginArray()
            if let first = layout.pieces.first {
                for s in wanted ?? Array(first.sections.indices) {
                    let section = first.sections[s]
                    w.beginObject()
                    w.member("section", s)
                    w.member("items", section.items.count)
                    w.member("header", section.header != nil)
                    w.member("footer", section.footer != nil)
                    w.endObject()
                }
            }
            w.endArray()
            w.endObject()
        }
    }
}
