import WaterfallModel

extension Rect {
    /// Moves the rect along a feed by `delta`: down y, or along x for a horizontal layout (whose diffs say `dx`).
    mutating func move(by delta: Double, alongX: Bool) {
        if alongX { x += delta } else { y += delta }
    }
}
