import WaterfallModel

extension SectionState {
    /// Places every item of a new section.
    ///
    /// - Complexity: O(n × columns) worst case; O(n) for the usual handful of columns.
    mutating func placeAll(scratch: inout PlacementScratch) {
        let count = inputs.count
        let c = geometry.columnCount
        placedInLastPass = count
        // Reuse the buffers when they fit: a fresh million-item array costs more in page faults than placing it.
        var newYs = Self.reuse(&ys, count: count, zero: 0)
        var newHeights = Self.reuse(&heights, count: count, zero: 0)
        var lists = columnItems
        columnItems = []
        if lists.count != c { lists = Array(repeating: [], count: c) }
        for column in lists.indices {
            lists[column].removeAll(keepingCapacity: true)
            // A large section's columns get their share up front (pages untouched until used); a small section's
            // are sized exactly by the kernel's last flush.
            if count >= 1 << 16 { lists[column].reserveCapacity(count / c) }
        }
        // The samples are taken as the kernel appends each chunk's entries, while those are in cache.
        var samples: [ContiguousArray<Double>]? = columnSamples
        columnSamples = []
        if samples?.count != c { samples = Array(repeating: [], count: c) }
        for column in 0..<c { samples?[column].removeAll(keepingCapacity: true) }
        var cursor = ColumnCursor(columnCount: c, top: geometry.itemsTop)
        let geometry = self.geometry
        var inexact = 0
        inputs.withUnsafeMutableBufferPointer { inputs in
            newYs.withUnsafeMutableBufferPointer { ys in
                newHeights.withUnsafeMutableBufferPointer { heights in
                    guard let y = ys.baseAddress, let h = heights.baseAddress, let items = inputs.baseAddress else {
                        return
                    }
                    // The kernel reads each input and writes its column back into it.
                    inexact = PlacementKernel.placeIndexed(
                        UnsafeBufferPointer(inputs), 0..<count, geometry: geometry, cursor: &cursor, ys: y,
                        heights: h, columns: ColumnOutput(inputs: items), lists: &lists, samples: &samples,
                        exact: true, scratch: &scratch)
                }
            }
        }
        ys = newYs
        heights = newHeights
        columnItems = lists
        columnSamples = samples ?? []
        inexactCount = inexact
        keepColumns(0..<count)
        updateItemsBottom()
    }

    /// Places every item again with the fast kernel (the geometry changed, so nothing can be kept) and compares
    /// each frame with its old one afterwards.
    private mutating func placeAll(comparingWith change: SectionChange, scratch: inout PlacementScratch) -> [Int32] {
        let oldYs = ys
        let oldHeights = heights
        // By new index: each item's input still holds its old column until `placeAll` places it (or, when a stable
        // section chose it earlier in the change, its previous input does).
        let oldColumns = inputs.map(\.column)
        let oldGeometry = change.oldGeometry
        placeAll(scratch: &scratch)
        var walker = IndexMap.Walker(change.map)
        var changed: [Int32] = []
        for index in 0..<count {
            guard let old = walker.oldIndex(of: index), old < oldYs.count else {
                changed.append(Int32(truncatingIfNeeded: index))
                continue
            }
            let previous = change.previousInputs[old]
            let input = previous ?? inputs[index]
            let span = input.span(in: oldGeometry.columnCount)
            let column = Int(previous?.column ?? oldColumns[index])
            let before = oldGeometry.mirrored(
                Rect(
                    x: oldGeometry.columnX(column), y: oldYs[old],
                    width: oldGeometry.itemWidth(column: column, span: span), height: oldHeights[old]))
            if before != localFrame(at: index) { changed.append(Int32(truncatingIfNeeded: index)) }
        }
        return changed
    }

    /// Takes `array` out of the section (so it is uniquely referenced) and sizes it to `count`.
    private static func reuse<T>(_ array: inout ContiguousArray<T>, count: Int, zero: T) -> ContiguousArray<T> {
        var taken = array
        array = []
        if taken.count > count {
            taken.removeSubrange(count...)
        } else if taken.count < count {
            taken.append(contentsOf: repeatElement(zero, count: count - taken.count))
        }
        return taken
    }

    /// Places the section again after `change`, from its first changed item on, and returns the new indices of the
    /// items whose section-local frame changed (ascending).
    ///
    /// Placement restarts from the column state read back at the first changed item. Past the last edit it checks,
    /// every few hundred items (at windows, under lookahead), whether the columns now stand where they stood before the change plus one constant;
    /// from there the old frames hold (shifted by that constant) and placement stops.
    ///
    /// - Complexity: O(re-placed items + columns × log n), plus O(tail) when the tail shifts or indices move.
    mutating func place(after change: SectionChange, scratch: inout PlacementScratch) -> [Int32] {
        let full = !geometry.placesItems(like: change.oldGeometry) || columnItems.count != geometry.columnCount
        placedInLastPass = 0
        guard full || change.itemsChanged else { return [] }
        if full { return placeAll(comparingWith: change, scratch: &scratch) }
        let count = inputs.count
        // Lookahead places windows whole: from the first one the change touches.
        let window = geometry.lookahead.isActive ? geometry.lookahead.items : 1
        let start = min(change.firstDirty, count) / window * window
        // Nothing before the first dirty item moved, so from the old count on the items are all new ones.
        if start == change.oldCount {
            placeAppended(from: start, scratch: &scratch)
            return (start..<count).map { Int32(truncatingIfNeeded: $0) }
        }
        if let frameChanged = updateLastInPlace(change) {
            placedInLastPass = 1
            updateItemsBottom()
            guard frameChanged else { return [] }
            var listed = PlacementScratch.take(&scratch.listed)
            listed.append(Int32(truncatingIfNeeded: start))
            return listed
        }
        if placesInPlace(after: change) { return placeInPlace(from: start, after: change, scratch: &scratch) }
        let delta = count - change.oldCount
        var run = RegionRun(section: self, start: start, scratch: &scratch)
        var converged: (newIndex: Int, shift: Double)?
        // Convergence is checked only past the last edit, where new item i is old item i - delta.
        // Under lookahead only at a window, and only when old and new windows coincide there (the count changed
        // by a multiple of the window).
        var nextCheck = (max(start, change.lastDirty) + window) / window * window
        if delta % window != 0 { nextCheck = Int.max }
        let checkInterval = (max(256, 4 * geometry.columnCount) + window - 1) / window * window
        var index = start
        while index < count {
            if index == nextCheck {
                nextCheck += checkInterval
                if let shift = run.convergence(in: self, at: index, oldIndex: index - delta) {
                    converged = (index, shift)
                    break
                }
            }
            let end = min(count, nextCheck > index ? nextCheck : count)
            run.place(index..<end, in: self, scratch: &scratch)
            index = end
        }
        let end = converged?.newIndex ?? count
        placedInLastPass = end - start
        var changed = run.changedItems(in: self, change: change, into: PlacementScratch.take(&scratch.listed))
        var cuts = PlacementScratch.take(&scratch.cuts)
        splice(run, from: start, to: end, oldEnd: end - delta, cuts: &cuts)
        scratch.reclaim(run)
        if let shift = converged?.shift, shift != 0 {
            ys.withUnsafeMutableBufferPointer { ys in
                for tail in end..<count { ys[tail] += shift }
            }
            changed.append(contentsOf: (end..<count).lazy.map { Int32(truncatingIfNeeded: $0) })
            updateItemsBottom()
        }
        for column in cuts.indices { refreshSamples(column: column, fromEntry: cuts[column]) }
        scratch.cuts = cuts
        return changed
    }

    /// Whether items appended now start a window of their own, so that nothing placed moves: always without
    /// lookahead, and under it when the last window is full.
    var appendStartsWindow: Bool {
        !geometry.lookahead.isActive || count % geometry.lookahead.items == 0
    }

    /// Places items `start...` appended after all the old ones (the feed's usual change), straight into the section's
    /// arrays and index: nothing old moves, so there is nothing to compare, splice or renumber.
    ///
    /// - Complexity: O(appended items + columns × log n).
    mutating func placeAppended(from start: Int, scratch: inout PlacementScratch) {
        let count = inputs.count
        assert(ys.count == start && heights.count == start, "appending to a section whose placement is stale")
        var cursor = cursor(before: start)
        ys.reserveForAppend(count - start)
        ys.append(contentsOf: repeatElement(0, count: count - start))
        heights.reserveForAppend(count - start)
        heights.append(contentsOf: repeatElement(0, count: count - start))
        var lists = columnItems
        columnItems = []
        let geometry = self.geometry
        let added = inputs.withUnsafeMutableBufferPointer { inputs in
            ys.withUnsafeMutableBufferPointer { ys in
                heights.withUnsafeMutableBufferPointer { heights in
                    PlacementKernel.placeIndexed(
                        UnsafeBufferPointer(inputs), start..<count, geometry: geometry, cursor: &cursor,
                        ys: ys.baseAddress!, heights: heights.baseAddress!,
                        columns: ColumnOutput(inputs: inputs.baseAddress!), lists: &lists, scratch: &scratch)
                }
            }
        }
        columnItems = lists
        inexactCount += added
        placedInLastPass = count - start
        keepColumns(start..<count)
        // Old entries keep their samples; only the ones due for the new entries are missing.
        if columnSamples.count == columnItems.count {
            for column in columnItems.indices {
                refreshSamples(column: column, fromEntry: columnSamples[column].count * Self.sampleStride)
            }
        } else {
            refreshSamples()
        }
        updateItemsBottom()
    }

    // MARK: Private

    /// When `change` updated the section's last item and nothing else, keeping its span, in a section that does not
    /// keep columns: sets the item's laid-out height in place and returns whether its frame changed; nil (changing
    /// nothing) for any other change.
    ///
    /// An item's column and y follow from the items before it and its span alone (every placement rule chooses the
    /// column before it reads the height, in a section without stamps), and no item follows the last one, so only its height changes. Placing it
    /// again would take a run of its own, a splice of five arrays and a refresh of every column's samples, for the
    /// commonest update of a feed (its last photo finished loading).
    /// Only the last item: past an item updated in place, the convergence check would read the new height as old.
    ///
    /// - Complexity: O(1).
    private mutating func updateLastInPlace(_ change: SectionChange) -> Bool? {
        let index = change.firstDirty
        let c = geometry.columnCount
        guard change.map.isIdentity, change.lastDirty == index + 1, index == inputs.count - 1, index < heights.count,
            geometry.reflow != .stable, geometry.stamps.isEmpty, !geometry.lookahead.isActive,
            let previous = change.previousInputs[index],
            previous.span(in: c) == inputs[index].span(in: c), previous.column == inputs[index].column
        else { return nil }
        let old = heights[index]
        let height = geometry.itemHeight(inputs[index], column: Int(inputs[index].column))
        heights[index] = height
        inexactCount += (Exactness.isExact(height) ? 0 : 1) - (Exactness.isExact(old) ? 0 : 1)
        return height != old
    }

    /// Replaces the old placement of items `start ..< oldEnd` (old indices) by the run's, and renumbers the rest;
    /// appends to `cuts` (given empty), for each column, the first entry of its index that changed.
    private mutating func splice(_ run: RegionRun, from start: Int, to end: Int, oldEnd: Int, cuts: inout [Int]) {
        let delta = end - oldEnd
        var oldInexact = 0
        for old in start..<oldEnd where !Exactness.isExact(heights[old]) { oldInexact += 1 }
        inexactCount += run.inexact - oldInexact
        ys.replaceSubrange(start..<oldEnd, with: run.ys)
        heights.replaceSubrange(start..<oldEnd, with: run.heights)
        let lists = run.lists
        inputs.withUnsafeMutableBufferPointer { inputs in
            for k in run.columns.indices { inputs[start + k].column = run.columns[k] }
        }
        keepColumns(start..<end)
        for column in 0..<geometry.columnCount {
            let cutStart = firstEntry(in: column, atOrAfter: start)
            cuts.append(cutStart)
            let cutEnd = firstEntry(in: column, atOrAfter: oldEnd)
            columnItems[column].replaceSubrange(cutStart..<cutEnd, with: lists[column])
            guard delta != 0 else { continue }
            let shifted = Int32(truncatingIfNeeded: delta)
            columnItems[column].withUnsafeMutableBufferPointer { list in
                for entry in (cutStart + lists[column].count)..<list.count { list[entry] += shifted }
            }
        }
        updateItemsBottom()
    }
}

/// The new placement of a run of items after a change, built beside the old placement so both can be compared,
/// with the same kernel as a full layout.
private struct RegionRun {
    let start: Int
    var cursor: ColumnCursor
    /// Placement of items `start ..< start + ys.count`.
    var ys: ContiguousArray<Double> = []
    var heights: ContiguousArray<Double> = []
    var columns: ContiguousArray<UInt16> = []
    /// The run's entries of each column's index, as absolute item indices.
    var lists: [ContiguousArray<Int32>]
    var inexact = 0
    /// Old items `start ..< oldScanned` have been counted into `oldInexact`.
    var oldScanned: Int
    var oldInexact = 0
    /// The old placement's column tops at the last convergence check (kept for its storage).
    var oldColumnY: [Double] = []

    /// A run from item `start` on, in buffers taken from `scratch` (`PlacementScratch.reclaim` gives them back).
    init(section: borrowing SectionState, start: Int, scratch: inout PlacementScratch) {
        self.start = start
        cursor = section.cursor(before: start, storage: PlacementScratch.take(&scratch.columnY))
        ys = PlacementScratch.take(&scratch.ys)
        heights = PlacementScratch.take(&scratch.heights)
        columns = PlacementScratch.take(&scratch.columns)
        lists = scratch.takeLists(columnCount: section.geometry.columnCount)
        oldScanned = start
    }

    /// Places items `range` (new indices, continuing the run).
    mutating func place(_ range: Range<Int>, in section: SectionState, scratch: inout PlacementScratch) {
        let offset = ys.count
        if ys.capacity < offset + range.count {
            // A run that outgrows the kept scratch goes on to the section's end unless it converges: room for all of
            // it at once, where doubling would copy the run and fault in fresh pages at every step (capacity never
            // written is never resident).
            let room = max(offset + range.count, section.count - start)
            ys.reserveCapacity(room)
            heights.reserveCapacity(room)
            columns.reserveCapacity(room)
        }
        ys.append(contentsOf: repeatElement(0, count: range.count))
        heights.append(contentsOf: repeatElement(0, count: range.count))
        columns.append(contentsOf: repeatElement(0, count: range.count))
        let shift = start
        // Both taken out while the kernel writes them, so that their storage is not shared and mutates in place.
        var cursor = self.cursor
        self.cursor.columnY = []
        var lists = self.lists
        self.lists = []
        let added = section.inputs.withUnsafeBufferPointer { inputs in
            ys.withUnsafeMutableBufferPointer { ys in
                heights.withUnsafeMutableBufferPointer { heights in
                    columns.withUnsafeMutableBufferPointer { columns in
                        PlacementKernel.placeIndexed(
                            inputs, range, geometry: section.geometry, cursor: &cursor,
                            ys: ys.baseAddress! + offset, heights: heights.baseAddress! + offset,
                            columns: ColumnOutput(columns.baseAddress! + offset), offset: shift + offset,
                            lists: &lists, scratch: &scratch)
                    }
                }
            }
        }
        self.cursor = cursor
        self.lists = lists
        inexact += added
    }

    /// The new indices of the run whose frame differs from their old one (or that are new), ascending.
    func changedItems(in section: SectionState, change: SectionChange, into list: [Int32]) -> [Int32] {
        var walker = IndexMap.Walker(change.map)
        var changed = list
        // Most of a long run moved (a short one converged): one allocation, not one per doubling.
        changed.reserveCapacity(ys.count)
        let c = section.geometry.columnCount
        for k in 0..<ys.count {
            let index = start + k
            guard let old = walker.oldIndex(of: index) else {
                changed.append(Int32(truncatingIfNeeded: index))
                continue
            }
            // The geometry is unchanged here (a changed one places everything with `placeAll(comparingWith:)`), so
            // equal column, y, height and span mean an equal frame.
            let input = section.inputs[index]
            let oldInput = change.previousInputs[old] ?? input
            let same =
                section.ys[old] == ys[k] && section.heights[old] == heights[k] && oldInput.column == columns[k]
                && oldInput.span(in: c) == input.span(in: c)
            if !same { changed.append(Int32(truncatingIfNeeded: index)) }
        }
        return changed
    }

    /// Whether placement can stop before item `index` (old `oldIndex`): the shift of the old frames from there on,
    /// or nil to go on placing.
    ///
    /// A zero shift always holds (the same column state places the same items identically); another shift only when
    /// every value involved is exact, so that shifting gives the bits a full placement would.
    mutating func convergence(in section: SectionState, at index: Int, oldIndex: Int) -> Double? {
        guard oldIndex > 0, oldIndex < section.ys.count else { return nil }
        // Past the last edit, old item `oldIndex - 1` is new item `index - 1`, with the same input and (not placed
        // again yet) the same column.
        let old = section.cursor(
            before: oldIndex, previous: section.inputs[index - 1], storage: PlacementScratch.take(&oldColumnY))
        defer { oldColumnY = old.columnY }
        if section.geometry.usesCursor && old.next != cursor.next { return nil }
        let shift = cursor.columnY[0] - old.columnY[0]
        for column in cursor.columnY.indices where cursor.columnY[column] != old.columnY[column] + shift {
            return nil
        }
        if shift == 0 { return 0 }
        // Stamps stay where they are: frames shifted past them would not be where placement puts them.
        guard section.geometry.stamps.isEmpty else { return nil }
        while oldScanned < oldIndex {
            if !Exactness.isExact(section.heights[oldScanned]) { oldInexact += 1 }
            oldScanned += 1
        }
        let newInexact = section.inexactCount - oldInexact + inexact
        guard newInexact == 0, section.geometry.isExact, Exactness.isExact(shift),
            section.height + abs(shift) < Exactness.limit,
            old.columnY.allSatisfy(Exactness.isExact), cursor.columnY.allSatisfy(Exactness.isExact)
        else { return nil }
        return shift
    }
}

extension PlacementScratch {
    /// Takes back the buffers of a run that is done with.
    fileprivate mutating func reclaim(_ run: RegionRun) {
        ys = run.ys
        heights = run.heights
        columns = run.columns
        lists = run.lists
        columnY = run.cursor.columnY
    }
}
