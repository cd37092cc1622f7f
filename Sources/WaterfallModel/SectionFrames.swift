/// A section's frames, as `layout.get` returns them.
public struct SectionFrames: Sendable, Hashable {
    public var section: Int
    public var origin: Double
    public var height: Double
    public var count: Int
    public var header: Rect?
    /// The header's `pinMaxY` (absolute) when it is pinned; nil otherwise.
    public var pinMaxY: Double?
    public var footer: Rect?
    public var items: [ItemFrame]
    /// How these frames map to the screen: `identity` while they are in flow coordinates, a horizontal mapping once
    /// `ScreenMapping.frames` put them on screen (its wire names then apply: `width`, `pinMaxX`…).
    public var screen = ScreenMapping.identity
}
