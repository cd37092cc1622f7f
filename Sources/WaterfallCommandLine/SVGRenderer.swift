import WaterfallClient
import WaterfallLayout

/// Draws a layout as SVG: sections as bands with their index in a margin beside them (left of a vertical feed,
/// above a horizontal one, so that it never covers a header or an item), each column's lane lightly shaded, headers and
/// footers as labelled boxes (a pinned header's pin range dashed), items as rectangles labelled with their index
/// and id in colours that differ from their neighbours', and a caption with the name, seq, content size and item
/// count.
///
/// A pure function of its input, so golden files pin its output. Coordinates are computed in pixels rather than
/// through an SVG transform, so that text keeps its size whatever the scale.
package struct SVGRenderer: Sendable {
    /// The default window's height: a picture of a million items would be a picture of nothing.
    package static let defaultWindowHeight = 4000.0

    /// The picture's width in pixels, the tags' margin included; nil for one pixel per point of the window.
    package var width: Double?
    /// The part of the layout drawn; nil for the full width and the first `defaultWindowHeight` points.
    package var window: Rect?

    package init(width: Double? = nil, window: Rect? = nil) {
        self.width = width
        self.window = window
    }

    /// The full width and the first `defaultWindowHeight` points of a layout of `contentSize`; for a horizontal
    /// layout (`screen`), its full height and the first `defaultWindowHeight` points along x (toward −x under rtl,
    /// where such a feed runs from x = 0).
    package static func defaultWindow(for contentSize: Size, screen: ScreenMapping = .identity) -> Rect {
        guard screen.axis == .horizontal else {
            return Rect(
                x: 0, y: 0, width: max(1, contentSize.width),
                height: max(1, min(contentSize.height, defaultWindowHeight)))
        }
        let width = max(1, min(contentSize.width, defaultWindowHeight))
        return Rect(x: screen.reversed ? -width : 0, y: 0, width: width, height: max(1, contentSize.height))
    }

    /// A section's band across `view`: from its origin for its height, or a horizontal feed's along x.
    static func band(of section: FrameModel.Section, in view: Rect, alongX: Bool) -> Rect {
        alongX
            ? Rect(x: section.origin, y: view.y, width: section.height, height: view.height)
            : Rect(x: view.x, y: section.origin, width: view.width, height: section.height)
    }

    /// The SVG document of `picture`.
    package func render(_ picture: LayoutPicture) -> String {
        let view = window ?? Self.defaultWindow(for: picture.contentSize)
        let viewWidth = max(view.width, 1e-9)
        let left = picture.alongX ? 0 : Self.tagMargin
        let pixelWidth = width.map { max(1, $0 - left) } ?? viewWidth
        let canvas = Canvas(
            window: view, scale: pixelWidth / viewWidth, left: left,
            top: Self.captionHeight + (picture.alongX ? Self.tagMargin : 0))
        var svg = SVGText()
        let totalWidth = canvas.left + pixelWidth
        let totalHeight = canvas.top + view.height * canvas.scale
        svg.line(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(n(totalWidth))" height="\##(n(totalHeight))" "##
                + ##"viewBox="0 0 \##(n(totalWidth)) \##(n(totalHeight))" font-family="Helvetica, Arial, sans-serif">"##
        )
        svg.line(
            "<!-- waterfallctl render: layout \(escape(picture.name)), seq \(picture.seq); \(picture.laneSource.rawValue) -->"
        )
        svg.line(##"<rect width="100%" height="100%" fill="#ffffff"/>"##)
        caption(picture, view, totalWidth, &svg)
        svg.line(
            ##"<clipPath id="window"><rect x="\##(n(canvas.left))" y="\##(n(canvas.top))" width="\##(n(pixelWidth))" height="\##(n(view.height * canvas.scale))"/></clipPath>"##
        )
        svg.line(##"<g clip-path="url(#window)">"##)
        for (k, section) in picture.sections.enumerated() {
            let s = picture.firstSection + k
            let band = Self.band(of: section, in: view, alongX: picture.alongX)
            guard band.maxY >= view.y, band.y <= view.maxY, band.maxX >= view.x, band.x <= view.maxX else { continue }
            sectionBand(s, band, canvas, &svg)
            for lane in k < picture.lanes.count ? picture.lanes[k] : [] where intersects(lane, view) {
                svg.line(##"<rect class="lane" \##(canvas.box(lane)) fill="#c7d7f4" fill-opacity="0.7"/>"##)
            }
            if let header = section.header { supplementary("header", s, header, canvas, view, &svg) }
            if let footer = section.footer { supplementary("footer", s, footer, canvas, view, &svg) }
            for (i, item) in section.items.enumerated() {
                guard let item, intersects(item.frame, view) else { continue }
                self.item(i, item, canvas, &svg)
            }
        }
        // Over every band: a pin range runs past its own section.
        for (k, section) in picture.sections.enumerated() {
            if let header = section.header, let bound = section.pinMaxY {
                pinRange(picture.firstSection + k, header, bound, alongX: picture.alongX, canvas, &svg)
            }
        }
        svg.line("</g>")
        // In the margin, outside the window's clip.
        for (k, section) in picture.sections.enumerated() {
            let band = Self.band(of: section, in: view, alongX: picture.alongX)
            if band.maxY >= view.y, band.y <= view.maxY, band.maxX >= view.x, band.x <= view.maxX {
                sectionTag(picture.firstSection + k, band, picture.alongX, canvas, &svg)
            }
        }
        svg.line("</svg>")
        return svg.text
    }

    // MARK: Private

    private static let captionHeight = 40.0
    /// The margin the section tags stand in: left of a vertical feed's window, above a horizontal one's.
    private static let tagMargin = 16.0

    /// Distinct hues in index order: consecutive items (which sit side by side in the columns) never share one.
    private static let palette: [(fill: String, stroke: String)] = [
        ("#8ecae6", "#3a86a8"), ("#ffb703", "#b07d00"), ("#90be6d", "#4f7a32"), ("#f28482", "#b5403e"),
        ("#b8a1e3", "#6f56a8"), ("#f6bd60", "#b07f22"), ("#84dcc6", "#3a9a82"), ("#e5989b", "#a5545a"),
    ]

    /// Layout points to pixels.
    private struct Canvas {
        var window: Rect
        var scale: Double
        var left: Double
        var top: Double

        func x(_ x: Double) -> Double { left + (x - window.x) * scale }
        func y(_ y: Double) -> Double { top + (y - window.y) * scale }

        /// `x`, `y`, `width` and `height` attributes of `rect`.
        func box(_ rect: Rect) -> String {
            ##"x="\##(n(x(rect.x)))" y="\##(n(y(rect.y)))" width="\##(n(rect.width * scale))" height="\##(n(rect.height * scale))""##
        }
    }

    private func caption(_ picture: LayoutPicture, _ view: Rect, _ pixelWidth: Double, _ svg: inout SVGText) {
        let size = "\(n(picture.contentSize.width)) × \(n(picture.contentSize.height))"
        let items = picture.itemCount == 1 ? "1 item" : "\(picture.itemCount) items"
        let title = "\(picture.name)  ·  seq \(picture.seq)  ·  \(size)  ·  \(items)"
        svg.line(
            ##"<text x="8" y="17" font-size="\##(fitting(title, 14, pixelWidth))" font-weight="bold" fill="#222">\##(escape(title))</text>"##
        )
        let shown =
            "window x \(n(view.x))–\(n(view.maxX)), y \(n(view.y))–\(n(view.maxY)) · \(picture.laneSource.rawValue)"
        svg.line(
            ##"<text x="8" y="33" font-size="\##(fitting(shown, 11, pixelWidth))" fill="#666">\##(escape(shown))</text>"##
        )
        svg.line(
            ##"<line x1="0" y1="\##(n(Self.captionHeight - 0.5))" x2="\##(n(pixelWidth))" y2="\##(n(Self.captionHeight - 0.5))" stroke="#999" stroke-width="1"/>"##
        )
    }

    /// The font size at which a caption line fits a narrow picture (at most `size`); characters are taken as
    /// 0.6 of the size wide, a little more than Helvetica's average, so a line never runs off the picture.
    private func fitting(_ text: String, _ size: Double, _ pixelWidth: Double) -> String {
        n(max(6, min(size, (pixelWidth - 16) / (Double(text.count) * 0.6))))
    }

    private func sectionBand(_ s: Int, _ band: Rect, _ canvas: Canvas, _ svg: inout SVGText) {
        let fill = s % 2 == 0 ? "#f3f4f7" : "#e8eaef"
        svg.line(
            ##"<rect class="section" \##(canvas.box(band)) fill="\##(fill)" stroke="#9aa0ab" stroke-width="0.5"/>"##)
    }

    /// The section's index as a tag in the margin beside the start of its band: left of it, written downward, in
    /// a vertical feed; above it in a horizontal one. A band too short for `section s` gets `s` alone.
    private func sectionTag(_ s: Int, _ band: Rect, _ alongX: Bool, _ canvas: Canvas, _ svg: inout SVGText) {
        // Where the band starts and ends along the margin, in pixels, within the window.
        let start = alongX ? max(canvas.x(band.x), canvas.left) : max(canvas.y(band.y), canvas.top)
        let end = alongX ? canvas.x(min(band.maxX, canvas.window.maxX)) : canvas.y(min(band.maxY, canvas.window.maxY))
        let full = "section \(s)"
        let text = Self.tagLength(full) <= end - start - 2 ? full : "\(s)"
        let length = Self.tagLength(text)
        let rect =
            alongX
            ? Rect(x: start + 2, y: Self.captionHeight + 1, width: length, height: 14)
            : Rect(x: 1, y: start + 2, width: 14, height: length)
        svg.line(
            ##"<rect class="tag" x="\##(n(rect.x))" y="\##(n(rect.y))" width="\##(n(rect.width))" height="\##(n(rect.height))" rx="3" fill="#374151" fill-opacity="0.8"/>"##
        )
        guard !alongX else {
            svg.line(
                ##"<text x="\##(n(rect.x + 4))" y="\##(n(rect.y + 10.5))" font-size="10" fill="#ffffff">\##(text)</text>"##
            )
            return
        }
        // Turned a quarter clockwise about its start: it reads downward, its letters' tops toward the window.
        let (x, y) = (n(rect.x + 3.5), n(rect.y + 4))
        svg.line(
            ##"<text x="\##(x)" y="\##(y)" transform="rotate(90 \##(x) \##(y))" font-size="10" fill="#ffffff">\##(text)</text>"##
        )
    }

    /// The length in pixels of a tag holding `text` (10-pixel text, about 6 pixels a character, and 4 each end).
    private static func tagLength(_ text: String) -> Double {
        Double(text.count) * 6 + 8
    }

    /// A pinned header's range: where its frame may slide, dashed: from its own y down to `pinMaxY`, or in a
    /// horizontal feed (`alongX`) along x to `pinMaxX`, or back to `pinMinX` under rtl (a bound left of the frame).
    private func pinRange(
        _ s: Int, _ frame: Rect, _ bound: Double, alongX: Bool, _ canvas: Canvas, _ svg: inout SVGText
    ) {
        let range: Rect
        let text: String
        if alongX {
            guard bound != frame.x else { return }
            let start = min(bound, frame.x)
            range = Rect(x: start, y: frame.y, width: max(bound, frame.x) + frame.width - start, height: frame.height)
            text = "header \(s) pins \(bound > frame.x ? "right" : "left") to x \(n(bound))"
        } else {
            guard bound > frame.maxY else { return }
            range = Rect(x: frame.x, y: frame.y, width: frame.width, height: bound - frame.y)
            text = "header \(s) pins down to y \(n(bound))"
        }
        svg.line(
            ##"<rect class="pin" \##(canvas.box(range)) fill="none" stroke="#c2410c" stroke-width="1.5" stroke-dasharray="6 3"/>"##
        )
        let right = canvas.x(range.maxX) - 4
        let bottom = canvas.y(range.maxY)
        let width = Double(text.count) * 5.6 + 6
        svg.line(
            ##"<rect x="\##(n(right - width + 3))" y="\##(n(bottom - 15))" width="\##(n(width))" height="14" fill="#ffffff" fill-opacity="0.85"/>"##
        )
        svg.line(
            ##"<text x="\##(n(right))" y="\##(n(bottom - 4))" font-size="10" fill="#c2410c" text-anchor="end">\##(text)</text>"##
        )
    }

    private func supplementary(
        _ kind: String, _ s: Int, _ frame: Rect, _ canvas: Canvas, _ view: Rect, _ svg: inout SVGText
    ) {
        guard intersects(frame, view) else { return }
        let (fill, stroke) = kind == "header" ? ("#fde68a", "#b45309") : ("#ddd6fe", "#6d28d9")
        svg.line(
            ##"<rect class="\##(kind)" \##(canvas.box(frame)) fill="\##(fill)" stroke="\##(stroke)" stroke-width="1"/>"##
        )
        label("\(kind) \(s)", nil, frame, canvas, &svg)
    }

    private func item(_ i: Int, _ item: FrameModel.Item, _ canvas: Canvas, _ svg: inout SVGText) {
        let colour = Self.palette[i % Self.palette.count]
        svg.line(
            ##"<rect class="item" \##(canvas.box(item.frame)) rx="2" fill="\##(colour.fill)" stroke="\##(colour.stroke)" stroke-width="1"/>"##
        )
        label("\(i)", item.id, item.frame, canvas, &svg)
    }

    /// A centred label, and a second line under it when there is room; none on a box too small to read it.
    private func label(_ text: String, _ second: String?, _ frame: Rect, _ canvas: Canvas, _ svg: inout SVGText) {
        let width = frame.width * canvas.scale
        let height = frame.height * canvas.scale
        let size = min(13, height * 0.6)
        guard size >= 6, width >= Double(text.count) * size * 0.6 else { return }
        let cx = canvas.x(frame.x) + width / 2
        let cy = canvas.y(frame.y) + height / 2
        let showsSecond = second != nil && height >= size * 2.6 && width >= Double(second!.count) * size * 0.5
        let baseline = showsSecond ? cy - size * 0.15 : cy + size * 0.35
        svg.line(
            ##"<text x="\##(n(cx))" y="\##(n(baseline))" font-size="\##(n(size))" fill="#1f2937" text-anchor="middle">\##(escape(text))</text>"##
        )
        if showsSecond, let second {
            svg.line(
                ##"<text x="\##(n(cx))" y="\##(n(baseline + size))" font-size="\##(n(size * 0.8))" fill="#374151" text-anchor="middle">\##(escape(second))</text>"##
            )
        }
    }

    private func intersects(_ rect: Rect, _ view: Rect) -> Bool {
        rect.y <= view.maxY && rect.maxY >= view.y && rect.x <= view.maxX && rect.maxX >= view.x
    }
}

/// Lines of SVG text.
private struct SVGText {
    var text = ""

    mutating func line(_ line: String) {
        text += line
        text += "\n"
    }
}

/// A number as SVG attributes and captions write it: at most two decimals, no trailing zeros.
func n(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 100).rounded() / 100
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
    var text = String(rounded)
    if text.contains("e") { text = String(Int(rounded.rounded())) }
    return text
}

/// Text escaped for XML content and attributes.
func escape(_ text: String) -> String {
    var result = ""
    for character in text {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        default: result.append(character)
        }
    }
    return result
}
