/// How a layout's flow coordinates map to the screen (Geometry, "Horizontal feeds").
///
/// The engine places every layout vertically: columns across x, the feed down y. Those are its flow coordinates,
/// and a vertical layout's flow coordinates are its screen coordinates. A horizontal layout is transposed at the
/// edges instead of in the kernels: what leaves the engine swaps x with y and w with h, and under `rtl` the feed runs
/// from x = 0 toward −x (screen x = −(flow y + flow h)), as a right-to-left scroller's offsets do; rects coming in
/// are mapped back. Transposing costs a few operations per frame written, against the ~70 bytes of JSON it becomes.
public struct ScreenMapping: Sendable, Hashable {
    public let axis: Axis
    /// A horizontal layout under `rtl`: the feed runs toward −x.
    public let reversed: Bool

    public static let identity = ScreenMapping(axis: .vertical, direction: .ltr)

    @inlinable
    public init(axis: Axis, direction: Direction) {
        self.axis = axis
        reversed = axis == .horizontal && direction == .rtl
    }

    /// Whether screen and flow coordinates are the same (a vertical layout, rtl or not).
    @inlinable
    public var isIdentity: Bool { axis == .vertical }

    // MARK: Coordinates

    /// A flow rect on screen.
    @inlinable @inline(__always)
    public func rect(_ flow: Rect) -> Rect {
        guard axis == .horizontal else { return flow }
        let x = reversed ? -(flow.y + flow.height) : flow.y
        return Rect(x: x == 0 ? 0 : x, y: flow.x, width: flow.height, height: flow.width)
    }

    /// Whether a client holding flow rect `old` on screen, moved by the screen delta of flow `dy`, holds flow rect
    /// `new` on screen to the last bit, given that `old` moved by `dy` is `new` in flow. It does but under rtl,
    /// where the screen x is −(y + h): adding −dy to it may round otherwise than placing at y + dy does.
    public func carries(_ old: Rect, by dy: Double, to new: Rect) -> Bool {
        guard reversed else { return true }
        var moved = rect(old)
        moved.x += delta(dy)
        return moved == rect(new)
    }

    /// Whether a client moving a pinned header's bound on screen by the screen delta of `dy` gets the bound of flow
    /// `new` to the last bit, given that `old` moved by `dy` is `new` in flow (see `carries`: under rtl the bound
    /// is −(pinMaxY + extent)); true when either has no bound.
    public func carriesPin(_ old: Double?, by dy: Double, to new: Double?, extent: Double) -> Bool {
        guard reversed, let old, let new else { return true }
        return pinBound(old, extent: extent) + delta(dy) == pinBound(new, extent: extent)
    }

    /// A screen rect in flow coordinates: the inverse of `rect(_:)`.
    @inlinable
    public func flowRect(_ screen: Rect) -> Rect {
        guard axis == .horizontal else { return screen }
        let y = reversed ? -(screen.x + screen.width) : screen.x
        return Rect(x: screen.y, y: y == 0 ? 0 : y, width: screen.height, height: screen.width)
    }

    /// A flow size on screen.
    @inlinable
    public func size(_ flow: Size) -> Size {
        axis == .horizontal ? Size(width: flow.height, height: flow.width) : flow
    }

    /// The screen start (left edge, for a horizontal layout) of the flow span from `start` for `extent`.
    @inlinable
    public func start(_ start: Double, extent: Double) -> Double {
        guard reversed else { return start }
        let x = -(start + extent)
        return x == 0 ? 0 : x
    }

    /// A move along the feed, on screen: flow `dy` is screen `dx`, negated under `rtl`.
    @inlinable
    public func delta(_ flow: Double) -> Double {
        reversed && flow != 0 ? -flow : flow
    }

    /// A pinned header's bound on screen, for a header `extent` long along the feed: `pinMaxY` (the largest y it
    /// is placed at), or `pinMaxX` (the largest x), or under `rtl` `pinMinX` (the smallest x, −(pinMaxY + extent)).
    @inlinable
    public func pinBound(_ flowPinMaxY: Double, extent: Double) -> Double {
        guard reversed else { return flowPinMaxY }
        let x = -(flowPinMaxY + extent)
        return x == 0 ? 0 : x
    }

    /// A screen band along the feed in flow coordinates.
    public func flowViewport(_ screen: Viewport) -> Viewport {
        Viewport(y: reversed ? -(screen.y + screen.height) : screen.y, height: screen.height)
    }

    // MARK: Wire names

    /// The key of a move along the feed: `dy` or `dx`.
    public var deltaKey: StaticString { axis == .horizontal ? "dx" : "dy" }
    /// The key of a section's extent along the feed: `height` or `width`.
    public var extentKey: StaticString { axis == .horizontal ? "width" : "height" }
    /// The key of a pinned header's bound: `pinMaxY`, `pinMaxX` or (rtl) `pinMinX`.
    public var pinKey: StaticString { axis == .vertical ? "pinMaxY" : reversed ? "pinMinX" : "pinMaxX" }
    /// The keys of a viewport's band: `y` and `h`, or `x` and `w`.
    public var viewportKeys: (start: StaticString, extent: StaticString) {
        axis == .horizontal ? ("x", "w") : ("y", "h")
    }
}

extension ScreenMapping {
    /// `diff` with every frame and every scalar along the feed on screen, and this mapping for its wire names.
    ///
    /// Inlinable: every reply and event maps its diff, and a vertical layout's (the usual one) goes through as it is,
    /// without a call that copies it.
    @inlinable
    public func diff(_ diff: LayoutDiff) -> LayoutDiff {
        isIdentity ? diff : mapped(diff)
    }

    /// `diff(_:)` of a horizontal layout.
    @usableFromInline
    func mapped(_ diff: LayoutDiff) -> LayoutDiff {
        var result = diff
        result.screen = self
        for k in result.sections.indices {
            var entry = result.sections[k]
            entry.origin = start(entry.origin, extent: entry.height)
            entry.dy = delta(entry.dy)
            if case .set(let frame) = entry.header {
                entry.header = .set(rect(frame))
                entry.pinMaxY = entry.pinMaxY.map { pinBound($0, extent: frame.height) }
            }
            if case .set(let frame) = entry.footer { entry.footer = .set(rect(frame)) }
            for i in entry.items.indices { entry.items[i].frame = rect(entry.items[i].frame) }
            result.sections[k] = entry
        }
        for k in result.shifts.indices { result.shifts[k].dy = delta(result.shifts[k].dy) }
        return result
    }

    /// A section's frames on screen, with this mapping for their wire names.
    public func frames(_ frames: SectionFrames) -> SectionFrames {
        guard !isIdentity else { return frames }
        var result = frames
        result.screen = self
        result.origin = start(frames.origin, extent: frames.height)
        result.header = frames.header.map(rect)
        if let header = frames.header { result.pinMaxY = frames.pinMaxY.map { pinBound($0, extent: header.height) } }
        result.footer = frames.footer.map(rect)
        for k in result.items.indices { result.items[k].frame = rect(result.items[k].frame) }
        return result
    }

    /// An element on screen.
    public func element(_ element: Element) -> Element {
        var result = element
        result.frame = rect(element.frame)
        return result
    }

    /// An anchor's outcome with its move on screen (`movedAlongX` for a horizontal layout).
    public func anchor(_ anchor: AnchorOutcome) -> AnchorOutcome {
        guard axis == .horizontal, case .moved(let path, let dy) = anchor else { return anchor }
        return .movedAlongX(path, dx: delta(dy))
    }

}
