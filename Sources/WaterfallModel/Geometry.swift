/// A rectangle in layout coordinates: origin top-left, y grows downward, units are points.
public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    @inlinable
    public var maxX: Double { x + width }
    @inlinable
    public var maxY: Double { y + height }

    /// Whether an element with this frame is in `rect`, by the Geometry article's rule ("Queries"; zero-size elements by their origin).
    @inlinable
    public func isVisible(in rect: Rect) -> Bool {
        if width == 0 || height == 0 {
            return x >= rect.x && x < rect.maxX && y >= rect.y && y < rect.maxY
        }
        return y < rect.maxY && maxY > rect.y && x < rect.maxX && maxX > rect.x
    }
}

/// A width and a height.
public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double

    @inlinable
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// Space around a block of content.
public struct Insets: Sendable, Hashable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public static let zero = Insets(top: 0, left: 0, bottom: 0, right: 0)

    @inlinable
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

/// How a section picks the column of its next item.
public enum Placement: String, Sendable, Hashable, CaseIterable {
    /// The shortest column, ties to the leftmost (within the section's tolerance).
    case shortest
    /// Round robin, wrapping when a span does not fit.
    case next
}

/// Which of the tied columns `shortest` placement picks (the Geometry article, "Shortest column first").
public enum TieBreak: String, Sendable, Hashable, CaseIterable {
    /// The leftmost tied start (UICollectionView waterfalls, masonic, Compose).
    case leftmost
    /// CSS grid-lanes' placement cursor: the first tied start at or after the cursor, else the leftmost.
    case cursor
}

/// Where `shortest` placement puts an item that spans several columns (the Geometry article, "Spans placed by
/// whitespace").
public enum SpanPlacement: String, Sendable, Hashable, CaseIterable {
    /// The window of columns whose top (its highest column's next position) is lowest, as CSS does.
    case lowest
    /// The window that leaves least whitespace under the item: Σ over its columns of (top − column's next
    /// position); ties to the lowest top, then as `tieBreak` says.
    case leastWhitespace
}

/// Whether a section's items keep the column they were first placed in (the Geometry article's exact placement is `exact`).
public enum Reflow: String, Sendable, Hashable, CaseIterable {
    /// Every change places the section again by the column rule: an item may change columns.
    case exact
    /// An item's column is chosen once, when it is inserted, and kept: later changes only re-stack each column.
    case stable
}

/// Which way a layout's feed scrolls (Geometry, "Horizontal feeds").
public enum Axis: String, Sendable, Hashable, CaseIterable {
    /// Columns across x, the feed down y: the vertical layout.
    case vertical
    /// The vertical layout transposed: rows across y, the feed along x; `width` is the rows' extent (the height of
    /// the viewport) and an item's `h` its extent along x.
    case horizontal
}

/// Whether frames are mirrored for right-to-left layouts.
public enum Direction: String, Sendable, Hashable {
    case ltr
    case rtl
}

/// How many columns an item covers.
public enum Span: Sendable, Hashable {
    case columns(Int)
    case full
}
