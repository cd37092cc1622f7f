@_spi(Package) import WaterfallJSON
import WaterfallModel
import WaterfallWire

/// What a page must hold for a stylesheet of `layout.css`.
extension Stylesheet {
    /// The container's children the stylesheet expects, one line each, named by two classes: `<div class="s0 h">`
    /// for section 0's header, `s0 i5` for its item 5, `s0 f` for its footer. `decorate(section, element)` gives
    /// each one's further attributes and its body (element: -1 for the header, the item's index, or `Int.max` for
    /// the footer).
    public func elements(
        _ decorate: (Int, Int) -> (attributes: String, body: String) = { _, _ in ("", "") }
    ) -> String {
        var html = ""
        func element(_ s: Int, _ k: Int, _ marker: String) {
            let (attributes, body) = decorate(s, k)
            html += "<div class=\"s\(s) \(marker)\"\(attributes)>\(body)</div>\n"
        }
        for section in sections {
            if section.header { element(section.section, -1, "h") }
            for i in 0..<section.items { element(section.section, i, "i\(i)") }
            if section.footer { element(section.section, .max, "f") }
        }
        return html
    }

    /// A self-contained page to try the stylesheet in a browser: the container (class `containerClass`, which the
    /// stylesheet's selector must match) starts `width` px wide and can be resized with its corner; items are
    /// coloured boxes labelled with their index, headers and footers grey bars.
    public func page(containerClass: String = "waterfall", width: Double, title: String) -> String {
        let colours = ["#e8a0a0", "#a0c8e8", "#b8e0a0", "#e8d090", "#c8a8e0", "#90d8d0", "#e8b8d0", "#c0c0a0"]
        let body = elements { _, element in
            if element == -1 || element == .max { return (" style=\"background:#ccc\"", "") }
            return (" style=\"background:\(colours[element % colours.count])\"", "\(element)")
        }
        return """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>\(title)</title>
            <style>
            body{margin:16px;font:12px sans-serif}
            .\(containerClass){resize:horizontal;overflow:hidden;outline:1px solid #888;min-width:40px}
            .\(containerClass)>div{overflow:hidden}
            \(css)</style></head><body>
            <p>\(title): \(pieces) pieces. Drag the bottom-right corner to resize.</p>
            <div class="\(containerClass)" style="width:\(width)px">
            \(body)</div>
            </body></html>

            """
    }
}

extension WaterfallClient {
    /// `layout.css`: the stylesheet of `layout` exact at every container width in `minWidth...maxWidth`, for
    /// `sections` (nil: all), each cut to its first `items` items if given, in the container `selector`.
    public func stylesheet(
        of layout: String, minWidth: Double, maxWidth: Double, sections: [Int]? = nil, items: Int? = nil,
        selector: String? = nil
    ) async throws(WaterfallClientError) -> Stylesheet {
        try await send(
            StylesheetRequest(
                layout: layout, minWidth: minWidth, maxWidth: maxWidth, sections: sections, items: items,
                selector: selector ?? StylesheetRequest.defaultSelector))
    }
}
