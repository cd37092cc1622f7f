import WaterfallLayout
import WaterfallWire

extension ResponsiveStylesheet {
    /// What one section's rules have declared so far, and the rules of a piece that change it.
    struct SectionWriter {
        /// An item's custom properties, rounded as written.
        struct ItemValues: Equatable {
            var column: Int64 = 0
            var span: Int64 = 1
            /// Under `columnWidths`, the widths of the columns left of the item and of its own, in column widths
            /// `--w` (0 in a section of equal columns, which writes neither).
            var before: Int64 = 0
            var across: Int64 = 0
            var columnWidths: Int64 = 0
            var px: Int64 = 0
            var aspect: Int64 = 0
            var height: Int64 = 0
        }

        /// A header's or footer's own lengths and its top, rounded as written; nil before the first piece.
        struct BlockValues: Equatable {
            var left: Written?
            var width: Written?
            var height: Written?
            var columnWidths: Int64 = 0
            var px: Int64 = 0
        }

        let section: Int
        /// Decimals of `--r` (a top in column widths), `--a` and `--b`, and of an `aspect-ratio`.
        let topDecimals: Int
        let aspectDecimals: Int
        private var columns: (count: Int, gutters: Int64)?
        private var origin = Written.zero
        private var header = BlockValues()
        private var footer = BlockValues()
        private var items: [ItemValues]
        /// Whether each item's height has been written: every item gives one (`aspect-ratio` or `height`) in the
        /// first piece, even a zero, since an unset height would be its content's.
        private var heightWritten: [Bool]

        init(section: Int, elements: Int, topDecimals: Int, aspectDecimals: Int) {
            self.section = section
            self.topDecimals = topDecimals
            self.aspectDecimals = aspectDecimals
            items = Array(repeating: ItemValues(), count: elements)
            heightWritten = Array(repeating: false, count: elements)
        }

        // MARK: Internal

        /// Writes `>.sN{…}` with what `piece` changes in this section, if anything; whether it wrote.
        mutating func write(_ piece: ResponsiveSection, to sheet: inout ResponsiveStylesheet) -> Bool {
            let mark = sheet.css.count
            sheet.append(">.s")
            sheet.appendNumber(Int64(section), decimals: 0)
            sheet.append("{")
            let opened = sheet.css.count
            let c = piece.columnCount
            let gutters = ResponsiveStylesheet.rounded(piece.columns.gutters, decimals: 6)
            if columns == nil {
                // Constant over the range: the spacing (times up to 1,024 columns, so to 1e-6 px) and the inset.
                sheet.append("--g:")
                sheet.appendNumber(ResponsiveStylesheet.rounded(piece.columns.spacing, decimals: 6), decimals: 6)
                sheet.append("px;--l:")
                sheet.appendNumber(ResponsiveStylesheet.rounded(piece.columns.leadingInset, decimals: 3), decimals: 3)
                sheet.append("px;")
            }
            if columns?.count != c || columns?.gutters != gutters {
                sheet.appendColumnWidth(count: c, gutters: gutters)
                if columns == nil, let shares = piece.columns.shares {
                    // Fixed with the count: the first column's width is every item's until it says otherwise.
                    let first = ResponsiveStylesheet.rounded(shares[0] * Double(c), decimals: topDecimals)
                    sheet.appendWeightedPlacement(firstColumn: first, decimals: topDecimals)
                    for k in items.indices { items[k].across = first }
                }
                columns = (c, gutters)
            }
            let origin = Written(piece.origin)
            if origin != self.origin {
                sheet.append("--o:")
                sheet.appendLength(origin, unit: true)
                sheet.append(";")
                self.origin = origin
            }
            // Each declaration ends with `;`: a custom property's value would otherwise run on into a nested rule.
            let gutterWidth = piece.columns.gutters
            if let frame = piece.header {
                write(frame, as: "h", into: &header, columns: c, gutters: gutterWidth, &sheet)
            }
            for (k, frame) in piece.items.enumerated() {
                let placement = piece.placements[k]
                var values = ItemValues(column: Int64(placement.column), span: Int64(placement.span))
                if piece.columns.shares != nil {
                    // x = --l + before × --w + column × --g, width = across × --w + (span - 1) × --g, with --w
                    // `(W - gutters) / c`: the slopes times c.
                    values.before = ResponsiveStylesheet.rounded(frame.x.slope * Double(c), decimals: topDecimals)
                    values.across = ResponsiveStylesheet.rounded(frame.width.slope * Double(c), decimals: topDecimals)
                }
                (values.columnWidths, values.px) = top(frame.y, columns: c, gutters: gutterWidth)
                // The height is `aspect × width + height`: an aspect item's has no constant part, a fixed one's no slope.
                let aspect = frame.width.slope > 0 ? frame.height.slope / frame.width.slope : 0
                values.aspect = ResponsiveStylesheet.rounded(aspect, decimals: aspectDecimals)
                values.height = ResponsiveStylesheet.rounded(
                    frame.height.constant - aspect * frame.width.constant, decimals: 3)
                let old = items[k]
                guard values != old || !heightWritten[k] else { continue }
                sheet.append("&.i")
                sheet.appendNumber(Int64(k), decimals: 0)
                sheet.append("{")
                var separator = false
                sheet.appendDeclaration("--c:", values.column, old.column, decimals: 0, &separator)
                sheet.appendDeclaration("--s:", values.span, old.span, decimals: 0, &separator)
                sheet.appendDeclaration("--a:", values.before, old.before, decimals: topDecimals, &separator)
                sheet.appendDeclaration("--b:", values.across, old.across, decimals: topDecimals, &separator)
                sheet.appendDeclaration(
                    "--r:", values.columnWidths, old.columnWidths, decimals: topDecimals, &separator)
                sheet.appendDeclaration("--k:", values.px, old.px, decimals: 3, &separator)
                if values.aspect != 0 {
                    if values.aspect != old.aspect || !heightWritten[k] {
                        if separator { sheet.append(";") }
                        separator = true
                        sheet.append("aspect-ratio:1/")
                        sheet.appendNumber(values.aspect, decimals: aspectDecimals)
                    }
                } else if values.height != old.height || !heightWritten[k] {
                    if separator { sheet.append(";") }
                    separator = true
                    sheet.append("height:")
                    sheet.appendNumber(values.height, decimals: 3)
                    sheet.append("px")
                }
                sheet.append("}")
                items[k] = values
                heightWritten[k] = true
            }
            if let frame = piece.footer {
                write(frame, as: "f", into: &footer, columns: c, gutters: gutterWidth, &sheet)
            }
            if sheet.css.count == opened {
                sheet.truncate(to: mark)
                return false
            }
            sheet.append("}")
            return true
        }

        // MARK: Private

        /// A top as `columnWidths × --w + px`, rounded as written: the same line in the width, since `--w` is
        /// `(W - gutters) / columns`.
        private func top(_ y: LinearLength, columns c: Int, gutters: Double) -> (Int64, Int64) {
            (
                ResponsiveStylesheet.rounded(y.slope * Double(c), decimals: topDecimals),
                ResponsiveStylesheet.rounded(y.constant + y.slope * gutters, decimals: 3)
            )
        }

        /// A header's or footer's rule (`&.h`, `&.f`) with what changed: its own left, width and height, and its top.
        private func write(
            _ frame: LinearRect, as name: StaticString, into old: inout BlockValues, columns c: Int, gutters: Double,
            _ sheet: inout ResponsiveStylesheet
        ) {
            var values = BlockValues(
                left: Written(frame.x), width: Written(frame.width), height: Written(frame.height))
            (values.columnWidths, values.px) = top(frame.y, columns: c, gutters: gutters)
            guard values != old else { return }
            sheet.append("&.")
            sheet.append(name)
            sheet.append("{")
            var separator = false
            for (key, new, previous) in [
                ("left:", values.left, old.left), ("width:", values.width, old.width),
                ("height:", values.height, old.height),
            ] where new != previous {
                if separator { sheet.append(";") }
                separator = true
                sheet.append(key.utf8)
                sheet.appendLength(new ?? .zero, unit: false)
            }
            sheet.appendDeclaration("--r:", values.columnWidths, old.columnWidths, decimals: topDecimals, &separator)
            sheet.appendDeclaration("--k:", values.px, old.px, decimals: 3, &separator)
            sheet.append("}")
            old = values
        }
    }

    /// `name value` when `value` differs from `old`, after a `;` if a declaration came before.
    mutating func appendDeclaration(
        _ name: StaticString, _ value: Int64, _ old: Int64, decimals: Int, _ separator: inout Bool
    ) {
        guard value != old else { return }
        if separator { append(";") }
        separator = true
        append(name)
        appendNumber(value, decimals: decimals)
    }

    /// The declarations that a section under `columnWidths` adds to its rule, after which its items' `--a` and `--b`
    /// place them: `--a:0`, `--b:` `firstColumn` (the leftmost column's width in `--w`), and the `left` and `width`
    /// they give, which take the place of the placement rule's; then `;`.
    mutating func appendWeightedPlacement(firstColumn: Int64, decimals: Int) {
        append("--a:0;--b:")
        appendNumber(firstColumn, decimals: decimals)
        append(";")
        append(Self.weightedPlacement)
    }

    /// `left` and `width` from a column's position and width in `--w` (`--a`, `--b`) and its count of spacings.
    static let weightedPlacement: StaticString = """
        left:calc(var(--l) + var(--a)*var(--w) + var(--c)*var(--g) + .008px);\
        width:calc(var(--b)*var(--w) + (var(--s) - 1)*var(--g) + .008px);
        """

    /// `--w:` the column width `(W - gutters) / count`, which the browser divides itself so that a top of many
    /// column widths stays exact; then `;`.
    mutating func appendColumnWidth(count: Int, gutters: Int64) {
        append("--w:")
        if count == 1 && gutters == 0 {
            append("100%;")
            return
        }
        append(count == 1 || gutters == 0 ? "calc(100%" : "calc((100%")
        if gutters != 0 {
            append(gutters < 0 ? " + " : " - ")
            appendNumber(Int64(gutters.magnitude), decimals: 6)
            append("px")
            if count > 1 { append(")") }
        }
        if count > 1 {
            append("/")
            appendNumber(Int64(count), decimals: 0)
        }
        append(");")
    }
}
