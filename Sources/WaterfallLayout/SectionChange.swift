import WaterfallModel

/// What a batch did to one existing section's items, kept until the section is placed again.
///
/// It lets placement restart at the first changed item and lets the diff compare each item with its own old frame.
struct SectionChange: Sendable {
    /// New item indices to old ones.
    var map: IndexMap
    /// The input an updated item had before its first update, by old index.
    var previousInputs = PreviousInputs()
    /// The first new index whose input or predecessor changed; `Int.max` when no item changed.
    var firstDirty = Int.max
    /// One past the last new index an edit touched: beyond it, items are the old ones in the old order.
    var lastDirty = 0
    var oldGeometry: SectionGeometry
    var oldCount: Int
    /// The section's metrics before the batch, for the diff.
    var oldMetrics: SectionMetrics

    // MARK: Lifecycle

    init(section: borrowing SectionState, metrics: SectionMetrics) {
        map = IndexMap(identityOver: section.count)
        oldGeometry = section.geometry
        oldCount = section.count
        oldMetrics = metrics
    }

    // MARK: Internal

    var itemsChanged: Bool { firstDirty != .max }

    mutating func recordInsert(at index: Int, count: Int, oldStart: Int = -1) {
        // Nothing inserted: nothing to place again.
        guard count > 0 else { return }
        map.insert(at: index, count: count, oldStart: oldStart)
        firstDirty = min(firstDirty, index)
        if lastDirty > index { lastDirty += count }
        lastDirty = max(lastDirty, index + count)
    }

    /// Records the removal of the new-index ranges in `ranges` (ascending, disjoint).
    mutating func recordRemoval(_ ranges: [Range<Int>]) {
        guard let first = ranges.first else { return }
        map.remove(ranges)
        var removedBelowLastDirty = 0
        var removedBeforeLast = 0
        for range in ranges {
            if range.lowerBound < lastDirty {
                removedBelowLastDirty += min(range.upperBound, lastDirty) - range.lowerBound
            }
            removedBeforeLast += range.count
        }
        let last = ranges[ranges.count - 1]
        removedBeforeLast -= last.count
        firstDirty = min(firstDirty, first.lowerBound)
        // The item that now follows the last removed range has a new predecessor: it is an edit point.
        lastDirty = max(lastDirty - removedBelowLastDirty, last.lowerBound - removedBeforeLast)
    }

    mutating func recordUpdate(at index: Int, previous: ItemInput) {
        if let old = map.oldIndex(of: index) { previousInputs.keepFirst(previous, at: old) }
        firstDirty = min(firstDirty, index)
        lastDirty = max(lastDirty, index + 1)
    }
}

/// The input each updated item had before its first update, by old index: the first one inline (most changes
/// update one item, and a dictionary would cost two allocations and a hash), the others in a dictionary.
struct PreviousInputs: Sendable {
    private var first: (index: Int, input: ItemInput)?
    private var others: [Int: ItemInput] = [:]
    /// The lowest and highest index held, so that most lookups end with a range check.
    private var lowest = Int.max
    private var highest = Int.min

    var isEmpty: Bool { first == nil }

    subscript(old: Int) -> ItemInput? {
        guard old >= lowest && old <= highest, let first else { return nil }
        return first.index == old ? first.input : others[old]
    }

    /// Records `input` for item `old`, unless one was recorded for it before.
    mutating func keepFirst(_ input: ItemInput, at old: Int) {
        guard self[old] == nil else { return }
        if first == nil { first = (old, input) } else { others[old] = input }
        lowest = min(lowest, old)
        highest = max(highest, old)
    }
}
