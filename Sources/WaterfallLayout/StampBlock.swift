/// A stamp resolved in its section's local coordinates: what placement keeps items clear of.
struct StampBlock: Sendable, Hashable {
    /// Its index in the section's `stamps`.
    var index: Int
    var column: Int
    var span: Int
    /// Local y of its top edge.
    var top: Double
    /// Its length along the feed, as given.
    var height: Double
    /// Local y of its bottom edge.
    var bottom: Double
    /// `bottom` plus the row spacing: where an item moved below it starts.
    var next: Double

    /// Whether it covers any of columns `start ..< start + span`.
    @inline(__always)
    func covers(_ start: Int, _ span: Int) -> Bool {
        column < start + span && start < column + self.span
    }
}

extension UnsafeBufferPointer<StampBlock> {
    /// The top of an item `height` long whose columns `start ..< start + span` allow it from `top` on: the least y
    /// ≥ `top` where the item, with `spacing` kept above and below it, overlaps no stamp in those columns (the
    /// Geometry article, "Stamps"). The blocks are sorted by top, so the first that the item fits wholly above
    /// ends the search.
    ///
    /// - Complexity: O(stamps).
    func clear(_ top: Double, height: Double, spacing: Double, start: Int, span: Int) -> Double {
        var y = top
        for block in self where block.covers(start, span) {
            if y + height + spacing <= block.top { break }
            if y < block.next { y = block.next }
        }
        return y
    }
}
