/// What the diff needs to remember of a section from before a change.
struct SectionSummary {
    var origin: Double
    var height: Double
    var count: Int
    var header: Rect?
    var footer: Rect?

    init(_ section: SectionState, origin: Double) {
        self.origin = origin
        height = section.height
        count = section.count
        header = section.localHeaderFrame
        footer = section.localFooterFrame
    }
}

extension Layout {
    /// The diff of a change, from what placement reported and the summaries taken before it.
    ///
    /// - Complexity: O(sections + listed items); O(items) more for a moved section whose positions are not exact
    ///   (see `Exactness`), where only a check of each item can tell whether adding `dy` gives its new frame.
    func diff(_ batch: Batch, changed: [[Int32]?]) -> LayoutDiff {
        var result = LayoutDiff()
        for s in sections.indices {
            let section = sections[s]
            let origin = origins[s]
            let old = batch.oldIndex[s]
            guard old >= 0 else {
                result.sections.append(
                    SectionDiff(
                        section: s, origin: origin, height: section.height, count: section.count, isNew: true,
                        header: section.localHeaderFrame.map { .set(Self.absolute($0, origin)) } ?? .unchanged,
                        footer: section.localFooterFrame.map { .set(Self.absolute($0, origin)) } ?? .unchanged,
                        items: (0..<section.count).map { itemFrame(s, $0) }))
                continue
            }
            let oldOrigin = batch.oldOrigins[old]
            // A section nobody touched is as it was but for its origin: skip it cheaply when that stayed too.
            if batch.changes[s] == nil && oldOrigin == origin { continue }
            let summary = batch.summaries[old] ?? SectionSummary(section, origin: oldOrigin)
            let dy = origin - summary.origin
            var listed = changed[s] ?? []
            if dy != 0 && !(section.isExact && Exactness.isExact(origin) && Exactness.isExact(summary.origin)) {
                listed = Self.addingInexactShifts(listed, section, from: summary.origin, to: origin, dy: dy)
            }
            var entry = SectionDiff(
                section: s, origin: origin, height: section.height, count: section.count, dy: dy,
                header: Self.change(summary.header, section.localHeaderFrame, summary.origin, origin, dy),
                footer: Self.change(summary.footer, section.localFooterFrame, summary.origin, origin, dy),
                items: listed.map { itemFrame(s, Int($0)) })
            if dy == 0 { entry.dy = 0 }
            let moved =
                dy != 0 || entry.height != summary.height || entry.count != summary.count
                || entry.header != .unchanged || entry.footer != .unchanged || !entry.items.isEmpty
            if moved { result.sections.append(entry) }
        }
        return result
    }

    /// The absolute frame of item `index` of section `s`.
    func itemFrame(_ s: Int, _ index: Int) -> ItemFrame {
        let section = sections[s]
        return ItemFrame(
            index: index, frame: Self.absolute(section.localFrame(at: index), origins[s]), id: section.id(at: index))
    }

    static func absolute(_ local: Rect, _ origin: Double) -> Rect {
        var frame = local
        frame.y = origin + local.y
        return frame
    }

    // MARK: Private

    private static func change(_ old: Rect?, _ new: Rect?, _ oldOrigin: Double, _ origin: Double, _ dy: Double)
        -> FrameChange
    {
        switch (old, new) {
        case (nil, nil): return .unchanged
        case (.some, nil): return .removed
        case (nil, let new?): return .set(absolute(new, origin))
        case (let old?, let new?):
            var shifted = absolute(old, oldOrigin)
            shifted.y += dy
            let frame = absolute(new, origin)
            return shifted == frame ? .unchanged : .set(frame)
        }
    }

    /// Adds to `listed` the items not re-placed whose old absolute y plus `dy` is not their new absolute y in the
    /// last bit.
    private static func addingInexactShifts(
        _ listed: [Int32], _ section: SectionState, from oldOrigin: Double, to origin: Double, dy: Double
    ) -> [Int32] {
        var result: [Int32] = []
        var next = 0
        for index in 0..<section.count {
            if next < listed.count && Int(listed[next]) == index {
                result.append(listed[next])
                next += 1
                continue
            }
            let y = section.ys[index]
            if (oldOrigin + y) + dy != origin + y { result.append(Int32(truncatingIfNeeded: index)) }
        }
        return result
    }
}
