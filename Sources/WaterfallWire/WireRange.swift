import WaterfallModel

/// The range of every integer the protocol reads, checked where it is decoded (`bad_params` naming the field and
/// the value), so that no value from the wire meets arithmetic unchecked.
///
/// Indices are bounded by what a layout can hold at most (2³¹ − 1 items or sections: the engine keeps item indices
/// in 32 bits, and `maxItemsPerLayout` is capped there), so that an index plus a count (at most a line's length) can
/// never overflow. An index within range that names nothing is `not_found`, decided against the layout. Only a
/// request's `id` takes the whole int64 range.
@usableFromInline package enum WireRange {
    /// Section and item indices and positions (`at`, `section`, `i`, `from`, `to`, the index lists).
    @usableFromInline package static let index: ClosedRange<Int> = 0...Int(Int32.max)
    /// Counts that are at least one: `span` (clamped to the column count, Geometry article) and `maxColumns`.
    package static let count: ClosedRange<Int> = 1...Int(Int32.max)
    /// `columns`: the most a section may have.
    package static let columns: ClosedRange<Int> = 1...1024
    /// An item's kept `column` in a stable section: a column of the widest section.
    package static let column: ClosedRange<Int> = 0...1023
    /// `lookahead.items`: the items of a window.
    package static let lookaheadItems: ClosedRange<Int> = 1...Lookahead.maxItems
    /// `lookahead.limit`: the orders weighed per window.
    package static let lookaheadLimit: ClosedRange<Int> = 1...Lookahead.maxLimit

    /// `value` when it lies in `range`, else the `bad_params` error for `field`.
    @inlinable @inline(__always)
    package static func check(
        _ value: Int, in range: ClosedRange<Int>, _ field: @autoclosure () -> String
    ) throws(ProtocolError) -> Int {
        guard range.contains(value) else { throw outOfRange(value, range, field()) }
        return value
    }

    @usableFromInline
    static func outOfRange(_ value: Int, _ range: ClosedRange<Int>, _ field: String) -> ProtocolError {
        .badParams(field, "\(value) is out of range (\(range.lowerBound) to \(range.upperBound))")
    }
}
