/// A fixed rectangle of a section that items flow around (the Geometry article, "Stamps"): columns
/// `column ..< column + span`, from `y` below the top of the section's items area, `height` long.
public struct Stamp: Sendable, Hashable {
    /// The first column it covers.
    public var column: Int
    /// How many columns it covers.
    public var span: Int
    /// Its top, measured from the top of the items area (below the header block and the top inset).
    public var y: Double
    /// Its length along the feed (`h` on the wire).
    public var height: Double

    /// The most stamps one section holds.
    public static let maxCount = 64

    public init(column: Int, span: Int = 1, y: Double, height: Double) {
        self.column = column
        self.span = span
        self.y = y
        self.height = height
    }
}
