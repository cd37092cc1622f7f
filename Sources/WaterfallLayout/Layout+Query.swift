import WaterfallModel

extension Layout {
    /// The absolute frames of section `s` and its items.
    ///
    /// - Complexity: O(items of the section).
    public func frames(ofSection s: Int) -> SectionFrames {
        let origin = origins[s]
        return sections.withUnsafeBufferPointer { sections in
            let section = sections[s]
            return SectionFrames(
                section: s, origin: origin, height: section.height, count: section.count,
                items: section.itemFrames(0..<section.count, origin: origin),
                header: section.localHeaderFrame.map { Self.absolute($0, origin) },
                pinMaxY: section.localPinMaxY.map { origin + $0 },
                footer: section.localFooterFrame.map { Self.absolute($0, origin) })
        }
    }

    /// The number of items in section `s`.
    public func itemCount(inSection s: Int) -> Int { sections[s].count }

    /// The absolute frame of one item.
    public func frame(ofItem path: ItemPath) -> ItemFrame {
        sections[path.section].itemFrame(path.item, origin: origins[path.section])
    }

    /// The item at `path` as it was given.
    public func item(at path: ItemPath) -> Item {
        let section = sections[path.section]
        return section.inputs[path.item].item(
            id: section.id(at: path.item), keepsColumn: section.geometry.reflow == .stable,
            transposed: section.geometry.transposesAspect)
    }

    /// The own properties of section `s`.
    public func properties(ofSection s: Int) -> SectionProperties { sections[s].properties }

    /// Every header, item, stamp and footer in `rect`, ordered by section, then header, items by index, stamps by
    /// index, footer.
    ///
    /// - Complexity: O(log sections + columns × log n + k) per section crossed: within a column items are sorted by
    ///   y, so each column is searched, not scanned.
    /// With `limit`, it stops once it holds more than `limit` elements (so a caller can refuse a huge result
    /// without building it whole).
    public func elements(in rect: Rect, limit: Int = .max) -> [Element] {
        elements(in: rect, limit: limit, skippingItemsOf: [])
    }

    /// `elements(in:limit:)` without the items of the sections in `skipped`.
    func elements(in rect: Rect, limit: Int = .max, skippingItemsOf skipped: Set<Int>) -> [Element] {
        var result: [Element] = []
        // A viewport holds a few dozen elements: growing from empty would reallocate five or six times.
        result.reserveCapacity(64)
        var s = firstSection(endingAtOrBelow: rect.y)
        // Through the buffer so that no section is copied (retaining all its arrays) per query.
        sections.withUnsafeBufferPointer { sections in
            while s < sections.count && origins[s] <= rect.maxY && result.count <= limit {
                sections[s].appendElements(
                    section: s, origin: origins[s], in: rect, to: &result, budget: limit - result.count,
                    items: !skipped.contains(s))
                s += 1
            }
        }
        return result
    }

    // MARK: Private

    /// The first section whose bottom is at or below `y`.
    func firstSection(endingAtOrBelow y: Double) -> Int {
        var low = 0
        var high = sections.count
        while low < high {
            let mid = (low + high) / 2
            if origins[mid + 1] < y { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

extension SectionState {
    /// How many of `samples` (ascending) are at or below `y`.
    private static func samplesAtOrBelow(_ y: Double, in samples: ContiguousArray<Double>) -> Int {
        samples.withUnsafeBufferPointer { samples in
            var low = 0
            var high = samples.count
            while low < high {
                let mid = (low + high) >> 1
                if samples[mid] <= y { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    /// Appends this section's elements in `rect`, given its index and origin.
    ///
    /// It stops collecting items once it has more than `budget` (the result is then only good for refusing), and
    /// collects none unless `items`.
    fileprivate func appendElements(
        section s: Int, origin: Double, in rect: Rect, to result: inout [Element], budget: Int, items: Bool
    ) {
        if let header = headerElement(section: s, origin: origin, in: rect) { result.append(header) }
        for item in items ? visibleItems(origin: origin, in: rect, budget: budget) : [] {
            let frame = Layout.absolute(localFrame(at: Int(item)), origin)
            result.append(Element(kind: .item, section: s, index: Int(item), frame: frame, id: id(at: Int(item))))
        }
        appendStamps(section: s, origin: origin, in: rect, to: &result)
        if let footer = localFooterFrame.map({ Layout.absolute($0, origin) }), footer.isVisible(in: rect) {
            result.append(Element(kind: .footer, section: s, index: nil, frame: footer, id: nil))
        }
    }

    /// Appends the stamps in `rect`, by index (the Geometry article, "Stamps").
    ///
    /// - Complexity: O(stamps × log stamps).
    func appendStamps(section s: Int, origin: Double, in rect: Rect, to result: inout [Element]) {
        guard !geometry.stamps.isEmpty else { return }
        for block in geometry.stamps.sorted(by: { $0.index < $1.index }) {
            let frame = Layout.absolute(geometry.localFrame(of: block), origin)
            if frame.isVisible(in: rect) {
                result.append(Element(kind: .stamp, section: s, index: block.index, frame: frame, id: nil))
            }
        }
    }

    /// The header as a query of `rect` returns it, given the section's index and origin, or nil when it is not in
    /// `rect`: a pinned header is placed at `min(max(rect.minY, header.y), pinMaxY)` first, and marked pinned when
    /// that is not its resting y (the Geometry article, "Pinned headers").
    func headerElement(section s: Int, origin: Double, in rect: Rect) -> Element? {
        guard var frame = localHeaderFrame.map({ Layout.absolute($0, origin) }) else { return nil }
        let resting = frame.y
        if let pinMaxY = localPinMaxY.map({ origin + $0 }) { frame.y = min(max(rect.y, resting), pinMaxY) }
        guard frame.isVisible(in: rect) else { return nil }
        return Element(kind: .header, section: s, index: nil, frame: frame, id: nil, pinned: frame.y != resting)
    }

    /// The items visible in `rect`, ascending, given the section's origin; it stops collecting once it has more
    /// than `budget`.
    ///
    /// - Complexity: O(columns × log n + k), with 4 bytes per item found.
    func visibleItems(origin: Double, in rect: Rect, budget: Int = .max) -> [Int32] {
        // Bounds in local coordinates, widened by a hair so that rounding never hides an item; the exact test
        // below decides.
        let slack = 1e-9 * (abs(rect.y) + abs(rect.maxY) + abs(origin) + 1)
        let low = rect.y - origin - slack
        let high = rect.maxY - origin + slack
        var found: [Int32] = []
        found.reserveCapacity(64)
        ys.withUnsafeBufferPointer { ys in
            heights.withUnsafeBufferPointer { heights in
                inputs.withUnsafeBufferPointer { inputs in
                    for column in columnItems.indices where found.count <= budget {
                        columnItems[column].withUnsafeBufferPointer { list in
                            // Search on y alone (one memory access per step, not two): within a column an item
                            // starts where the one before it ended or later, so of the items that start at or
                            // above `low` only the last can reach below it.
                            var first = 0
                            var last = list.count
                            if column < columnSamples.count {
                                // The sample just at or above `low` bounds the search to one stretch of entries.
                                let block = Self.samplesAtOrBelow(low, in: columnSamples[column])
                                first = max(0, (block - 1) * Self.sampleStride)
                                last = min(list.count, block * Self.sampleStride)
                            }
                            while first < last {
                                let mid = (first + last) >> 1
                                if ys[Int(list[mid])] <= low { first = mid + 1 } else { last = mid }
                            }
                            if first > 0 && ys[Int(list[first - 1])] + heights[Int(list[first - 1])] >= low {
                                first -= 1
                            }
                            for entry in first..<list.count {
                                let item = Int(list[entry])
                                if ys[item] > high || found.count > budget { break }
                                // A spanning item sits in several columns: take it from its first only.
                                if Int(inputs[item].column) == column { found.append(list[entry]) }
                            }
                        }
                    }
                }
            }
        }
        found.sort()
        // The search above is widened by a hair: the exact test decides.
        found.removeAll { !Layout.absolute(localFrame(at: Int($0)), origin).isVisible(in: rect) }
        return found
    }
}
