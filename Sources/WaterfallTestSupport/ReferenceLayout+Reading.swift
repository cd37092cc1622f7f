import WaterfallLayout

extension ReferenceLayout {
    /// The neighbours of item `path` by scanning every item's frame (Geometry, "Reading order and neighbours"): for each side, the
    /// items wholly on that side whose extent overlaps on the other axis, nearest first, then the smaller offset on
    /// the other axis, then document order. Each as `(section, index)`, nil at an edge.
    ///
    /// Items of the item's own section are judged by their placement: columns across the feed, local tops and
    /// lengths along it (the gap along the feed local too); items of other sections lie before or after it by
    /// section order, must overlap it across the feed on screen, and are as far as their leading edges say.
    /// `sections` are this layout's, from `layout()`, which a caller checking several things computes once.
    package func neighbors(of path: ItemPath, in sections: [Section]) -> [ItemPath?] {
        let mine = sections[path.section]
        let me = mine.items[path.item]
        let vertical = spec.axis == .vertical
        let (myColumn, myEnd) = (mine.columns[path.item], mine.columns[path.item] + mine.spans[path.item])
        let (myTop, myBottom) = (mine.tops[path.item], mine.tops[path.item] + mine.lengths[path.item])
        let myLead = mine.leads[path.item]
        // Screen sides (above, below, left, right) along the feed, and which of them is before the item.
        let along = vertical ? [0, 1] : [2, 3]
        let before = vertical ? 0 : spec.direction == .rtl ? 3 : 2
        // Across the feed, the screen side toward column 0: left, or right under vertical rtl; above horizontally.
        let towardZero = vertical ? (spec.direction == .rtl ? 3 : 2) : 0
        func gap(_ side: Int, _ s: Int, _ k: Int) -> Double? {
            let section = sections[s]
            let r = section.items[k]
            if along.contains(side) {
                let isBefore = side == before
                guard s == path.section else {
                    let overlaps = vertical ? r.x < me.maxX && r.maxX > me.x : r.y < me.maxY && r.maxY > me.y
                    guard overlaps, isBefore ? s < path.section : s > path.section else { return nil }
                    let lead = section.leads[k]
                    return isBefore ? myLead - (lead + section.lengths[k]) : lead - (myLead + mine.lengths[path.item])
                }
                let (column, end) = (section.columns[k], section.columns[k] + section.spans[k])
                guard column < myEnd, end > myColumn else { return nil }
                let (top, bottom) = (section.tops[k], section.tops[k] + section.lengths[k])
                if isBefore { return bottom <= myTop ? myTop - bottom : nil }
                return top >= myBottom ? top - myBottom : nil
            }
            guard s == path.section else { return nil }
            let (top, bottom) = (section.tops[k], section.tops[k] + section.lengths[k])
            guard top < myBottom, bottom > myTop else { return nil }
            let (column, end) = (section.columns[k], section.columns[k] + section.spans[k])
            guard side == towardZero ? end <= myColumn : column >= myEnd else { return nil }
            switch side {
            case 0: return me.y - r.maxY
            case 1: return r.y - me.maxY
            case 2: return me.x - r.maxX
            default: return r.x - me.maxX
            }
        }
        return (0..<4).map { side in
            var best: (gap: Double, offset: Double, path: ItemPath)?
            for (s, section) in sections.enumerated() {
                for (k, r) in section.items.enumerated() where !(s == path.section && k == path.item) {
                    guard let g = gap(side, s, k) else { continue }
                    let offset = side < 2 ? abs(r.x - me.x) : abs(r.y - me.y)
                    if let b = best, (b.gap, b.offset) <= (g, offset) { continue }
                    best = (g, offset, ItemPath(section: s, item: k))
                }
            }
            return best?.path
        }
    }

    /// `frames` (in document order) in reading order, written out plainly: sort by top edge, then take rows from
    /// the top, each the run of frames within a point below its first, read by x (by right edge, descending,
    /// under rtl); equal keys keep document order. Returns indices into `frames`.
    ///
    /// `tops` gives each frame's section and its top relative to the section's start (a horizontal layout passes
    /// section 0 and the screen top for all): the sort is by section, then that top, and within a section "a
    /// point below" is judged by those tops, across sections by the frames.
    package static func readingOrder(_ frames: [Rect], tops: [(section: Int, top: Double)], rtl: Bool) -> [Int] {
        var left = frames.indices.sorted { a, b in
            (tops[a].section, tops[a].top, a) < (tops[b].section, tops[b].top, b)
        }
        var order: [Int] = []
        while let first = left.first {
            let row = left.prefix { k in
                tops[k].section == tops[first].section
                    ? tops[k].top <= tops[first].top + 1 : frames[k].y <= frames[first].y + 1
            }
            left.removeFirst(row.count)
            order += row.sorted { a, b in
                let key = { (k: Int) in rtl ? -frames[k].maxX : frames[k].x }
                return key(a) != key(b) ? key(a) < key(b) : a < b
            }
        }
        return order
    }
}
