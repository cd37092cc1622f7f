import WaterfallModel

/// A section's settings resolved against the layout's defaults and width: everything placement needs.
struct SectionGeometry: Sendable, Hashable {
    var columnCount: Int
    var columnWidth: Double
    var columnSpacing: Double
    var rowSpacing: Double
    var insets: Insets
    var headerHeight: Double
    var footerHeight: Double
    var headerInsets: Insets
    var footerInsets: Insets
    var placement: Placement
    var tolerance: Double
    var tieBreak: TieBreak
    var spanPlacement: SpanPlacement
    /// The section's stamps in local coordinates, sorted by top (then by index); empty for most sections.
    var stamps: [StampBlock]
    /// Local y where the lowest stamp ends (the top of the items area when there are none).
    var stampsBottom: Double
    var lookahead: Lookahead
    /// Whether the header, if there is one, carries a pinned range (`pinMaxY`).
    var pinHeader: Bool
    var reflow: Reflow
    var layoutWidth: Double
    var scale: Double
    var direction: Direction
    /// The columns' widths and xs when `columnWidths` sets them; nil for equal columns (`columnWidth` each).
    var shares: ColumnShares?
    /// Whether aspect sizes are stored transposed (`ItemInput.transposeAspect`): a horizontal layout's sections.
    var transposesAspect = false

    // MARK: Lifecycle

    /// Resolves `own` over `defaults` by the Geometry article's rules (the column rule first set wins; other properties one by one).
    ///
    /// Adaptive column counts are capped at `columnLimit`, so a tiny `minColumnWidth` cannot ask for a million columns.
    init(
        own: SectionProperties, defaults: SectionProperties, width: Double, scale: Double, direction: Direction,
        columnLimit: Int
    ) {
        typealias P = SectionPropertyTable
        columnSpacing = P.columnSpacing.resolve(own, defaults)
        rowSpacing = P.rowSpacing.resolve(own, defaults)
        insets = P.insets.resolve(own, defaults)
        headerHeight = P.headerHeight.resolve(own, defaults)
        footerHeight = P.footerHeight.resolve(own, defaults)
        headerInsets = P.headerInsets.resolve(own, defaults)
        footerInsets = P.footerInsets.resolve(own, defaults)
        placement = P.placement.resolve(own, defaults)
        tolerance = P.tolerance.resolve(own, defaults)
        tieBreak = P.tieBreak.resolve(own, defaults)
        spanPlacement = P.spanPlacement.resolve(own, defaults)
        lookahead = P.lookahead.resolve(own, defaults)
        pinHeader = P.pinHeader.resolve(own, defaults)
        reflow = P.reflow.resolve(own, defaults)
        layoutWidth = width
        self.scale = scale
        self.direction = direction
        let available = width - insets.left - insets.right
        let count: Int
        if let fixed = own.columns {
            count = fixed
        } else if let minWidth = own.minColumnWidth {
            let maxColumns = own.maxColumns ?? defaults.maxColumns
            count = Self.adaptiveCount(available, minWidth, columnSpacing, maxColumns, columnLimit)
        } else if let fixed = defaults.columns {
            count = fixed
        } else if let minWidth = defaults.minColumnWidth {
            let maxColumns = own.maxColumns ?? defaults.maxColumns
            count = Self.adaptiveCount(available, minWidth, columnSpacing, maxColumns, columnLimit)
        } else {
            count = P.columns.builtIn ?? 2
        }
        columnCount = max(1, count)
        var cw = (available - Double(columnCount - 1) * columnSpacing) / Double(columnCount)
        if scale > 0 {
            cw = (cw * scale).rounded(.down) / scale
        }
        columnWidth = cw
        stamps = []
        stampsBottom = 0
        // A list that does not fit the count is refused by validation (`weightsMismatch`); placed, it is ignored.
        if let weights = own.columnWidths ?? defaults.columnWidths, weights.count == columnCount,
            !Self.isAdaptive(own, defaults)
        {
            shares = ColumnShares(
                weights: weights, content: available - Double(columnCount - 1) * columnSpacing,
                spacing: columnSpacing, left: insets.left, scale: scale)
        }
        resolveStamps(P.stamps.resolve(own, defaults))
    }

    /// Resolves `given` against the items area. Validation refuses a change that leaves a stamp outside the columns
    /// (it builds geometries to check them): one that is outside here is moved left and narrowed to fit, as a kept
    /// column is, so that checking never traps.
    private mutating func resolveStamps(_ given: [Stamp]) {
        let top = itemsTop
        stampsBottom = top
        guard !given.isEmpty else { return }
        for (k, stamp) in given.enumerated() {
            let span = Swift.max(1, Swift.min(stamp.span, columnCount))
            let column = Swift.max(0, Swift.min(stamp.column, columnCount - span))
            let stampTop = top + stamp.y
            let bottom = stampTop + stamp.height
            stamps.append(
                StampBlock(
                    index: k, column: column, span: span, top: stampTop, height: stamp.height, bottom: bottom,
                    next: bottom + rowSpacing))
            stampsBottom = Swift.max(stampsBottom, bottom)
        }
        stamps.sort { ($0.top, $0.index) < ($1.top, $1.index) }
    }

    /// Whether the column rule that applies is `minColumnWidth` (the count follows the width).
    private static func isAdaptive(_ own: SectionProperties, _ defaults: SectionProperties) -> Bool {
        own.columns == nil && (own.minColumnWidth != nil || (defaults.columns == nil && defaults.minColumnWidth != nil))
    }

    private static func adaptiveCount(
        _ available: Double, _ minWidth: Double, _ spacing: Double, _ maxColumns: Int?, _ limit: Int
    ) -> Int {
        // An infinite quotient (a width of 1e9 over a minColumnWidth of 5e-324) is as many columns as allowed,
        // not one; NaN and anything below 1 is one.
        let raw = ((available + spacing) / (minWidth + spacing)).rounded(.down)
        var count = raw >= 1 ? Int(min(raw, Double(limit))) : 1
        if let maxColumns { count = min(count, maxColumns) }
        return max(1, min(count, limit))
    }

    // MARK: Internal

    /// Why `columnWidths`, as resolved from `own` over `defaults`, cannot go with this section's columns (an adaptive
    /// count, or another number of columns than weights), with the list; nil when it can, or is unset.
    func weightsMismatch(own: SectionProperties, defaults: SectionProperties) -> (weights: [Double], reason: String)? {
        guard let weights = own.columnWidths ?? defaults.columnWidths else { return nil }
        if Self.isAdaptive(own, defaults) {
            return (
                weights,
                "needs a fixed column count (columns): with minColumnWidth the count follows the width, and one "
                    + "list of weights cannot fit every count"
            )
        }
        guard weights.count == columnCount else {
            return (weights, "lists \(weights.count) weights for \(columnCount) columns: give one per column")
        }
        return nil
    }

    /// Whether a stable section under `other` settings would have to choose every column again (the Geometry article's
    /// stable reflow): the column count or the rule that chooses changed, or the section was not stable.
    func resetsColumns(from other: SectionGeometry) -> Bool {
        reflow == .stable
            && (other.reflow != .stable || other.columnCount != columnCount || other.placement != placement
                || other.tolerance != tolerance || other.tieBreak != tieBreak || other.spanPlacement != spanPlacement)
    }

    /// Whether placement keeps a cursor (`next`, or `shortest` with `tieBreak: cursor`): state beside the column
    /// heights that a resumed placement must match too.
    var usesCursor: Bool { placement == .next || tieBreak == .cursor }

    /// The height of the header block (0 when there is no header).
    var headerBlock: Double {
        headerHeight > 0 ? headerInsets.top + headerHeight + headerInsets.bottom : 0
    }

    /// The height of the footer block (0 when there is no footer).
    var footerBlock: Double {
        footerHeight > 0 ? footerInsets.top + footerHeight + footerInsets.bottom : 0
    }

    /// The section-local y where columns start.
    var itemsTop: Double { headerBlock + insets.top }

    /// The width of an item covering `span` equal columns.
    @inline(__always)
    func itemWidth(span: Int) -> Double {
        Double(span) * columnWidth + Double(span - 1) * columnSpacing
    }

    /// The width of an item covering `span` columns from `column` on.
    @inline(__always)
    func itemWidth(column: Int, span: Int) -> Double {
        guard let shares else { return itemWidth(span: span) }
        return shares.width(column: column, span: span, spacing: columnSpacing)
    }

    /// The width of column `column`.
    @inline(__always)
    func width(ofColumn column: Int) -> Double {
        shares?.widths[column] ?? columnWidth
    }

    /// The x of column `column`, before mirroring.
    @inline(__always)
    func columnX(_ column: Int) -> Double {
        if let shares { return shares.xs[column] }
        return insets.left + Double(column) * (columnWidth + columnSpacing)
    }

    /// The laid-out height of an item placed from `column` on: aspect sizing at its width, then pixel snapping,
    /// evaluated in the Geometry article's order.
    @inline(__always)
    func itemHeight(_ input: ItemInput, column: Int) -> Double {
        var height = input.height
        if input.aspectWidth > 0 {
            height = (input.height * itemWidth(column: column, span: input.span(in: columnCount))) / input.aspectWidth
        }
        if scale > 0 {
            height = (height * scale).rounded() / scale
        }
        return height
    }

    /// The local frame of stamp `block`, mirrored.
    func localFrame(of block: StampBlock) -> Rect {
        mirrored(
            Rect(
                x: columnX(block.column), y: block.top, width: itemWidth(span: block.span),
                height: block.height))
    }

    /// Mirrors `frame` for right-to-left layouts.
    @inline(__always)
    func mirrored(_ frame: Rect) -> Rect {
        guard direction == .rtl else { return frame }
        var result = frame
        result.x = layoutWidth - frame.x - frame.width
        return result
    }

    /// The header's frame relative to the section's origin, mirrored, or nil when there is none.
    var localHeaderFrame: Rect? {
        guard headerHeight > 0 else { return nil }
        let width = layoutWidth - headerInsets.left - headerInsets.right
        return mirrored(Rect(x: headerInsets.left, y: headerInsets.top, width: width, height: headerHeight))
    }

    /// A pinned header's `pinMaxY` relative to the section's origin, given where the items end: the lowest y it is
    /// pushed to, where its bottom meets the end of the items area, and never above its resting y (the Geometry article,
    /// pinned headers). Nil without `pinHeader` or without a header.
    func localPinMaxY(itemsBottom: Double) -> Double? {
        guard pinHeader && headerHeight > 0 else { return nil }
        return max(headerInsets.top, itemsBottom + insets.bottom - headerHeight)
    }

    /// Whether items placed under `other` stand where they would under these settings: everything but `pinHeader`,
    /// which moves no frame, is the same. Switching pinning on or off then re-places nothing.
    func placesItems(like other: SectionGeometry) -> Bool {
        // Compared in place when the pinning is the same (the usual case): a changed copy is a copy of every field.
        if other.pinHeader == pinHeader { return other == self }
        var same = other
        same.pinHeader = pinHeader
        return same == self
    }

    /// The footer's frame relative to the section's origin, given where the items end, or nil when there is none.
    func localFooterFrame(itemsBottom: Double) -> Rect? {
        guard footerHeight > 0 else { return nil }
        let width = layoutWidth - footerInsets.left - footerInsets.right
        let y = itemsBottom + insets.bottom + footerInsets.top
        return mirrored(Rect(x: footerInsets.left, y: y, width: width, height: footerHeight))
    }

    /// Whether positions built from these settings add up exactly in binary floating point (see `Exactness`).
    var isExact: Bool {
        Exactness.isExact(headerBlock) && Exactness.isExact(insets.top) && Exactness.isExact(insets.bottom)
            && Exactness.isExact(footerBlock) && Exactness.isExact(rowSpacing) && Exactness.isExact(tolerance)
            && stamps.allSatisfy { Exactness.isExact($0.top) && Exactness.isExact($0.next) }
    }
}

/// The test for values whose sums are exact in `Double`.
///
/// Multiples of 2⁻¹⁶ below 2³⁶ in magnitude add without rounding while sums stay below 2³⁷ (2⁵³ steps of 2⁻¹⁶).
/// When every length of a section passes, shifting its frames by a passing constant gives the same bits as placing
/// them again, which is what lets the engine shift instead of re-place (integers and halves, the usual inputs, pass).
enum Exactness {
    static let limit = 0x1p36

    /// Whether `value` is a multiple of 2⁻¹⁶ below 2³⁶ in magnitude (false for NaN and infinities).
    ///
    /// Truncated through `Int64` (exact here: the scaled value is below 2⁵²) rather than `rounded(.towardZero)`,
    /// which on the x86-64 baseline is a call to libm's `trunc`: the kernel checks every item.
    @inline(__always)
    static func isExact(_ value: Double) -> Bool {
        guard value.magnitude < limit else { return false }
        let scaled = value * 0x1p16
        return Double(Int64(scaled)) == scaled
    }
}
