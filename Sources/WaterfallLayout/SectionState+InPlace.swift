import WaterfallModel

extension SectionState {
    /// Whether `place(after:scratch:)` may re-place this section over its old placement (`placeInPlace`): the
    /// change moved no item (updates only), and every rule places an item from the items before it alone (no
    /// stable columns, no lookahead windows).
    func placesInPlace(after change: SectionChange) -> Bool {
        change.map.isIdentity && change.oldCount == count && ys.count == count && geometry.reflow != .stable
            && !geometry.lookahead.isActive && columnItems.count == geometry.columnCount
    }

    /// Places items `start...` again after `change` (see `placesInPlace(after:)`), writing each new frame over the
    /// old one, and returns the indices of the items whose section-local frame changed (ascending).
    ///
    /// The decisions are `place(after:scratch:)`'s: the same kernel from the same cursor, checked for convergence at
    /// the same items. The kernel places a chunk at a time into scratch buffers that stay in cache; each chunk is then
    /// compared with the old frames and written over them in one pass, so that a long re-placement builds no copy
    /// of the section beside it and moves nothing afterwards. The old column tops, which convergence compares the
    /// new ones with, are followed item by item as the old frames go, rather than read back from the column index.
    ///
    /// - Complexity: O(re-placed items + columns × log n), plus O(tail) when the tail shifts.
    mutating func placeInPlace(from start: Int, after change: SectionChange, scratch: inout PlacementScratch) -> [Int32]
    {
        var run = InPlaceRun(section: self, change: change, start: start, scratch: &scratch)
        while let range = run.nextChunk(in: self) {
            run.place(range, in: &self, change: change, scratch: &scratch)
        }
        return run.finish(in: &self, scratch: &scratch)
    }
}

/// A re-placement over the old placement (`SectionState.placeInPlace`), chunk by chunk: the new cursor, the old
/// column tops up to the items it has overwritten, and the run's entries of each column's index.
struct InPlaceRun {
    /// Items placed at a time: a chunk's buffers stay in cache until it is compared and written.
    static let chunk = PlacementScratch.keptCapacity

    let start: Int
    /// The first item not placed yet.
    private(set) var index: Int
    /// Where placement stopped, with the shift of the old frames from there on, once it converged.
    private(set) var converged: (index: Int, shift: Double)?
    /// The items whose frame changed, ascending.
    private(set) var changed: [Int32] = []
    private(set) var cursor: ColumnCursor
    /// The old placement's column tops before `index`, and where the item before it ended in the old placement (its
    /// column plus its span), whence the column the cursor rule would take next.
    private var oldTops: [Double]
    private var oldEnd: Int
    /// Per column, the first entry of its index at or after `start`: where the run's entries go.
    private var cuts: [Int]
    /// The run's entries of each column's index, as absolute item indices.
    private var lists: [ContiguousArray<Int32>]
    /// A chunk's placement, indexed from the chunk's first item.
    private var ys: ContiguousArray<Double>
    private var heights: ContiguousArray<Double>
    private var columns: ContiguousArray<UInt16>
    /// Inexact laid-out heights among the new frames and among the old frames overwritten.
    private var inexact = 0
    private var oldInexact = 0
    /// The next item at which convergence is checked (only past the last edit, every `checkInterval` items).
    private var nextCheck: Int
    private let checkInterval: Int
    private var reserved = false

    init(section: borrowing SectionState, change: SectionChange, start: Int, scratch: inout PlacementScratch) {
        self.start = start
        index = start
        cursor = section.cursor(before: start, storage: PlacementScratch.take(&scratch.columnY))
        oldTops = Array(cursor.columnY)
        oldEnd = cursor.next
        let c = section.geometry.columnCount
        cuts = PlacementScratch.take(&scratch.cuts)
        for column in 0..<c { cuts.append(section.firstEntry(in: column, atOrAfter: start)) }
        lists = scratch.takeLists(columnCount: c)
        ys = PlacementScratch.take(&scratch.ys)
        heights = PlacementScratch.take(&scratch.heights)
        columns = PlacementScratch.take(&scratch.columns)
        nextCheck = max(start, change.lastDirty) + 1
        checkInterval = max(256, 4 * c)
    }

    /// The items to place next, after checking whether placement converged where a check is due; nil once the
    /// run is done (converged or at the section's end).
    mutating func nextChunk(in section: SectionState) -> Range<Int>? {
        let count = section.count
        guard converged == nil, index < count else { return nil }
        if index == nextCheck {
            nextCheck += checkInterval
            if let shift = convergence(in: section) {
                converged = (index, shift)
                return nil
            }
        }
        // A run that goes on past a few checks most likely goes on to the end: room for that at once, where
        // doubling would copy what it holds and fault in fresh pages at every step.
        if !reserved && index - start >= 4 * checkInterval {
            reserve(count - start)
            reserved = true
        }
        return index..<min(count, nextCheck, index + Self.chunk)
    }

    /// Places items `range` (the next chunk, or its rest) and writes them over the old frames.
    mutating func place(
        _ range: Range<Int>, in section: inout SectionState, change: SectionChange, scratch: inout PlacementScratch
    ) {
        let geometry = section.geometry
        // Taken out while the kernel writes them, so that their storage is not shared and mutates in place.
        var cursor = self.cursor
        self.cursor.columnY = []
        var lists = self.lists
        self.lists = []
        let added = section.inputs.withUnsafeBufferPointer { inputs in
            withChunk(range) { ys, heights, columns in
                PlacementKernel.placeIndexed(
                    inputs, range, geometry: geometry, cursor: &cursor, ys: ys, heights: heights, columns: columns,
                    offset: range.lowerBound, lists: &lists, scratch: &scratch)
            }
        }
        self.cursor = cursor
        self.lists = lists
        inexact += added
        overwrite(range, in: &section, change: change)
    }

    /// Calls `body` with the kernel's output for `range` at this run (its chunk buffers and entry lists), the run's
    /// column tops, the section's inputs and the run's count of inexact heights; then writes the items `body`
    /// placed (up to the index it returns) over the old frames.
    mutating func placeChunk(
        _ range: Range<Int>, in section: inout SectionState, change: SectionChange, scratch: inout PlacementScratch,
        _ body: (
            KernelOutput<ColumnEntries>, UnsafeMutableBufferPointer<Double>, UnsafeBufferPointer<ItemInput>, inout Int
        )
            -> Int
    ) -> Int {
        var lists = self.lists
        self.lists = []
        var columnY = cursor.columnY
        cursor.columnY = []
        var added = 0
        let end = withChunk(range) { ys, heights, columns in
            ColumnEntries.withScratch(
                columnCount: section.geometry.columnCount, items: range.count, scratch: &scratch
            ) { entries in
                let output = KernelOutput(
                    ys: ys, heights: heights, columns: columns, entries: entries, offset: range.lowerBound)
                let end = columnY.withUnsafeMutableBufferPointer { tops in
                    section.inputs.withUnsafeBufferPointer { body(output, tops, $0, &added) }
                }
                var none: [ContiguousArray<Double>]? = nil
                entries.flush(into: &lists, last: false, samples: &none, ys: ys - range.lowerBound)
                return end
            }
        }
        cursor.columnY = columnY
        self.lists = lists
        inexact += added
        overwrite(range.lowerBound..<end, in: &section, change: change)
        return end
    }

    /// Puts the run's entries into the section's index, shifts the frames past convergence, and gives the buffers
    /// back; returns the items whose frame changed.
    mutating func finish(in section: inout SectionState, scratch: inout PlacementScratch) -> [Int32] {
        let count = section.count
        let end = converged?.index ?? count
        section.placedInLastPass = end - start
        section.inexactCount += inexact - oldInexact
        for column in cuts.indices {
            let cutEnd =
                end == count ? section.columnItems[column].count : section.firstEntry(in: column, atOrAfter: end)
            section.columnItems[column].replaceSubrange(cuts[column]..<cutEnd, with: lists[column])
        }
        if let shift = converged?.shift, shift != 0 {
            section.ys.withUnsafeMutableBufferPointer { ys in
                for tail in end..<count { ys[tail] += shift }
            }
            changed.append(contentsOf: (end..<count).lazy.map { Int32(truncatingIfNeeded: $0) })
        }
        section.updateItemsBottom()
        for column in cuts.indices { section.refreshSamples(column: column, fromEntry: cuts[column]) }
        scratch.ys = ys
        scratch.heights = heights
        scratch.columns = columns
        scratch.lists = lists
        scratch.columnY = cursor.columnY
        scratch.cuts = cuts
        let result = changed
        changed = []
        return result
    }

    // MARK: Private

    /// Makes room for `items` more items in the run's lists and in `changed`.
    private mutating func reserve(_ items: Int) {
        changed.reserveCapacity(changed.count + items)
        let share = items / max(1, lists.count) + Self.chunk
        for column in lists.indices { lists[column].reserveCapacity(lists[column].count + share) }
    }

    /// Sizes the chunk buffers to `range` and calls `body` with them (item `range.lowerBound` first).
    private mutating func withChunk<R>(
        _ range: Range<Int>,
        _ body: (UnsafeMutablePointer<Double>, UnsafeMutablePointer<Double>, ColumnOutput) -> R
    ) -> R {
        // Grown, never emptied: the kernel writes every element of the range before anything reads it.
        let n = range.count
        if ys.count < n {
            ys.append(contentsOf: repeatElement(0, count: n - ys.count))
            heights.append(contentsOf: repeatElement(0, count: n - heights.count))
            columns.append(contentsOf: repeatElement(0, count: n - columns.count))
        }
        return ys.withUnsafeMutableBufferPointer { ys in
            heights.withUnsafeMutableBufferPointer { heights in
                columns.withUnsafeMutableBufferPointer { columns in
                    body(ys.baseAddress!, heights.baseAddress!, ColumnOutput(columns.baseAddress!))
                }
            }
        }
    }

    /// Whether placement can stop before `index`: the shift of the old frames from there on, or nil to go on
    /// placing. The rules are `RegionRun.convergence`'s, with the old column tops followed rather than read back.
    private func convergence(in section: SectionState) -> Double? {
        let geometry = section.geometry
        if geometry.usesCursor && oldEnd % geometry.columnCount != cursor.next { return nil }
        let shift = cursor.columnY[0] - oldTops[0]
        for column in cursor.columnY.indices where cursor.columnY[column] != oldTops[column] + shift {
            return nil
        }
        if shift == 0 { return 0 }
        // Stamps stay where they are: frames shifted past them would not be where placement puts them.
        guard geometry.stamps.isEmpty else { return nil }
        let newInexact = section.inexactCount - oldInexact + inexact
        guard newInexact == 0, geometry.isExact, Exactness.isExact(shift),
            section.height + abs(shift) < Exactness.limit,
            oldTops.allSatisfy(Exactness.isExact), cursor.columnY.allSatisfy(Exactness.isExact)
        else { return nil }
        return shift
    }

    /// Compares the chunk's frames (items `range`, from the chunk's first) with the old ones, follows the old column
    /// tops past them, and writes the new frames in their place.
    private mutating func overwrite(_ range: Range<Int>, in section: inout SectionState, change: SectionChange) {
        let c = section.geometry.columnCount
        let spacing = section.geometry.rowSpacing
        let first = index
        // Only the updated items have a previous input, and none lies past the last edit.
        let edited = range.lowerBound < change.lastDirty
        var oldInexact = 0
        var oldEnd = self.oldEnd
        // The chunk's changed items, appended to `changed` at once: an append per item checks uniqueness and room.
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: range.count) { moved in
            var movedCount = 0
            defer { changed.append(contentsOf: UnsafeBufferPointer(rebasing: moved[..<movedCount])) }
            ys.withUnsafeBufferPointer { newYs in
                heights.withUnsafeBufferPointer { newHeights in
                    columns.withUnsafeBufferPointer { newColumns in
                        oldTops.withUnsafeMutableBufferPointer { tops in
                            section.inputs.withUnsafeMutableBufferPointer { inputs in
                                section.ys.withUnsafeMutableBufferPointer { ys in
                                    section.heights.withUnsafeMutableBufferPointer { heights in
                                        for index in range {
                                            let input = inputs[index]
                                            let old = edited ? change.previousInputs[index] ?? input : input
                                            let oldColumn = Int(old.column)
                                            let oldSpan = old.span(in: c)
                                            let oldY = ys[index]
                                            let oldHeight = heights[index]
                                            let bottom = oldY + oldHeight + spacing
                                            for j in oldColumn..<(oldColumn + oldSpan) { tops[j] = bottom }
                                            oldEnd = oldColumn + oldSpan
                                            oldInexact &+= Exactness.isExact(oldHeight) ? 0 : 1
                                            let k = index - first
                                            let y = newYs[k]
                                            let height = newHeights[k]
                                            let column = newColumns[k]
                                            if oldY != y || oldHeight != height || old.column != column
                                                || oldSpan != input.span(in: c)
                                            {
                                                moved[movedCount] = Int32(truncatingIfNeeded: index)
                                                movedCount += 1
                                            }
                                            ys[index] = y
                                            heights[index] = height
                                            inputs[index].column = column
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        self.oldEnd = oldEnd
        self.oldInexact += oldInexact
        index = range.upperBound
    }
}
