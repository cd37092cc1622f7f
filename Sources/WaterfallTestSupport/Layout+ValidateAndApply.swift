import WaterfallLayout

extension Layout {
    /// Validates `commands` against the layout as it is and applies them: the engine's one path
    /// (`validate(_:anchor:namingOps:)`, then `apply(_:listingItems:)`) in one call, for tests and benchmarks.
    ///
    /// - Throws: `LayoutError` for the first invalid command; the layout is then unchanged.
    @discardableResult
    package mutating func validateAndApply(
        _ commands: [LayoutCommand], listingItems: Bool = true, namingOps: Bool? = nil
    ) async throws(LayoutError) -> LayoutDiff {
        try await apply(validate(commands, namingOps: namingOps), listingItems: listingItems).diff
    }

    /// Applies `change` and returns its diff scoped to a client holding `viewport`'s elements, with the viewport
    /// after the change (moved by the anchor's `dy`): `hold(_:)`, `apply(_:listingItems:)` without item frames,
    /// then `scoped(_:hold:commands:anchor:)`, as the daemon answers a request that names a viewport.
    package mutating func applyScoped(
        _ change: ValidatedChange, viewport: Viewport
    ) async throws(LayoutError) -> (diff: LayoutDiff, anchor: AnchorOutcome?, viewport: Viewport) {
        let held = hold(viewport)
        let (full, anchor) = try await apply(change, listingItems: false)
        let (diff, after) = scoped(full, hold: held, commands: change.commands, anchor: anchor)
        return (diff, anchor, after)
    }
}

extension LayoutWidths {
    /// Validates `commands` against the layout as it is, at every width, and applies them there, every diff listing
    /// its item frames: `validate(_:anchor:namingOps:)`, then `apply(_:listingItems:from:)`.
    ///
    /// - Throws: `LayoutError` for the first invalid command; the layout is then unchanged.
    @discardableResult
    package mutating func validateAndApply(
        _ commands: [LayoutCommand], namingOps: Bool? = nil
    ) async throws(LayoutError) -> WidthOutcomes {
        try await apply(validate(commands, namingOps: namingOps)) { _ in true }
    }
}
