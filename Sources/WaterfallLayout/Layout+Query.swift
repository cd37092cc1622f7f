/// A section's frames, as `layout.get` returns them.
public struct SectionFrames: Sendable, Hashable {
    public var section: Int
    public var origin: Double
    public var height: Double
    public var count: Int
    public var header: Rect?
    public var footer: Rect?
    public var items: [ItemFrame]
}

extension Layout {
    /// The absolute frames of section `s` and its items.
    ///
    /// - Complexity: O(items of the section).
    public func frames(ofSection s: Int) -> SectionFrames {
        let section = sections[s]
        let origin = origins[s]
        return SectionFrames(
            section: s, origin: origin, height: section.height, count: section.count,
            header: section.localHeaderFrame.map { Self.absolute($0, origin) },
            footer: section.localFooterFrame.map { Self.absolute($0, origin) },
            items: (0..<section.count).map { itemFrame(s, $0) })
    }

    /// The number of items in section `s`.
    public func itemCount(inSection s: Int) -> Int { sections[s].count }

    /// The absolute frame of one item.
    public func frame(ofItem path: ItemPath) -> ItemFrame { itemFrame(path.section, path.item) }

    /// The item at `path` as it was given.
    public func item(at path: ItemPath) -> Item {
        let section = sections[path.section]
        return section.inputs[path.item].item(id: section.id(at: path.item))
    }

    /// The own properties of section `s`.
    public func properties(ofSection s: Int) -> SectionProperties { sections[s].properties }

    /// Every header, item and footer in `rect`, ordered by section, then header, items by index, footer.
    ///
    /// - Complexity: O(log sections + columns × log n + k) per section crossed: within a column items are sorted by
    ///   y, so each column is searched, not scanned.
    public func elements(in rect: Rect) -> [Element] {
        var result: [Element] = []
        var s = firstSection(endingAtOrBelow: rect.y)
        while s < sections.count && origins[s] <= rect.maxY {
            appendElements(ofSection: s, in: rect, to: &result)
            s += 1
        }
        return result
    }

    // MARK: Private

    /// The first section whose bottom is at or below `y`.
    private func firstSection(endingAtOrBelow y: Double) -> Int {
        var low = 0
        var high = sections.count
        while low < high {
            let mid = (low + high) / 2
            if origins[mid + 1] < y { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func appendElements(ofSection s: Int, in rect: Rect, to result: inout [Element]) {
        let section = sections[s]
        let origin = origins[s]
        if let header = section.localHeaderFrame.map({ Self.absolute($0, origin) }), header.isVisible(in: rect) {
            result.append(Element(kind: .header, section: s, index: nil, frame: header, id: nil))
        }
        // Bounds in local coordinates, widened by a hair so that rounding never hides an item; the exact test
        // below decides.
        let slack = 1e-9 * (abs(rect.y) + abs(rect.maxY) + abs(origin) + 1)
        let low = rect.y - origin - slack
        let high = rect.maxY - origin + slack
        var found: [Int] = []
        for column in 0..<section.columnItems.count {
            section.columnItems[column].withUnsafeBufferPointer { list in
                var first = 0
                var last = list.count
                while first < last {
                    let mid = (first + last) >> 1
                    let item = Int(list[mid])
                    if section.ys[item] + section.heights[item] < low { first = mid + 1 } else { last = mid }
                }
                for entry in first..<list.count {
                    let item = Int(list[entry])
                    if section.ys[item] > high { break }
                    // A spanning item sits in several columns: take it from its first only.
                    guard Int(section.columns[item]) == column else { continue }
                    found.append(item)
                }
            }
        }
        found.sort()
        for item in found {
            let frame = Self.absolute(section.localFrame(at: item), origin)
            if frame.isVisible(in: rect) {
                result.append(Element(kind: .item, section: s, index: item, frame: frame, id: section.id(at: item)))
            }
        }
        if let footer = section.localFooterFrame.map({ Self.absolute($0, origin) }), footer.isVisible(in: rect) {
            result.append(Element(kind: .footer, section: s, index: nil, frame: footer, id: nil))
        }
    }
}
