import WaterfallModel

extension Layout {
    /// The nearest item above, below, left and right of the item at `path`, by geometry, across sections: of the
    /// items whose extent overlaps the item's on the other axis and that lie wholly on that side of it, the one with
    /// the smallest gap; ties go to the smaller offset along the other axis (|Δx| above and below, |Δy| left and
    /// right), then to the earlier in document order. Nil at an edge. `path` must name an item.
    ///
    /// Within the item's section, "wholly on that side" and "overlaps" are judged by the values that placed the
    /// items: their columns across the feed and their local top and bottom along it, so that an item stacked on
    /// another sees it above however the sums that put them on screen round; along the feed the gap is local too.
    /// Items of other sections are before or after it by section order.
    ///
    /// - Complexity: O(columns × log n + k) in the item's section (k the items level with it), plus O(columns) per
    ///   section passed over above and below (empty sections, or ones with nothing over the item's x-range).
    ///
    /// The sides and frames are on screen: a horizontal layout is searched in flow coordinates (its screen left is
    /// its flow above, or under rtl its flow below), and each candidate is judged by its screen frame, so that the
    /// rule holds for the frames a client sees, roundings included.
    public func neighbors(of path: ItemPath) -> ItemNeighbors {
        let screen = screen
        let me = screen.rect(frame(ofItem: path).frame)
        let flowMe = frame(ofItem: path).frame
        let placed = PlacedExtent(sections[path.section], path.item)
        var result = ItemNeighbors()
        var best = Array(repeating: Candidate?.none, count: 4)
        // Screen side of each flow side (above, below, left, right).
        let sides = screen.axis == .vertical ? [0, 1, 2, 3] : screen.reversed ? [3, 2, 0, 1] : [2, 3, 0, 1]
        func offer(_ s: Int, _ item: Int, _ flowSide: Int) {
            guard s != path.section || item != path.item else { return }
            let frame = self.frame(ofItem: ItemPath(section: s, item: item))
            let gap: Double?
            if s == path.section {
                gap = placed.gap(to: PlacedExtent(sections[s], item), flowSide: flowSide, flowMe, frame.frame)
            } else {
                gap = Self.gapAcrossSections(
                    from: flowMe, path.section, to: frame.frame, s, flowSide: flowSide)
            }
            guard let gap else { return }
            let r = screen.rect(frame.frame)
            let side = sides[flowSide]
            let offset = side < 2 ? abs(r.x - me.x) : abs(r.y - me.y)
            let element = Element(kind: .item, section: s, index: item, frame: r, id: frame.id)
            let candidate = Candidate(gap: gap, offset: offset, element: element)
            if let current = best[side], !candidate.precedes(current) { return }
            best[side] = candidate
        }
        // Each side is searched in bands of the layout's full width, doubling from the item outwards, section by
        // section: a band's items are checked exactly by `offer`, and once one qualifies a band twice as deep holds
        // the nearest too (whatever it ends with, it ends at least as near).
        func search(_ flowSide: Int, in t: Int) {
            let side = flowSide
            let top = origins[t]
            let bottom = origins[t] + sections[t].height
            // From the item's own edge in its section, from the section's far edge in the others.
            let me = flowMe
            let from = side == 0 ? (t == path.section ? me.y : bottom) : (t == path.section ? me.maxY : top)
            var depth = 64.0
            var last = false
            while true {
                let low = side == 0 ? from - depth : min(from, me.y) - 1
                let high = side == 0 ? max(from, me.maxY) + 1 : from + depth
                let band = Rect(x: -Double.greatestFiniteMagnitude, y: low, width: .infinity, height: high - low)
                for item in sections[t].visibleItems(origin: top, in: band) { offer(t, Int(item), side) }
                if last || (side == 0 ? low <= top : high >= bottom) { return }
                last = best[sides[side]] != nil
                depth *= 2
            }
        }
        var s = path.section
        while best[sides[0]] == nil && s >= 0 {
            search(0, in: s)
            s -= 1
        }
        s = path.section
        while best[sides[1]] == nil && s < sections.count {
            search(1, in: s)
            s += 1
        }
        // Left and right: sections do not overlap vertically, so only items level with it in its own section. The
        // band is a point deeper each way, as level is judged by local edges that the frames may round past.
        let band = Rect(
            x: -Double.greatestFiniteMagnitude, y: flowMe.y - 1, width: .infinity, height: flowMe.height + 2)
        for item in sections[path.section].visibleItems(origin: origins[path.section], in: band) {
            offer(path.section, Int(item), 2)
            offer(path.section, Int(item), 3)
        }
        result.above = best[0]?.element
        result.below = best[1]?.element
        result.left = best[2]?.element
        result.right = best[3]?.element
        return result
    }

    /// A neighbour found so far, ordered by the tie rule.
    private struct Candidate {
        var gap: Double
        var offset: Double
        var element: Element

        func precedes(_ other: Candidate) -> Bool {
            (gap, offset, element.section, element.index ?? 0)
                < (other.gap, other.offset, other.element.section, other.element.index ?? 0)
        }
    }

    /// The gap from `me` (in section `ms`) to `other` (in section `os`, another one) on flow side `flowSide`, both
    /// absolute flow frames, or nil when `other` is not on that side: sections follow one another along the feed,
    /// so every item of an earlier section is before, and of a later one after; across the feed their extents must
    /// overlap. Left and right are never searched in other sections.
    private static func gapAcrossSections(
        from me: Rect, _ ms: Int, to other: Rect, _ os: Int, flowSide: Int
    ) -> Double? {
        guard other.x < me.maxX, other.maxX > me.x else { return nil }
        switch flowSide {
        case 0: return os < ms ? me.y - other.maxY : nil
        case 1: return os > ms ? other.y - me.maxY : nil
        default: return nil
        }
    }
}

/// An item's extent in its section's placement: its columns across the feed and its local top and bottom along it,
/// so that items of one section are judged by the values that placed them (Geometry, "Reading order and neighbours").
private struct PlacedExtent {
    var column: Int
    var end: Int
    var top: Double
    var bottom: Double
    /// Whether the section's frames are mirrored (a vertical rtl section): its column 0 is on the right.
    var mirrored: Bool

    init(_ section: SectionState, _ item: Int) {
        let input = section.inputs[item]
        column = Int(input.column)
        end = column + input.span(in: section.geometry.columnCount)
        top = section.ys[item]
        bottom = top + section.heights[item]
        mirrored = section.geometry.direction == .rtl
    }

    /// The gap from this item to `other`, of the same section, on flow side `flowSide` (above, below, left, right
    /// in the section's stored frames `me` and `frame`), or nil when `other` is not wholly on that side with
    /// extents overlapping on the other axis. Along the feed the gap is local (the placement's sums); across it,
    /// the frames' (columns placed by one formula, so equal columns give equal gaps).
    func gap(to other: PlacedExtent, flowSide: Int, _ me: Rect, _ frame: Rect) -> Double? {
        switch flowSide {
        case 0, 1:
            guard other.column < end, other.end > column else { return nil }
            if flowSide == 0 { return other.bottom <= top ? top - other.bottom : nil }
            return other.top >= bottom ? other.top - bottom : nil
        default:
            guard other.top < bottom, other.bottom > top else { return nil }
            // Left in the stored frames is toward column 0, or away from it when they are mirrored.
            let towardZero = (flowSide == 2) != mirrored
            guard towardZero ? other.end <= column : other.column >= end else { return nil }
            return flowSide == 2 ? me.x - frame.maxX : frame.x - me.maxX
        }
    }
}
