/// The columns of a section with `columnWidths` (Geometry, "Columns of different widths"): each column's width, its
/// share of the width left after spacing, and its x before mirroring.
///
/// Sections of equal columns have none, and keep the one-formula arithmetic of `SectionGeometry.columnX` and
/// `itemWidth(span:)`.
struct ColumnShares: Sendable, Hashable {
    /// Each column's width.
    let widths: [Double]
    /// Each column's x, before mirroring.
    let xs: [Double]

    // MARK: Lifecycle

    /// Splits `content` (the width left after the insets and the spacing) by `weights`, one per column: column j
    /// is `content × weights[j] / Σ weights` wide (snapped down to the pixel grid when `scale` > 0), and starts at
    /// `left` plus the widths and spacings of the columns before it, summed left to right.
    ///
    /// - Complexity: O(columns).
    init(weights: [Double], content: Double, spacing: Double, left: Double, scale: Double) {
        var total = 0.0
        for weight in weights { total += weight }
        var widths: [Double] = []
        var xs: [Double] = []
        widths.reserveCapacity(weights.count)
        xs.reserveCapacity(weights.count)
        var x = left
        for weight in weights {
            var width = (content * weight) / total
            if scale > 0 { width = (width * scale).rounded(.down) / scale }
            widths.append(width)
            xs.append(x)
            x = x + width + spacing
        }
        self.widths = widths
        self.xs = xs
    }

    // MARK: Internal

    /// The width of an item covering `span` columns from `column` on: their widths summed left to right, plus the
    /// spacing between them.
    ///
    /// - Complexity: O(span).
    @inline(__always)
    func width(column: Int, span: Int, spacing: Double) -> Double {
        var width = widths[column]
        for k in (column + 1)..<(column + span) { width += widths[k] }
        return width + Double(span - 1) * spacing
    }
}
