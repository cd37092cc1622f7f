/// The band of the layout a client draws: every x, and y from `y` up to, not including, `y + height`; for a
/// horizontal layout (`axis`), every y and x from `y` up to `y + height` on screen (`{"x", "w"}` on the wire).
///
/// A scoped diff or event lists only what a client holding this band's elements needs (Diffs.md, "Scoped diffs").
public struct Viewport: Sendable, Hashable {
    /// Where the band starts along the feed (a y, or an x for a horizontal band).
    public var y: Double
    /// The band's extent along the feed.
    public var height: Double
    /// The screen axis the band runs along: a horizontal layout's viewport is `{"x", "w"}`.
    public var axis: Axis

    /// A band; the protocol checks that `y` is finite and `height` > 0 before making one.
    public init(y: Double, height: Double, axis: Axis = .vertical) {
        self.y = y
        self.height = height
        self.axis = axis
    }

    /// The band as a query's rect on screen: wider than any layout across the feed, so only y decides (x for a
    /// horizontal band).
    public var rect: Rect {
        let across = (start: -Double.greatestFiniteMagnitude / 4, extent: Double.greatestFiniteMagnitude / 2)
        guard axis == .horizontal else { return Rect(x: across.start, y: y, width: across.extent, height: height) }
        return Rect(x: y, y: across.start, width: height, height: across.extent)
    }

    /// The band moved by `dy`, as an anchor moves the viewport after a change.
    public func moved(by dy: Double) -> Viewport {
        Viewport(y: y + dy, height: height, axis: axis)
    }
}
