/// The band of the layout a client draws: every x, and y from `y` up to, not including, `y + height`.
///
/// A scoped diff or event lists only what a client holding this band's elements needs (Diffs.md, "Scoped diffs").
public struct Viewport: Sendable, Hashable {
    public var y: Double
    public var height: Double

    /// A band; the protocol checks that `y` is finite and `height` > 0 before making one.
    public init(y: Double, height: Double) {
        self.y = y
        self.height = height
    }

    /// The band as a query's rect: wider than any layout, so only y decides.
    public var rect: Rect {
        Rect(x: -Double.greatestFiniteMagnitude / 4, y: y, width: Double.greatestFiniteMagnitude / 2, height: height)
    }

    /// The band moved by `dy`, as an anchor moves the viewport after a change.
    public func moved(by dy: Double) -> Viewport {
        Viewport(y: y + dy, height: height)
    }
}
