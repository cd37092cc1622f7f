import WaterfallModel

/// A layout over a range of container widths: pieces of widths within which every frame is a `LinearLength` of the
/// width, so that one description (a stylesheet, say) places every element exactly at any width in the range.
///
/// Every column's x and width is linear in the width within a piece, equal columns or not (`columnWidths`, whose
/// count is fixed, gives each column a fixed share of what the spacing and insets leave).
///
/// Pieces end where the frames stop being one linear function: where an adaptive column count changes, or where a
/// decision of placement flips (which column is shortest or within `tolerance` of it, which column's height wins a
/// span's maximum, which item ends lowest, whether the content is shorter than `minContentHeight`). Each piece is
/// found by placing the layout at its first width with the engine's own floating-point arithmetic, which gives the
/// engine's decisions there, and solving each decision's comparison, now linear in the width, for the width where
/// it would flip; the nearest such width ends the piece.
///
/// Widths are taken on a grid of `step` (1/64 px by default: Chromium lays out in 1/64 px units and snaps a
/// container's width to them): every piece after the first starts on the grid, and the frames are exact at every
/// grid width of the range. Between two grid widths near a piece's edge they may be the other piece's.
///
/// Pixel snapping (`scale` > 0) rounds every height, which is not linear in the width: such layouts are refused.
/// Two columns whose heights are equal in exact arithmetic at every width but whose floating-point sums differ in
/// the last bit (the same aspect items stacked in another order) are a tie that the engine breaks by rounding,
/// width by width; the pieces keep the choice of their first width there.
public struct ResponsiveLayout: Sendable {
    public var minWidth: Double
    public var maxWidth: Double
    /// The grid of widths on which the pieces are exact.
    public var step: Double
    /// In ascending order of `start`; the first starts at `minWidth`.
    public var pieces: [ResponsivePiece]

    /// The default bound on pieces × elements (headers, items and footers) of a result.
    public static let defaultMaxPieceElements = 500_000
    /// The default bound on the comparisons of column heights a computation may make (each piece start places the
    /// layout once): enough for real feeds, small enough that one request cannot hold the daemon for long.
    public static let defaultMaxComparisons = 20_000_000

    /// Computes the pieces of `spec` (its width is ignored) over `minWidth...maxWidth`.
    ///
    /// - Parameters:
    ///   - firstItems: lay out each section as if it held only its first `firstItems` items (a first page; later
    ///     items never move earlier ones, so these frames are those of the whole feed).
    ///   - columnLimit: the cap on adaptive column counts (the daemon's `maxColumns`).
    /// - Throws: `LayoutError.invalidValue` for a `scale` > 0, stamps or a bad range, `.invalidGeometry` when a section's
    ///   column width is negative at `minWidth`, `.limit` when the result would pass `maxPieceElements` or the work
    ///   `maxComparisons`.
    /// - Complexity: O(starts × (elements + Σ items × columns)), where starts is the number of pieces plus the
    ///   flips that change no frame; a feed of 100 aspect items over 320–1920 px with up to 8 adaptive columns has
    ///   about 40 starts.
    public static func compute(
        _ spec: LayoutSpec, minWidth: Double, maxWidth: Double, step: Double = 1.0 / 64, firstItems: Int? = nil,
        columnLimit: Int = 1024, maxPieceElements: Int = defaultMaxPieceElements,
        maxComparisons: Int = defaultMaxComparisons
    ) throws(LayoutError) -> ResponsiveLayout {
        guard spec.scale == 0 else {
            throw .invalidValue(
                field: "scale", value: "\(spec.scale)",
                reason: "snaps heights to pixels, which is not linear in the width: responsive layouts need scale 0")
        }
        if let field = firstStamps(in: spec) { throw .invalidValue(field: field, value: "", reason: stampsRefusal) }
        if let s = spec.sections.indices.first(where: { spec.sections[$0].usesLookahead(defaults: spec.defaults) }) {
            throw .invalidValue(
                field: "sections[\(s)].lookahead", value: "",
                reason: "is not linear in the width: each window's best order changes at widths of its own")
        }
        guard minWidth.isFinite, minWidth > 0 else {
            throw .invalidValue(field: "minWidth", value: "\(minWidth)", reason: "must be a number > 0")
        }
        guard maxWidth.isFinite, maxWidth >= minWidth else {
            throw .invalidValue(field: "maxWidth", value: "\(maxWidth)", reason: "must be ≥ minWidth (\(minWidth))")
        }
        guard step.isFinite, step > 0 else {
            throw .invalidValue(field: "step", value: "\(step)", reason: "must be a number > 0")
        }
        let sections = spec.sections.map { section in
            SectionSpec(properties: section.properties, items: Array(section.items.prefix(max(0, firstItems ?? .max))))
        }
        let elements = sections.reduce(0) { $0 + $1.items.count + 2 }
        let comparisonsPerStart = sections.reduce(0) {
            $0 + Self.comparisons(placing: $1, defaults: spec.defaults, maxWidth: maxWidth, columnLimit: columnLimit)
        }
        var pieces: [ResponsivePiece] = []
        var spent = 0
        var start = minWidth
        while true {
            spent += comparisonsPerStart
            guard spent <= maxComparisons else {
                throw .limit(
                    field: "maxWidth", value: "\(maxWidth)",
                    reason:
                        "needs more than \(maxComparisons) comparisons of column heights; ask for a narrower range or fewer "
                        + "items"
                )
            }
            var evaluation = ResponsiveEvaluation(
                width: start, maxWidth: maxWidth, defaults: spec.defaults, direction: spec.direction,
                columnLimit: columnLimit)
            let piece = try evaluation.piece(sections, minContentHeight: spec.minContentHeight)
            if let last = pieces.last, last.isClose(to: piece, maxWidth: maxWidth) {
                // The flip changed no frame (a tie between equal heights, a column that lost a maximum it did not
                // decide): the piece goes on.
            } else {
                pieces.append(piece)
                guard pieces.count * elements <= maxPieceElements else {
                    throw .limit(
                        field: "maxWidth", value: "\(maxWidth)",
                        reason: "gives over \(pieces.count - 1) pieces of \(elements) elements, past the limit of "
                            + "\(maxPieceElements) piece elements; ask for a narrower range or fewer items")
                }
            }
            // The first grid width at or past the flip (less a margin for the rounding of the solved width: the
            // placement there decides), and never the same start again.
            let flip = evaluation.nextFlip
            guard flip <= maxWidth + step else { break }
            let atFlip = ((flip - 1e-6) / step).rounded(.up) * step
            let afterStart = (start / step).rounded(.down) * step + step
            let next = max(atFlip, afterStart)
            guard next <= maxWidth else { break }
            start = next
        }
        return ResponsiveLayout(minWidth: minWidth, maxWidth: maxWidth, step: step, pieces: pieces)
    }

    /// Why stamps are refused (the Geometry article, "Stamps"): a stamp stands at fixed points while the columns'
    /// next positions grow with the width, so an item's top would be `max()` of a fixed edge and a linear length.
    package static let stampsRefusal =
        "stamps are fixed in points while the columns scale with the width, which the stylesheet's linear pieces "
        + "cannot follow: layout.css takes no stamps"

    /// The field of the first non-empty `stamps` of `spec` (`defaults.stamps` or `sections[k].stamps`), or nil.
    package static func firstStamps(in spec: LayoutSpec) -> String? {
        if !(spec.defaults.stamps ?? []).isEmpty { return "defaults.stamps" }
        return spec.sections.firstIndex { !($0.properties.stamps ?? []).isEmpty }.map { "sections[\($0)].stamps" }
    }

    /// At most how many comparisons placing `section` once takes at any width up to `maxWidth` (where it has the
    /// most columns): a `shortest` item of span `s` in `c` columns compares `c - s + 1` starts of `s` columns each
    /// (twice over under `spanPlacement: leastWhitespace`).
    ///
    /// - Complexity: O(items).
    static func comparisons(
        placing section: SectionSpec, defaults: SectionProperties, maxWidth: Double, columnLimit: Int
    ) -> Int {
        let geometry = SectionGeometry(
            own: section.properties, defaults: defaults, width: maxWidth, scale: 0, direction: .ltr,
            columnLimit: columnLimit)
        let c = geometry.columnCount
        // Weighing whitespace sums each window again and compares the sums.
        let perColumn = geometry.spanPlacement == .leastWhitespace ? 2 : 1
        var total = 2
        for item in section.items {
            var span = 1
            switch item.span {
            case .full: span = c
            case .columns(let n): span = max(1, min(n, c))
            }
            total += (c - span + 1) * (perColumn * span + 2) + 2
        }
        return total
    }

    /// The piece that holds `width`: the last that starts at or before it (the first below `minWidth`).
    ///
    /// - Complexity: O(log pieces).
    public func piece(at width: Double) -> ResponsivePiece {
        var low = 0
        var high = pieces.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if pieces[mid].start <= width { low = mid } else { high = mid }
        }
        return pieces[low]
    }
}

/// One piece of a `ResponsiveLayout`: from `start` to the next piece's start, every frame is linear in the width.
public struct ResponsivePiece: Sendable, Hashable {
    /// The first width of the piece (a grid width, but for the first piece's `minWidth`).
    public var start: Double
    /// `max(bottom of the last section, minContentHeight)`.
    public var contentHeight: LinearLength
    public var sections: [ResponsiveSection]

    func isClose(to other: ResponsivePiece, maxWidth: Double) -> Bool {
        let tolerance = 1e-7
        guard contentHeight.isClose(to: other.contentHeight, within: tolerance, maxWidth: maxWidth),
            sections.count == other.sections.count
        else { return false }
        for (a, b) in zip(sections, other.sections) {
            guard a.columnCount == b.columnCount, a.items.count == b.items.count,
                a.origin.isClose(to: b.origin, within: tolerance, maxWidth: maxWidth),
                a.height.isClose(to: b.height, within: tolerance, maxWidth: maxWidth),
                Self.isClose(a.header, b.header, maxWidth), Self.isClose(a.footer, b.footer, maxWidth)
            else { return false }
            for (p, q) in zip(a.items, b.items) where !p.isClose(to: q, within: tolerance, maxWidth: maxWidth) {
                return false
            }
        }
        return true
    }

    private static func isClose(_ a: LinearRect?, _ b: LinearRect?, _ maxWidth: Double) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.isClose(to: b, within: 1e-7, maxWidth: maxWidth)
        default: false
        }
    }
}

/// One section within a piece; frames are relative to the section's origin, as the engine keeps them.
public struct ResponsiveSection: Sendable, Hashable {
    /// The section's top in the layout.
    public var origin: LinearLength
    /// The section's height (its local bottom).
    public var height: LinearLength
    public var columnCount: Int
    public var header: LinearRect?
    public var footer: LinearRect?
    public var items: [LinearRect]
    /// Where the columns are: `items[k]` spans `placements[k]`.
    public var columns = ResponsiveColumns(gutters: 0, spacing: 0, leadingInset: 0)
    /// Each item's columns, counted from the section's left as placed.
    public var placements: [ResponsivePlacement] = []

    public init(
        origin: LinearLength, height: LinearLength, columnCount: Int, header: LinearRect?, footer: LinearRect?,
        items: [LinearRect]
    ) {
        self.origin = origin
        self.height = height
        self.columnCount = columnCount
        self.header = header
        self.footer = footer
        self.items = items
    }
}

/// A section's columns in a piece: `columnCount` columns sharing `W - gutters` (equally, or by `shares`), each
/// `spacing` after the one before, the first `leadingInset` from the section's left as placed (its left inset, or
/// its right one under `rtl`, which mirrors the columns).
public struct ResponsiveColumns: Sendable, Hashable {
    /// The side insets and the spacings between columns: what the container width gives to no column.
    public var gutters: Double
    public var spacing: Double
    public var leadingInset: Double
    /// Under `columnWidths`, each column's share of `W - gutters`, in the order `ResponsivePlacement` counts columns
    /// (from the left as placed, so reversed under `rtl`); nil for equal columns.
    public var shares: [Double]?

    public init(gutters: Double, spacing: Double, leadingInset: Double, shares: [Double]? = nil) {
        self.gutters = gutters
        self.spacing = spacing
        self.leadingInset = leadingInset
        self.shares = shares
    }
}

/// The columns an item occupies: from `column` (counted from the section's left as placed, as
/// `ResponsiveColumns.leadingInset` is) over `span` columns.
public struct ResponsivePlacement: Sendable, Hashable {
    public var column: Int32
    public var span: Int32

    public init(column: Int32, span: Int32) {
        self.column = column
        self.span = span
    }
}
