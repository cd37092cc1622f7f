import WaterfallModel

/// Pieces of a large listing (`layout.get` of a whole layout, `query` of a large rect), so that a reply can be
/// written a chunk at a time from an immutable copy of the layout instead of as one array of every frame.
extension Layout {
    /// Section `s`'s own frames and the absolute frames of its items in `items` (clamped to the section).
    ///
    /// - Complexity: O(items listed).
    public func frames(ofSection s: Int, items: Range<Int>) -> SectionFrames {
        let origin = origins[s]
        return sections.withUnsafeBufferPointer { sections in
            let section = sections[s]
            let listed = items.clamped(to: 0..<section.count)
            return SectionFrames(
                section: s, origin: origin, height: section.height, count: section.count,
                items: section.itemFrames(listed, origin: origin),
                header: section.localHeaderFrame.map { Self.absolute($0, origin) },
                pinMaxY: section.localPinMaxY.map { origin + $0 },
                footer: section.localFooterFrame.map { Self.absolute($0, origin) })
        }
    }

    /// Section `s`'s header as a query of `rect` returns it (a pinned one placed within its range), or nil when it
    /// is not in `rect`.
    ///
    /// - Complexity: O(1).
    public func headerElement(ofSection s: Int, in rect: Rect) -> Element? {
        let origin = origins[s]
        return sections.withUnsafeBufferPointer { $0[s].headerElement(section: s, origin: origin, in: rect) }
    }

    /// Section `s`'s stamps in `rect`, by index, as a query returns them (the Geometry article, "Stamps").
    ///
    /// - Complexity: O(stamps × log stamps).
    public func stampElements(ofSection s: Int, in rect: Rect) -> [Element] {
        let origin = origins[s]
        var result: [Element] = []
        sections.withUnsafeBufferPointer { $0[s].appendStamps(section: s, origin: origin, in: rect, to: &result) }
        return result
    }

    /// The absolute frames of the items of section `s` at `indices`.
    ///
    /// - Complexity: O(indices).
    public func itemFrames(inSection s: Int, at indices: some Collection<Int32>) -> [ItemFrame] {
        let origin = origins[s]
        return sections.withUnsafeBufferPointer { sections in
            sections[s].itemFrames(indices.lazy.map { Int($0) }, origin: origin)
        }
    }

    /// The sections that `rect` may cross, in order (those `elements(in:)` looks at).
    ///
    /// - Complexity: O(log sections + sections crossed).
    public func sections(crossing rect: Rect) -> Range<Int> {
        let first = firstSection(endingAtOrBelow: rect.y)
        var end = first
        while end < sections.count && origins[end] <= rect.maxY { end += 1 }
        return first..<end
    }

    /// The items of section `s` visible in `rect`, ascending: 4 bytes per item, not a frame.
    ///
    /// - Complexity: O(columns × log n + k).
    public func visibleItems(inSection s: Int, in rect: Rect) -> [Int32] {
        let origin = origins[s]
        return sections.withUnsafeBufferPointer { $0[s].visibleItems(origin: origin, in: rect) }
    }
}
