import WaterfallModel

/// The columns of a section with `reflow: stable` (Geometry, "Stable reflow").
///
/// Each item keeps the start column it was given when it was inserted: the one the section's rule picks given the
/// items before it at that moment. Placement gives a column to every item still waiting for one (`needsColumn`) as it
/// reaches it, which is that moment as long as nothing before the item changed since it was inserted. When a command
/// of the same change edits at or before a waiting item, the waiting columns are chosen first
/// (`chooseColumns(before:)`), so that a change of several commands, or a journal replayed in runs, gives the columns
/// those commands give one at a time.
extension SectionState {
    /// Chooses the column of every waiting item if an edit at `index` could change what they are given; returns the
    /// inputs it replaced with their new indices (their old columns are what the diff compares against).
    ///
    /// - Complexity: O(index of the last waiting item × columns) when it chooses; O(1) otherwise.
    mutating func chooseColumns(before index: Int) -> [(index: Int, previous: ItemInput)] {
        guard lastPending >= 0, index <= lastPending else { return [] }
        let last = min(lastPending, count - 1)
        lastPending = -1
        guard last >= 0, geometry.reflow == .stable else { return [] }
        var replaced: [(index: Int, previous: ItemInput)] = []
        let c = geometry.columnCount
        let geometry = self.geometry
        var columnY = [Double](repeating: geometry.itemsTop, count: c)
        var tops = [Double](repeating: 0, count: c)
        var next = 0
        inputs.withUnsafeMutableBufferPointer { inputs in
            columnY.withUnsafeMutableBufferPointer { columnY in
                let stamps = geometry.stamps
                for index in 0...last {
                    let input = inputs[index]
                    let span = input.span(in: c)
                    // Stamps go with equal columns only: an item is as tall in every start.
                    let height = geometry.itemHeight(input, column: 0)
                    let (column, y) =
                        geometry.stamps.isEmpty
                        ? ColumnCursor.stableColumn(
                            of: input, span: span, in: UnsafeBufferPointer(columnY), next: &next, geometry: geometry)
                        : stamps.withUnsafeBufferPointer { stamps in
                            tops.withUnsafeMutableBufferPointer { tops in
                                ColumnCursor.chooseAroundStamps(
                                    stamps, of: input, span: span, height: height, in: UnsafeBufferPointer(columnY),
                                    tops: tops, next: &next, geometry: geometry)
                            }
                        }
                    if input.needsColumn {
                        replaced.append((index, input))
                        inputs[index].column = UInt16(truncatingIfNeeded: column)
                        inputs[index].needsColumn = false
                    }
                    let bottom = y + geometry.itemHeight(input, column: column) + geometry.rowSpacing
                    for j in column..<(column + span) { columnY[j] = bottom }
                }
            }
        }
        return replaced
    }

    /// Notes that items `range`, just inserted, may wait for their columns.
    mutating func notePending(_ range: Range<Int>) {
        guard geometry.reflow == .stable, !range.isEmpty else { return }
        lastPending = max(lastPending, range.upperBound - 1)
    }

    /// Makes every item wait for a column again: the section became stable, or its column count or rule changed.
    mutating func resetColumns() {
        inputs.withUnsafeMutableBufferPointer { inputs in
            for k in inputs.indices { inputs[k].needsColumn = true }
        }
        lastPending = count - 1
    }

    /// After placing items `range` of a stable section: they all keep the columns they were placed in.
    mutating func keepColumns(_ range: Range<Int>) {
        guard geometry.reflow == .stable else { return }
        inputs.withUnsafeMutableBufferPointer { inputs in
            for k in range { inputs[k].needsColumn = false }
        }
        lastPending = -1
    }
}
