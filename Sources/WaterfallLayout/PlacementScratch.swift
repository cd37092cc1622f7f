import Synchronization
import WaterfallModel

/// Buffers that placement needs on every change, kept by the layout from one change to the next so that a small
/// change allocates none of them (a one-item update would otherwise make a dozen allocations).
///
/// A buffer keeps its storage after use; `trim()` frees the ones that a large change grew, so a layout keeps at
/// most a few KiB here, and never more than its own last small changes needed.
struct PlacementScratch: Sendable {
    /// A re-placed run's new placement, beside the old one until they are compared (`RegionRun`).
    var ys: ContiguousArray<Double> = []
    var heights: ContiguousArray<Double> = []
    var columns: ContiguousArray<UInt16> = []
    /// The run's entries of each column's index.
    var lists: [ContiguousArray<Int32>] = []
    /// A placement cursor's column tops.
    var columnY: [Double] = []
    /// Per column, the first index entry that a splice changed.
    var cuts: [Int] = []
    /// The sections that one change places.
    var jobs: [Int] = []
    /// The origins before a change, for its diff.
    var origins: [Double] = []
    /// The items a change to one section re-placed, which its diff lists: taken by `SectionState.place(after:)`
    /// and given back by `keep(listed:)`.
    var listed: [Int32] = []
    /// `ColumnEntries`' lists when they are too large for the stack: 128 KiB, taken by a large placement and given
    /// back by `trim()` to `spareEntries`, so that it is not left among the sections' long-lived arrays to fragment
    /// the heap.
    private var entries: ContiguousArray<Int32> = []
    private var counts: ContiguousArray<Int> = []

    /// `entries` that placements gave back, shared by every layout: a bulk load's inserts take turns with the same
    /// one or two, rather than each mapping its own, faulting in the pages it writes and unmapping it again. Two at most, one per placement running at once on this
    /// daemon's two cores, so the daemon keeps 256 KiB here whatever its number of layouts.
    private static let spareEntries = Mutex<[ContiguousArray<Int32>]>([])
    static let sharedSpares = 2

    /// The shared spares kept now.
    static var spareEntryCount: Int { spareEntries.withLock { $0.count } }

    init() {}

    /// Elements a buffer may keep between changes: a run of a few hundred items, as re-placing one item costs.
    static let keptCapacity = 1_024

    /// Calls `body` with `ColumnEntries.scratchEntries` entries and counts for `ColumnEntries.maxColumns` columns, or
    /// `columnCount` when that is more.
    mutating func withEntryBuffers<R>(
        columnCount: Int, _ body: (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int>) throws -> R
    ) rethrows -> R {
        if entries.isEmpty {
            // Not zeroed: `ColumnEntries` reads only entries it wrote (up to its counts, which it zeroes). Filling
            // all 128 KiB would touch every page of a fresh mapping on each bulk insert, where a chunk writes a
            // fraction of each column's room.
            entries =
                Self.spareEntries.withLock { $0.popLast() }
                ?? ContiguousArray(unsafeUninitializedCapacity: ColumnEntries.scratchEntries) { _, count in
                    count = ColumnEntries.scratchEntries
                }
            counts = ContiguousArray(repeating: 0, count: ColumnEntries.maxColumns)
        }
        // Past `maxColumns` only under lookahead, whose entries must come from the kernel.
        if counts.count < columnCount { counts = ContiguousArray(repeating: 0, count: columnCount) }
        return try entries.withUnsafeMutableBufferPointer { entries in
            try counts.withUnsafeMutableBufferPointer { counts in
                try body(entries.baseAddress!, counts.baseAddress!)
            }
        }
    }

    /// Empty `lists` for `columnCount` columns, taken out of the scratch.
    mutating func takeLists(columnCount: Int) -> [ContiguousArray<Int32>] {
        var taken = lists
        lists = []
        if taken.count > columnCount { taken.removeSubrange(columnCount...) }
        for column in taken.indices { taken[column].removeAll(keepingCapacity: true) }
        if taken.count < columnCount { taken.append(contentsOf: repeatElement([], count: columnCount - taken.count)) }
        return taken
    }

    /// Gives back the list of re-placed items that `SectionState.place(after:)` took, so that the next small change
    /// fills the same buffer (an allocation and a free fewer per change). A list grown past `keptCapacity` goes, and
    /// an empty one with no storage (the change listed nothing) leaves the kept buffer in place.
    mutating func keep(listed list: [Int32]) {
        guard list.capacity > 0, list.capacity <= Self.keptCapacity else { return }
        listed = list
    }

    /// Frees what a large change grew, and the entry lists. The rest keep their elements (plain numbers) until
    /// `take` empties them: emptying them here would cost a uniqueness check each.
    mutating func trim() {
        if !entries.isEmpty {
            let spare = entries
            entries = []
            counts = []
            Self.spareEntries.withLock { spares in
                if spares.count < Self.sharedSpares { spares.append(spare) }
            }
        }
        Self.trim(&ys)
        Self.trim(&heights)
        Self.trim(&columns)
        Self.trim(&columnY)
        Self.trim(&cuts)
        Self.trim(&jobs)
        Self.trim(&origins)
        if lists.count > ColumnEntries.maxColumns || lists.contains(where: { $0.capacity > Self.keptCapacity }) {
            lists = []
        }
    }

    /// Takes `array` out of the scratch, empty (with its capacity), so that it is unique while it is filled.
    static func take<C: RangeReplaceableCollection>(_ array: inout C) -> C {
        var taken = array
        array = C()
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    private static func trim<Element>(_ array: inout ContiguousArray<Element>) {
        if array.capacity > keptCapacity { array = [] }
    }

    private static func trim<Element>(_ array: inout [Element]) {
        if array.capacity > keptCapacity { array = [] }
    }
}
