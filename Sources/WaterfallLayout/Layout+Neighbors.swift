/// The items next to an item on screen, for moving focus with the arrow keys (Geometry, "Neighbours").
///
/// Each is an item element, as a query returns it (kind, section, index, frame, id), or nil at an edge.
public struct ItemNeighbors: Sendable, Hashable {
    public var above: Element?
    public var below: Element?
    public var left: Element?
    public var right: Element?

    public init(above: Element? = nil, below: Element? = nil, left: Element? = nil, right: Element? = nil) {
        self.above = above
        self.below = below
        self.left = left
        self.right = right
    }
}

extension Layout {
    /// The nearest item above, below, left and right of the item at `path`, by geometry, across sections: of the
    /// items whose extent overlaps the item's on the other axis and that lie wholly on that side of it, the one with
    /// the smallest gap; ties go to the smaller offset along the other axis (|Δx| above and below, |Δy| left and
    /// right), then to the earlier in document order. Nil at an edge. `path` must name an item.
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
        var result = ItemNeighbors()
        var best = Array(repeating: Candidate?.none, count: 4)
        // Screen side of each flow side (above, below, left, right).
        let sides = screen.axis == .vertical ? [0, 1, 2, 3] : screen.reversed ? [3, 2, 0, 1] : [2, 3, 0, 1]
        func offer(_ s: Int, _ item: Int, _ flowSide: Int) {
            guard s != path.section || item != path.item else { return }
            let frame = self.frame(ofItem: ItemPath(section: s, item: item))
            let r = screen.rect(frame.frame)
            let side = sides[flowSide]
            let gap: Double
            let offset: Double
            switch side {
            case 0:
                guard r.maxY <= me.y, r.x < me.maxX, r.maxX > me.x else { return }
                (gap, offset) = (me.y - r.maxY, abs(r.x - me.x))
            case 1:
                guard r.y >= me.maxY, r.x < me.maxX, r.maxX > me.x else { return }
                (gap, offset) = (r.y - me.maxY, abs(r.x - me.x))
            case 2:
                guard r.maxX <= me.x, r.y < me.maxY, r.maxY > me.y else { return }
                (gap, offset) = (me.x - r.maxX, abs(r.y - me.y))
            default:
                guard r.x >= me.maxX, r.y < me.maxY, r.maxY > me.y else { return }
                (gap, offset) = (r.x - me.maxX, abs(r.y - me.y))
            }
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
        // Left and right: sections do not overlap vertically, so only items level with it in its own section.
        let band = Rect(x: -Double.greatestFiniteMagnitude, y: flowMe.y, width: .infinity, height: flowMe.height)
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
}
