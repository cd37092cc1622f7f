import WaterfallLayout
import WaterfallWire

/// A stylesheet that places a layout's elements at every container width of a `ResponsiveLayout`'s range: what
/// `layout.css` returns.
///
/// The container (`selector`) is a size container (`container-type: inline-size`); its content-box width is the
/// layout's width. Its children are the headers, items and footers, each named by two classes: its section's
/// (`s0`) and its own (`h` for the header, `f` for the footer, `i57` for item 57), so that the browser finds an
/// element's rules by hashing a class rather than by testing every rule. Everything is nested in one rule of the
/// selector, which is written once.
///
/// Elements are placed from custom properties: per section, the column width `--w` (a `calc()` of the container's
/// width that the browser divides itself), the spacing `--g`, the leading inset `--l` and the origin `--o`; per
/// item, its column `--c`, span `--s`, and its top as `--r` column widths plus `--k` px. One rule for all children
/// turns them into `left`, `width` and `margin-top` (below `top: 0`); an item's height is its `aspect-ratio` or a
/// fixed `height`, and headers and footers give their own `left`, `width` and `height`. So a piece repeats only the
/// numbers that change: an item's column and top when it moves, a section's column width when its count changes.
///
/// A section with `columnWidths` keeps `--w` as the mean column width `(W - gutters) / count` (the count is fixed),
/// and its own rule replaces the `left` and `width` with ones that read, per item, the widths of the columns left of
/// it (`--a`) and of its own (`--b`) in `--w`s: each column's width is a fixed share of `W - gutters`, so these are
/// constants, and an item's top stays `--r` column widths plus `--k` px.
///
/// A length that follows the width is a percentage, in properties whose percentages are of the containing block's
/// width (`left`, `width`, margins, paddings; the container's height is a `::before` block's `padding-top`): `cqw`
/// would say the same, but an element whose style reads `cqw` has it computed again once its container is laid
/// out, which costs a page's first style and layout several times over.
///
/// The first piece's rules apply unconditionally; each later piece is one `@container not (width<Npx)` block holding
/// only what differs from the piece before (the cascade keeps the rest), in ascending order, so at any width the
/// last block that matches wins. `<` is exact in Chromium's container queries (`>=` and `min-width` allow 1/64 px),
/// and every piece starts on the 1/64 px grid on which Chromium snaps a container's width. Below the range the
/// first piece applies, above it the last; both are extrapolated.
///
/// Numbers are written as precisely as the range needs: a top's column-width count (and `--a`, `--b`) to within
/// 0.0025 px at the widest column of the range, an aspect ratio to within 0.0005 px at the widest container, px to 1/1000 and
/// `%` to 1e-5; everything is clamped far past Chromium's own layout limit (about 2^25 px).
package struct ResponsiveStylesheet: Sendable {
    /// The CSS text.
    package internal(set) var css: [UInt8] = []
    /// The pieces written: the unconditional rules, and one per `@container` block.
    package private(set) var pieces = 0

    // MARK: Lifecycle

    /// Writes the stylesheet of `layout` for the elements of `sections` (nil: all) in the container `selector`.
    ///
    /// - Complexity: O(pieces × elements), and the text is O(what changes from piece to piece).
    package init(_ layout: ResponsiveLayout, sections wanted: [Int]?, selector: String) {
        guard let first = layout.pieces.first else { return }
        let listed = wanted ?? Array(first.sections.indices)
        let aspectDecimals = Self.decimals(within: 0.0005, at: layout.maxWidth)
        var states = listed.map { s in
            SectionWriter(
                section: s, elements: first.sections[s].items.count,
                topDecimals: Self.decimals(within: 0.0025, at: Self.widestColumn(layout, section: s)),
                aspectDecimals: aspectDecimals)
        }
        append(selector.utf8)
        append("{container-type:inline-size;position:relative;padding:0;\n")
        append(Self.placement)
        var previousHeight: Written?
        for (p, piece) in layout.pieces.enumerated() {
            let mark = css.count
            if p > 0 {
                append("@container not (width<")
                // A grid width (a multiple of 1/64) is exact in 6 decimals.
                appendNumber(Int64((piece.start * 1e6).rounded()), decimals: 6)
                append("px){")
            }
            var wrote = false
            let height = Written(piece.contentHeight)
            if height != previousHeight {
                // The container's own height: a block of the content height before its (absolute) children, as a
                // padding, whose percentages are of the width.
                append(p == 0 ? "&::before{content:'';display:block;padding-top:" : "&::before{padding-top:")
                appendLength(height, unit: false)
                append("}")
                previousHeight = height
                wrote = true
            }
            for k in states.indices {
                if states[k].write(piece.sections[states[k].section], to: &self) { wrote = true }
            }
            if p > 0 {
                guard wrote else {
                    truncate(to: mark)
                    continue
                }
                append("}")
            }
            append("\n")
            pieces += 1
        }
        append("}\n")
    }

    // MARK: Internal

    /// The rule that places every child from its custom properties, with their defaults. `min-height: 0` keeps an
    /// item's content from stretching it past its aspect ratio; each `calc()` adds 0.008 px because Chromium
    /// truncates a percentage's length to its 1/64 px unit, and half a unit makes that a rounding.
    static let placement: StaticString = """
        >*{position:absolute;margin:0;box-sizing:border-box;min-height:0;--o:0px;--c:0;--s:1;--r:0;--k:0;\
        left:calc(var(--l) + var(--c)*(var(--w) + var(--g)) + .008px);top:0;\
        margin-top:calc(var(--o) + var(--r)*var(--w) + var(--k)*1px + .008px);\
        width:calc(var(--s)*(var(--w) + var(--g)) - var(--g) + .008px)}

        """

    /// The fewest decimals (at most 12) with which a number times `scale` rounds to within `budget`.
    static func decimals(within budget: Double, at scale: Double) -> Int {
        var decimals = 0
        var error = 0.5 * scale.magnitude
        while error > budget, decimals < 12 {
            decimals += 1
            error /= 10
        }
        return decimals
    }

    /// The widest column section `s` has anywhere in the range: at the end of each piece.
    static func widestColumn(_ layout: ResponsiveLayout, section s: Int) -> Double {
        var widest = 0.0
        for (p, piece) in layout.pieces.enumerated() {
            let end = p + 1 < layout.pieces.count ? layout.pieces[p + 1].start : layout.maxWidth
            let section = piece.sections[s]
            let c = Double(section.columnCount)
            widest = max(widest, (end - section.columns.gutters) / c)
        }
        return widest
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { css.append(contentsOf: $0) }
    }

    mutating func append(_ bytes: some Sequence<UInt8>) {
        css.append(contentsOf: bytes)
    }

    mutating func append(byte: UInt8) {
        css.append(byte)
    }

    /// Takes back what was written after `mark`.
    mutating func truncate(to mark: Int) {
        css.removeSubrange(mark...)
    }
}
