import WaterfallModel

extension SectionDiff {
    /// A section's header, its `pinMaxY` and its footer after this entry, given them before (already moved by the
    /// entry's `dy`): what both frame models apply. A header is listed whenever its `pinMaxY` changed beyond `dy`;
    /// without one it is not pinned (any more).
    func headerAndFooter(
        after header: Rect?, pinMaxY: Double?, footer: Rect?
    ) -> (header: Rect?, pinMaxY: Double?, footer: Rect?) {
        var result = (header: header, pinMaxY: pinMaxY, footer: footer)
        switch self.header {
        case .unchanged: break
        case .set(let frame): result.header = frame; result.pinMaxY = self.pinMaxY
        case .removed: result.header = nil; result.pinMaxY = nil
        }
        switch self.footer {
        case .unchanged: break
        case .set(let frame): result.footer = frame
        case .removed: result.footer = nil
        }
        return result
    }
}
