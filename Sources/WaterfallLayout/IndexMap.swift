import WaterfallModel

/// Maps a section's item indices after a change to its indices before it, so diffs follow items through
/// inserts, deletes and moves.
///
/// Stored as contiguous runs: a change touches a few runs, so the map costs O(runs), not O(items).
struct IndexMap: Sendable {
    /// A run of new indices `newStart ..< newStart + count` that were `oldStart ..< oldStart + count`, or are new
    /// when `oldStart` is -1.
    struct Run: Sendable, Hashable {
        var newStart: Int
        var count: Int
        var oldStart: Int
    }

    /// The runs, once an insert or a removal made the map more than the identity.
    private var runs: [Run]
    /// The item count while the map is still the identity (an update changes no index): -1 once `runs` hold it.
    /// Kept apart so that the common change, an update, allocates no runs.
    private var identityCount: Int

    // MARK: Lifecycle

    /// The identity map over `count` items.
    init(identityOver count: Int) {
        runs = []
        identityCount = count
    }

    // MARK: Internal

    /// Whether no insert or removal was recorded: every index is its own old index.
    var isIdentity: Bool { identityCount >= 0 }

    /// Records `count` items inserted at `index`; `oldStart` gives their old indices when they moved here.
    mutating func insert(at index: Int, count: Int, oldStart: Int = -1) {
        guard count > 0 else { return }
        materialize()
        let position = split(at: index)
        for k in position..<runs.count { runs[k].newStart += count }
        runs.insert(Run(newStart: index, count: count, oldStart: oldStart), at: position)
    }

    /// Records the removal of the items at `ranges` (new indices, ascending and disjoint).
    ///
    /// - Complexity: O(runs + ranges), in one pass, so deleting many scattered items stays linear.
    mutating func remove(_ ranges: [Range<Int>]) {
        guard !ranges.isEmpty else { return }
        materialize()
        var result: [Run] = []
        result.reserveCapacity(runs.count + ranges.count)
        var next = 0
        var removed = 0
        for run in runs {
            var start = run.newStart
            let end = run.newStart + run.count
            while start < end {
                while next < ranges.count && ranges[next].upperBound <= start {
                    removed += ranges[next].count
                    next += 1
                }
                if next < ranges.count && ranges[next].lowerBound <= start {
                    start = min(end, ranges[next].upperBound)
                    continue
                }
                let keptEnd = next < ranges.count ? min(end, ranges[next].lowerBound) : end
                let oldStart = run.oldStart < 0 ? -1 : run.oldStart + (start - run.newStart)
                let piece = Run(newStart: start - removed, count: keptEnd - start, oldStart: oldStart)
                if let last = result.last, last.newStart + last.count == piece.newStart,
                    last.oldStart >= 0, last.oldStart + last.count == piece.oldStart
                {
                    result[result.count - 1].count += piece.count
                } else {
                    result.append(piece)
                }
                start = keptEnd
            }
        }
        runs = result
    }

    /// The old index of the item now at `index`, or nil when it is new.
    func oldIndex(of index: Int) -> Int? {
        if identityCount >= 0 { return index < identityCount ? index : nil }
        var low = 0
        var high = runs.count
        while low < high {
            let mid = (low + high) / 2
            if runs[mid].newStart + runs[mid].count <= index { low = mid + 1 } else { high = mid }
        }
        guard low < runs.count, runs[low].oldStart >= 0 else { return nil }
        return runs[low].oldStart + index - runs[low].newStart
    }

    /// Reads old indices for ascending new indices in amortized O(1) each.
    struct Walker {
        private let runs: [Run]
        private let identityCount: Int
        private var position = 0

        init(_ map: IndexMap) {
            runs = map.runs
            identityCount = map.identityCount
        }

        /// The old index of the item now at `index`; calls must come with non-decreasing `index`.
        @inline(__always)
        mutating func oldIndex(of index: Int) -> Int? {
            if identityCount >= 0 { return index < identityCount ? index : nil }
            while position < runs.count && runs[position].newStart + runs[position].count <= index {
                position += 1
            }
            guard position < runs.count, runs[position].newStart <= index, runs[position].oldStart >= 0 else {
                return nil
            }
            return runs[position].oldStart + index - runs[position].newStart
        }
    }

    // MARK: Private

    /// Turns the identity into its one run.
    private mutating func materialize() {
        guard identityCount >= 0 else { return }
        // Room for a typical change's few runs, so that recording it does not grow the array.
        runs.reserveCapacity(4)
        if identityCount > 0 { runs.append(Run(newStart: 0, count: identityCount, oldStart: 0)) }
        identityCount = -1
    }

    /// Splits the run containing `index` so that a run starts there; returns that run's position.
    private mutating func split(at index: Int) -> Int {
        var low = 0
        var high = runs.count
        while low < high {
            let mid = (low + high) / 2
            if runs[mid].newStart + runs[mid].count <= index { low = mid + 1 } else { high = mid }
        }
        guard low < runs.count, runs[low].newStart < index else { return low }
        let run = runs[low]
        let head = index - run.newStart
        runs[low].count = head
        let tail = Run(
            newStart: index, count: run.count - head, oldStart: run.oldStart < 0 ? -1 : run.oldStart + head)
        runs.insert(tail, at: low + 1)
        return low + 1
    }
}
