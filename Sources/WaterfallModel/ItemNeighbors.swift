/// The items next to an item on screen, for moving focus with the arrow keys (Geometry, "Reading order and neighbours").
///
/// Each is an item element, as a query returns it (kind, section, index, frame, id), or nil at an edge.
public struct ItemNeighbors: Sendable, Hashable {
    public var above: Element?
    public var below: Element?
    public var left: Element?
    public var right: Element?

    public init(above: Element? = nil, below: Element? = nil, left: Element? = nil, right: Element? = nil) {
        self.above = above
        self.below = below
        self.left = left
        self.right = right
    }
}
