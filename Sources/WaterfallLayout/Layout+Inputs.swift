import WaterfallModel

/// A layout's inputs read back (`LayoutWidths.restored` rebuilds a layout from them at a given version): what
/// durability needs to keep a layout across restarts without keeping its frames (they are derived).
extension Layout {
    /// Everything `Layout.make` would need to rebuild the same frames: the settings, and every section's own
    /// properties and items as they were given.
    ///
    /// - Complexity: O(items); a million plain items build a 48 MB array of `Item`s, so a caller that only writes
    ///   them out uses `forEachItem(inSection:_:)` instead.
    public var spec: LayoutSpec {
        LayoutSpec(
            width: width, scale: scale, direction: direction, axis: axis, minContentHeight: minContentHeight,
            defaults: defaults,
            sections: sections.indices.map { s in
                SectionSpec(properties: sections[s].properties, items: items(inSection: s))
            })
    }

    /// The items of section `s` as they were given.
    ///
    /// - Complexity: O(items in the section).
    public func items(inSection s: Int) -> [Item] {
        var items: [Item] = []
        items.reserveCapacity(sections[s].count)
        forEachItem(inSection: s) { items.append($0) }
        return items
    }

    /// Calls `body` with each item of section `s` in index order, as it was given, without building an array.
    ///
    /// - Complexity: O(items in the section), with little per item beyond `body`, since the section is read in
    ///   place rather than copied per item (as `item(at:)` does).
    public func forEachItem<E: Error>(inSection s: Int, _ body: (Item) throws(E) -> Void) throws(E) {
        try forEachItem(inSection: s, in: 0..<sections[s].count, body)
    }

    /// `forEachItem(inSection:_:)` for the items at `range` of the section (indices it has).
    public func forEachItem<E: Error>(
        inSection s: Int, in range: Range<Int>, _ body: (Item) throws(E) -> Void
    ) throws(E) {
        let section = sections[s]
        let keeps = section.geometry.reflow == .stable
        let transposed = section.geometry.transposesAspect
        if section.ids.isEmpty {
            for input in section.inputs[range] {
                try body(input.item(id: nil, keepsColumn: keeps, transposed: transposed))
            }
        } else {
            for (input, id) in zip(section.inputs[range], section.ids[range]) {
                try body(input.item(id: id, keepsColumn: keeps, transposed: transposed))
            }
        }
    }

    /// Fills `heights` with the heights of the items at `range` of section `s` and returns true when every one of
    /// them is only a height (`Item(height:)`: no aspect size, span 1, no id, no kept column); false otherwise,
    /// leaving `heights` in an unspecified state. A caller that writes items out (a snapshot) then writes the bare
    /// heights, as it would an insert's (`ItemList(heights:)`), without making an `Item` of each.
    public func heights(inSection s: Int, in range: Range<Int>, into heights: inout [Double]) -> Bool {
        let section = sections[s]
        let keeps = section.geometry.reflow == .stable
        guard section.ids.isEmpty else { return false }
        heights.removeAll(keepingCapacity: true)
        heights.reserveCapacity(range.count)
        for input in section.inputs[range] {
            guard input.isOnlyHeight(keepsColumn: keeps) else { return false }
            heights.append(input.height)
        }
        return true
    }
}
