import Testing
import WaterfallLayout

// Shorthands for hand-written expectations: frames read as `rect(x, y, w, h)`, as a reader checks them on paper.

/// A frame, written the way the tests' comments compute it.
func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
    Rect(x: x, y: y, width: width, height: height)
}

/// Plain items of these laid-out heights.
func items(_ heights: [Double]) -> [Item] {
    heights.map { Item(height: $0) }
}

/// The same items as an insert's list of bare heights, as the wire decodes a bulk load's.
func plainItems(_ heights: [Double]) -> ItemList {
    ItemList(heights: heights)
}

/// A layout of one section with these own properties and item heights.
func spec(
    width: Double, scale: Double = 0, direction: Direction = .ltr, defaults: SectionProperties = SectionProperties(),
    _ properties: SectionProperties = SectionProperties(), heights: [Double]
) -> LayoutSpec {
    LayoutSpec(
        width: width, scale: scale, direction: direction, defaults: defaults,
        sections: [SectionSpec(properties: properties, items: items(heights))])
}

/// Builds a layout, dropping the creation diff.
func build(_ spec: LayoutSpec, limits: LayoutLimits = .default) async throws(LayoutError) -> Layout {
    try await Layout.make(spec, limits: limits).layout
}

/// The `LayoutError` `body` throws, or nil when it succeeds.
///
/// The closure is untyped because Swift does not infer typed throws for closures yet; any other error fails the test.
func thrown(_ body: () async throws -> Void) async -> LayoutError? {
    do {
        try await body()
        return nil
    } catch let error as LayoutError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

/// Everything a client can see of a layout, to tell that a rejected command changed nothing.
struct Observed: Equatable {
    var seq: Int
    var contentSize: Size
    var width: Double
    var scale: Double
    var direction: Direction
    var minContentHeight: Double
    var defaults: SectionProperties
    var sections: [SectionFrames]
    var properties: [SectionProperties]
    var items: [[Item]]

    init(_ layout: Layout) {
        seq = layout.seq
        contentSize = layout.contentSize
        width = layout.width
        scale = layout.scale
        direction = layout.direction
        minContentHeight = layout.minContentHeight
        defaults = layout.defaults
        sections = (0..<layout.sectionCount).map { layout.frames(ofSection: $0) }
        properties = (0..<layout.sectionCount).map { layout.properties(ofSection: $0) }
        items = (0..<layout.sectionCount).map { s in
            (0..<layout.itemCount(inSection: s)).map { layout.item(at: ItemPath(section: s, item: $0)) }
        }
    }
}

extension Layout {
    /// The absolute item frames of section `s`, in index order.
    func itemFrames(_ s: Int) -> [Rect] {
        frames(ofSection: s).items.map(\.frame)
    }

    /// The layout's current state as a spec, to lay it out again from scratch.
    var currentSpec: LayoutSpec {
        LayoutSpec(
            width: width, scale: scale, direction: direction, minContentHeight: minContentHeight, defaults: defaults,
            sections: (0..<sectionCount).map { s in
                SectionSpec(
                    properties: properties(ofSection: s),
                    items: (0..<itemCount(inSection: s)).map { item(at: ItemPath(section: s, item: $0)) })
            })
    }
}
