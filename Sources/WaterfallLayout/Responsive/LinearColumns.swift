import WaterfallModel

/// A section's columns as linear lengths of the container width: each column's x (before mirroring) and width,
/// by the Geometry article's arithmetic ("Columns", and "Columns of different widths" under `columnWidths`).
///
/// Every column's width is a fixed share of `W - gutters` (the count is fixed under `columnWidths`), so every x and
/// width is linear in `W`.
struct LinearColumns {
    /// Each column's share of `W - gutters`, left to right before mirroring; nil for equal columns.
    let shares: [Double]?
    /// The width of an equal column, `(W - gutters) / count`.
    private let equalWidth: LinearLength
    private let spacing: Double
    private let left: Double
    /// Under `columnWidths`, each column's width and x.
    private let widths: [LinearLength]
    private let xs: [LinearLength]

    // MARK: Lifecycle

    /// The columns of `geometry`, whose `columnWidths` (if it has any) are `weights`.
    ///
    /// - Complexity: O(columns).
    init(_ geometry: SectionGeometry, weights: [Double]?) {
        let c = geometry.columnCount
        spacing = geometry.columnSpacing
        left = geometry.insets.left
        let gutters = geometry.insets.left + geometry.insets.right + Double(c - 1) * spacing
        equalWidth = LinearLength(constant: -gutters / Double(c), slope: 1 / Double(c))
        guard let weights, geometry.shares != nil else {
            shares = nil
            widths = []
            xs = []
            return
        }
        // The engine's sum, left to right: column j is `(content × w_j) / total` wide.
        var total = 0.0
        for weight in weights { total += weight }
        var shares: [Double] = []
        var widths: [LinearLength] = []
        var xs: [LinearLength] = []
        var x = LinearLength(constant: left)
        for weight in weights {
            let share = weight / total
            let width = LinearLength(constant: -gutters * share, slope: share)
            shares.append(share)
            widths.append(width)
            xs.append(x)
            x = x + width + spacing
        }
        self.shares = shares
        self.widths = widths
        self.xs = xs
    }

    // MARK: Internal

    /// The x of column `j`, before mirroring.
    func x(ofColumn j: Int) -> LinearLength {
        guard shares != nil else {
            return LinearLength(
                constant: left + Double(j) * (equalWidth.constant + spacing), slope: Double(j) * equalWidth.slope)
        }
        return xs[j]
    }

    /// The width of an item covering `span` columns from `j` on: their widths, plus the spacing between them.
    ///
    /// - Complexity: O(span).
    func width(column j: Int, span: Int) -> LinearLength {
        guard shares != nil else { return Double(span) * equalWidth + Double(span - 1) * spacing }
        var width = widths[j]
        for k in (j + 1)..<(j + span) { width = width + widths[k] }
        return width + Double(span - 1) * spacing
    }
}
