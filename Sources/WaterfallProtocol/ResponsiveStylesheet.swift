import WaterfallLayout

/// A stylesheet that places a layout's elements at every container width of a `ResponsiveLayout`'s range: what
/// `layout.css` returns.
///
/// The container (`selector`) is a size container (`container-type: inline-size`); its content-box width is the
/// layout's width. Its headers, items and footers are its children, placed absolutely with `calc()`s of `px` and
/// `cqw`, and its height is that of a `::before` block of the content height. The first piece's rules apply
/// unconditionally; each later piece is one `@container not (width < Npx)` block holding only what differs from
/// the piece before (the cascade keeps the rest), in ascending order, so at any width the last block that matches
/// wins. `<` is exact in Chromium's container queries (`>=` and `min-width` allow 1/64 px), and every piece starts
/// on the 1/64 px grid on which Chromium snaps a container's width. Below the range the first piece applies, above
/// it the last; both are extrapolated.
///
/// Sections after the first place their elements from a custom property `--wf-o` (the section's origin) set on
/// their elements, so a section that only moves changes one declaration per piece rather than every element's.
///
/// Lengths are written to 1/1000 px and 1e-5 cqw (at most 0.0015 px off at 10,000 px wide), and clamped to
/// ±10^12 px (Chromium's own layout ends at about 2^25 px).
public struct ResponsiveStylesheet: Sendable {
    /// The CSS text.
    public private(set) var css: [UInt8] = []
    /// The pieces written: the unconditional rules, and one per `@container` block.
    public private(set) var pieces = 0

    /// A length rounded as written: thousandths of a px and 1e-7 of the width (1e-5 cqw).
    struct Written: Hashable {
        var px: Int64
        var width: Int64

        static let zero = Written(px: 0, width: 0)

        init(px: Int64, width: Int64) {
            self.px = px
            self.width = width
        }

        init(_ length: LinearLength) {
            px = Self.rounded(length.constant * 1000, limit: 1e15)
            width = Self.rounded(length.slope * 1e7, limit: 1e15)
        }

        private static func rounded(_ value: Double, limit: Double) -> Int64 {
            guard value.isFinite else { return 0 }
            return Int64(min(max(value, -limit), limit).rounded())
        }
    }

    /// The four written lengths of one element: left, top, width, height (top relative to its section's origin).
    typealias Box = [Written]

    // MARK: Lifecycle

    /// Writes the stylesheet of `layout` for the elements of `sections` (nil: all) in the container `selector`.
    ///
    /// - Complexity: O(pieces × elements).
    public init(_ layout: ResponsiveLayout, sections wanted: [Int]?, selector: String) {
        let sectionCount = layout.pieces.first?.sections.count ?? 0
        let listed = wanted ?? Array(0..<sectionCount)
        let prefix = Array(selector.utf8)
        var previousHeight: Written?
        var previousOrigins: [Written?] = Array(repeating: nil, count: sectionCount)
        var previousBoxes: [[Box?]] = Array(repeating: [], count: sectionCount)
        append(prefix)
        append("{container-type:inline-size;position:relative;padding:0}\n")
        append(prefix)
        append(">[data-section]{position:absolute;margin:0;box-sizing:border-box}\n")

        for (p, piece) in layout.pieces.enumerated() {
            let mark = css.count
            if p > 0 {
                append("@container not (width < ")
                // A grid width (a multiple of 1/64) is exact in 6 decimals.
                appendNumber(Int64((piece.start * 1e6).rounded()), decimals: 6)
                append("px){\n")
            }
            var wrote = false
            let height = Written(piece.contentHeight)
            if height != previousHeight {
                append(prefix)
                // The container's own height: a block of the content height before its (absolute) children.
                append(p == 0 ? "::before{content:'';display:block;height:" : "::before{height:")
                appendLength(height)
                append("}\n")
                previousHeight = height
                wrote = true
            }
            for s in listed {
                let section = piece.sections[s]
                if s > 0 {
                    let origin = Written(section.origin)
                    if origin != previousOrigins[s] {
                        appendSelector(prefix, section: s, element: nil)
                        append("{--wf-o:")
                        appendLength(origin)
                        append("}\n")
                        previousOrigins[s] = origin
                        wrote = true
                    }
                }
                var boxes: [LinearRect?] = [section.header]
                boxes += section.items.map { $0 }
                boxes.append(section.footer)
                if previousBoxes[s].count != boxes.count {
                    previousBoxes[s] = Array(repeating: nil, count: boxes.count)
                }
                for (k, frame) in boxes.enumerated() {
                    guard let frame else { continue }
                    let box = [Written(frame.x), Written(frame.y), Written(frame.width), Written(frame.height)]
                    let old = previousBoxes[s][k]
                    guard box != old else { continue }
                    let element: Element =
                        k == 0 ? .header : k == boxes.count - 1 ? .footer : .item(k - 1)
                    appendSelector(prefix, section: s, element: element)
                    append("{")
                    appendBox(box, old: old, usesOrigin: s > 0)
                    append("}\n")
                    previousBoxes[s][k] = box
                    wrote = true
                }
            }
            if p > 0 {
                if wrote {
                    append("}\n")
                } else {
                    css.removeSubrange(mark...)
                    continue
                }
            }
            pieces += 1
        }
    }

    // MARK: Private

    enum Element {
        case header
        case item(Int)
        case footer
    }

    private mutating func appendSelector(_ prefix: [UInt8], section: Int, element: Element?) {
        append(prefix)
        append(">[data-section='")
        appendNumber(Int64(section), decimals: 0)
        append("']")
        switch element {
        case nil: break
        case .header: append("[data-header]")
        case .footer: append("[data-footer]")
        case .item(let i):
            append("[data-item='")
            appendNumber(Int64(i), decimals: 0)
            append("']")
        }
    }

    /// The declarations of `box` that differ from `old` (all when there is none).
    private mutating func appendBox(_ box: Box, old: Box?, usesOrigin: Bool) {
        var first = true
        for (k, name) in ["left:", "top:", "width:", "height:"].enumerated() where box[k] != old?[k] {
            if !first { append(";") }
            first = false
            append(name.utf8)
            if k == 1 && usesOrigin {
                if box[k] == .zero {
                    append("var(--wf-o)")
                } else {
                    append("calc(var(--wf-o) + ")
                    appendTerms(box[k])
                    append(")")
                }
            } else {
                appendLength(box[k])
            }
        }
    }

    /// A length on its own: `12.5px`, `50cqw`, or `calc(12.5px + 50cqw)`.
    private mutating func appendLength(_ length: Written) {
        if length.px != 0 && length.width != 0 {
            append("calc(")
            appendTerms(length)
            append(")")
        } else {
            appendTerms(length)
        }
    }

    /// A length's terms as a sum: `12.5px + 50cqw`, `12.5px - 50cqw`, `12.5px`, `50cqw`, or `0`.
    private mutating func appendTerms(_ length: Written) {
        if length == .zero {
            append("0")
            return
        }
        if length.px != 0 {
            appendNumber(length.px, decimals: 3)
            append("px")
        }
        guard length.width != 0 else { return }
        if length.px != 0 { append(length.width < 0 ? " - " : " + ") }
        appendNumber(length.px != 0 ? length.width.magnitude.signedValue : length.width, decimals: 5)
        append("cqw")
    }

    /// `value / 10^decimals` in decimal, without trailing zeros.
    private mutating func appendNumber(_ value: Int64, decimals: Int) {
        if value < 0 { css.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var scale: UInt64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let whole = magnitude / scale
        magnitude %= scale
        append(String(whole).utf8)
        guard magnitude != 0 else { return }
        css.append(UInt8(ascii: "."))
        var digits = decimals
        while magnitude % 10 == 0 {
            magnitude /= 10
            digits -= 1
        }
        let text = String(magnitude)
        for _ in 0..<(digits - text.utf8.count) { css.append(UInt8(ascii: "0")) }
        append(text.utf8)
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { css.append(contentsOf: $0) }
    }

    private mutating func append(_ bytes: some Sequence<UInt8>) {
        css.append(contentsOf: bytes)
    }
}

extension UInt64 {
    fileprivate var signedValue: Int64 { Int64(self) }
}
