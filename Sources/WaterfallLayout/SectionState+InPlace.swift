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
        let count = inputs.count
        let c = geometry.columnCount
        var run = InPlaceRun(section: self, start: start, scratch: &scratch)
        var nextCheck = max(start, change.lastDirty) + 1
        let checkInterval = max(256, 4 * c)
        var converged: (index: Int, shift: Double)?
        var changed: [Int32] = []
        var index = start
        var reserved = false
        while index < count {
            if index == nextCheck {
                nextCheck += checkInterval
                if let shift = run.convergence(in: self, at: index) {
                    converged = (index, shift)
                    break
                }
            }
            // A run that goes on past a few checks most likely goes on to the end: room for that at once, where
            // doubling would copy what it holds and fault in fresh pages at every step.
            if !reserved && index - start >= 4 * checkInterval {
                run.reserve(count - start, changed: &changed)
                reserved = true
            }
            let end = min(count, nextCheck, index + InPlaceRun.chunk)
            run.place(index..<end, in: &self, change: change, changed: &changed, scratch: &scratch)
            index = end
        }
        let end = converged?.index ?? count
        placedInLastPass = end - start
        inexactCount += run.inexact - run.oldInexact
        for column in 0..<c {
            let cut = run.cuts[column]
            let cutEnd = end == count ? columnItems[column].count : firstEntry(in: column, atOrAfter: end)
            columnItems[column].replaceSubrange(cut..<cutEnd, with: run.lists[column])
        }
        if let shift = converged?.shift, shift != 0 {
            ys.withUnsafeMutableBufferPointer { ys in
                for tail in end..<count { ys[tail] += shift }
            }
            changed.append(contentsOf: (end..<count).lazy.map { Int32(truncatingIfNeeded: $0) })
        }
        updateItemsBottom()
        for column in 0..<c { refreshSamples(column: column, fromEntry: run.cuts[column]) }
        scratch.reclaim(run)
        return changed
    }
}

/// A re-placement over the old placement (`SectionState.placeInPlace`): the new cursor, the old column tops up to
/// the items it has overwritten, and the run's entries of each column's index.
private struct InPlaceRun {
    /// Items placed at a time: a chunk's buffers stay in cache until it is compared and written.
    static let chunk = PlacementScratch.keptCapacity

    var cursor: ColumnCursor
    /// The old placement's column tops before the first item not yet overwritten, and where the last item
    /// overwritten ended (its column plus its span), whence the column the cursor rule would take next.
    var oldTops: [Double]
    var oldEnd: Int
    /// Per column, the first entry of its index at or after the run's start: where the run's entries go.
    var cuts: [Int]
    /// The run's entries of each column's index, as absolute item indices.
    var lists: [ContiguousArray<Int32>]
    /// A chunk's placement, indexed from the chunk's first item.
    var ys: ContiguousArray<Double>
    var heights: ContiguousArray<Double>
    var columns: ContiguousArray<UInt16>
    /// Inexact laid-out heights among the new frames and among the old frames overwritten.
    var inexact = 0
    var oldInexact = 0

    init(section: borrowing SectionState, start: Int, scratch: inout PlacementScratch) {
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
    }

    /// Places items `range` (continuing the run), appends those whose frame changed to `changed`, and writes their
    /// frames over the old ones.
    mutating func place(
        _ range: Range<Int>, in section: inout SectionState, change: SectionChange, changed: inout [Int32],
        scratch: inout PlacementScratch
    ) {
        let n = range.count
        ys.removeAll(keepingCapacity: true)
        heights.removeAll(keepingCapacity: true)
        columns.removeAll(keepingCapacity: true)
        ys.append(contentsOf: repeatElement(0, count: n))
        heights.append(contentsOf: repeatElement(0, count: n))
        columns.append(contentsOf: repeatElement(0, count: n))
        let geometry = section.geometry
        // Taken out while the kernel writes them, so that their storage is not shared and mutates in place.
        var cursor = self.cursor
        self.cursor.columnY = []
        var lists = self.lists
        self.lists = []
        inexact += section.inputs.withUnsafeBufferPointer { inputs in
            ys.withUnsafeMutableBufferPointer { ys in
                heights.withUnsafeMutableBufferPointer { heights in
                    columns.withUnsafeMutableBufferPointer { columns in
                        PlacementKernel.placeIndexed(
                            inputs, range, geometry: geometry, cursor: &cursor, ys: ys.baseAddress!,
                            heights: heights.baseAddress!, columns: ColumnOutput(columns.baseAddress!),
                            offset: range.lowerBound, lists: &lists, scratch: &scratch)
                    }
                }
            }
        }
        self.cursor = cursor
        self.lists = lists
        overwrite(range, in: &section, change: change, changed: &changed)
    }

    /// Makes room for `items` more items in the run's lists and in `changed`.
    mutating func reserve(_ items: Int, changed: inout [Int32]) {
        changed.reserveCapacity(changed.count + items)
        let share = items / max(1, lists.count) + InPlaceRun.chunk
        for column in lists.indices { lists[column].reserveCapacity(lists[column].count + share) }
    }

    /// Whether placement can stop before item `index`: the shift of the old frames from there on, or nil to go on
    /// placing. The rules are `RegionRun.convergence`'s, with the old column tops followed rather than read back.
    func convergence(in section: SectionState, at index: Int) -> Double? {
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

    // MARK: Private

    /// Compares the chunk's frames (items `range`) with the old ones, follows the old column tops past them, and
    /// writes the new frames in their place.
    private mutating func overwrite(
        _ range: Range<Int>, in section: inout SectionState, change: SectionChange, changed: inout [Int32]
    ) {
        let c = section.geometry.columnCount
        let spacing = section.geometry.rowSpacing
        let first = range.lowerBound
        // Only the updated items have a previous input, and none lies past the last edit.
        let edited = first < change.lastDirty
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
    }
}

extension PlacementScratch {
    /// Takes back the buffers of an in-place run that is done with.
    fileprivate mutating func reclaim(_ run: InPlaceRun) {
        ys = run.ys
        heights = run.heights
        columns = run.columns
        lists = run.lists
        columnY = run.cursor.columnY
        cuts = run.cuts
    }
}
