import WaterfallModel

extension Layout {
    /// The lanes of section `s`'s columns in absolute coordinates: each column's x and width, from the top of its
    /// items to their bottom, mirrored for rtl (what a picture of the layout shades).
    ///
    /// - Complexity: O(columns of the section).
    public func columnLanes(ofSection s: Int) -> [Rect] {
        let section = sections[s]
        let geometry = section.geometry
        let top = origins[s] + geometry.itemsTop
        let height = max(0, section.itemsBottom - geometry.itemsTop)
        return (0..<geometry.columnCount).map { column in
            geometry.mirrored(
                Rect(x: geometry.columnX(column), y: top, width: geometry.width(ofColumn: column), height: height))
        }
    }
}
