/// Where a change's scroll anchor went (the Diffs article, "Scroll anchors"): the item's indices after the change and
/// how far its frame's y moved, or that the change removed it.
public enum AnchorOutcome: Sendable, Hashable {
    /// The item is at this path after the change; its absolute y is `dy` more than before (0 when it did not move).
    case moved(ItemPath, dy: Double)
    /// The item of a horizontal layout is at this path after the change; its screen x is `dx` more than before
    /// (`ScreenMapping.anchor` makes it from the engine's `moved`, its flow move).
    case movedAlongX(ItemPath, dx: Double)
    /// The change deleted the item, or the section it was in (by then).
    case removed
}
