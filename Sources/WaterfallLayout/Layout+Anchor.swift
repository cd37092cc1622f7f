import WaterfallModel

extension Layout {
    /// Applies `commands` atomically, as `apply(_:listingItems:namingOps:)` does, and follows the item at `anchor`
    /// (indices before the change) through them: where it went and how far its y moved (see
    /// `apply(_:listingItems:)`).
    ///
    /// - Throws: `LayoutError.notFound` naming `anchor.section` or `anchor.i` when there is no such item before the
    ///   change, or the first invalid command's error; the layout is then unchanged.
    public mutating func apply(
        _ commands: [LayoutCommand], anchor: ItemPath, listingItems: Bool = true, namingOps: Bool? = nil
    ) async throws(LayoutError) -> (diff: LayoutDiff, anchor: AnchorOutcome) {
        let change = try validate(commands, anchor: anchor, namingOps: namingOps)
        let (diff, outcome) = try await apply(change, listingItems: listingItems)
        return (diff, outcome ?? .removed)
    }
}
