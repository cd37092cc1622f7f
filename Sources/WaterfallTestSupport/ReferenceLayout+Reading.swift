import WaterfallLayout

extension ReferenceLayout {
    /// The neighbours of item `path` by scanning every item's frame (Geometry, "Neighbours"): for each side, the
    /// items wholly on that side whose extent overlaps on the other axis, nearest first, then the smaller offset on
    /// the other axis, then document order. Each as `(section, index)`, nil at an edge.
    package func neighbors(of path: ItemPath) -> [ItemPath?] {
        let sections = layout().sections
        let me = sections[path.section].items[path.item]
        var all: [(path: ItemPath, frame: Rect)] = []
        for (s, section) in sections.enumerated() {
            for (k, frame) in section.items.enumerated() where !(s == path.section && k == path.item) {
                all.append((ItemPath(section: s, item: k), frame))
            }
        }
        func nearest(
            in candidates: [(path: ItemPath, frame: Rect)], _ keep: (Rect) -> Bool, _ key: (Rect) -> (Double, Double)
        ) -> ItemPath? {
            candidates.filter { keep($0.frame) }.min { a, b in
                let (ka, kb) = (key(a.frame), key(b.frame))
                if ka != kb { return ka < kb }
                return (a.path.section, a.path.item) < (b.path.section, b.path.item)
            }?.path
        }
        func overlapsX(_ r: Rect) -> Bool { r.x < me.maxX && r.maxX > me.x }
        func overlapsY(_ r: Rect) -> Bool { r.y < me.maxY && r.maxY > me.y }
        // Across the feed (left and right of a vertical layout, above and below a horizontal one) the search stays
        // in the item's section, as the rule says: sections never overlap along the feed, except by a rounding (a
        // section's last item may end an ulp past the next section's origin, where a zero-height item would then
        // overlap it).
        let level = all.filter { $0.path.section == path.section }
        let vertical = spec.axis == .vertical
        return [
            nearest(
                in: vertical ? all : level, { $0.maxY <= me.y && overlapsX($0) }, { (me.y - $0.maxY, abs($0.x - me.x)) }
            ),
            nearest(
                in: vertical ? all : level, { $0.y >= me.maxY && overlapsX($0) }, { ($0.y - me.maxY, abs($0.x - me.x)) }
            ),
            nearest(
                in: vertical ? level : all, { $0.maxX <= me.x && overlapsY($0) }, { (me.x - $0.maxX, abs($0.y - me.y)) }
            ),
            nearest(
                in: vertical ? level : all, { $0.x >= me.maxX && overlapsY($0) }, { ($0.x - me.maxX, abs($0.y - me.y)) }
            ),
        ]
    }

    /// `frames` (in document order) in reading order, written out plainly: repeatedly take the highest top edge
    /// left, gather every frame within a point below it as a row, read the row by x (by right edge, descending,
    /// under rtl); equal keys keep document order. Returns indices into `frames`.
    package static func readingOrder(_ frames: [Rect], rtl: Bool) -> [Int] {
        var left = Array(frames.indices)
        var order: [Int] = []
        while let top = left.map({ frames[$0].y }).min() {
            let row = left.filter { frames[$0].y <= top + 1 }
            left.removeAll { frames[$0].y <= top + 1 }
            order += row.sorted { a, b in
                let key = { (k: Int) in rtl ? -frames[k].maxX : frames[k].x }
                return key(a) != key(b) ? key(a) < key(b) : a < b
            }
        }
        return order
    }
}
