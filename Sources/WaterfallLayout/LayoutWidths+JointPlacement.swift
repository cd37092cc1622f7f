import WaterfallModel

/// Placement of two widths in one pass. Where widths cannot share a placement (their items' heights depend on the
/// width, as aspect items' do), an update in the middle of a long section re-places the rest of it at every width.
/// The kernel's loop is bound by the chain from one item's column top to the next, which the two widths run
/// independently: in one loop the chains overlap, each input is read once, and two widths cost little more than
/// one (`PlacementKernel.placeAtTwoWidths`). Widths are paired so, each pair placed by one task, the pairs in
/// parallel; every width's frames stay those of its own placement, since each width keeps its own column heights,
/// sizing and decisions.
extension LayoutWidths {
    /// The widths `placed` (job indices, the first first) grouped into what one task places: pairs when `change`
    /// places widths jointly (`Layout.appliesJointly`), else each alone.
    static func units(of placed: [Int], for change: ValidatedChange) -> [[Int]] {
        guard placed.count > 1, Layout.appliesJointly(change) else { return placed.map { [$0] } }
        return stride(from: 0, to: placed.count, by: 2).map { Array(placed[$0..<min($0 + 2, placed.count)]) }
    }

    /// Applies each of `changes` to its layout of `layouts` (widths of one layout), two jointly when there are two;
    /// returns each width's diff and anchor outcome.
    static func apply(
        _ changes: [ValidatedChange], to layouts: inout [Layout], countsAsChange: Bool, listingItems: [Bool]
    ) async -> [(diff: LayoutDiff, anchor: AnchorOutcome?)] {
        if layouts.count == 2 {
            // Taken out, so that each is uniquely referenced while it changes.
            var first = layouts[0]
            var second = layouts[1]
            layouts = []
            let diffs = Layout.applyJointly(
                &first, &second, changes[0], countsAsChange: countsAsChange,
                listingItems: (listingItems[0], listingItems[1]))
            layouts = [first, second]
            return [(diffs.0, nil), (diffs.1, nil)]
        }
        var outcomes: [(diff: LayoutDiff, anchor: AnchorOutcome?)] = []
        for k in layouts.indices {
            var layout = layouts[k]
            layouts[k] = .empty
            outcomes.append(
                await layout.applyHere(changes[k], countsAsChange: countsAsChange, listingItems: listingItems[k]))
            layouts[k] = layout
        }
        return outcomes
    }
}

extension Layout {
    /// Whether two widths of a layout can apply `change` together (`applyJointly`): updates of items in one section,
    /// without an anchor, the change a feed's items make as they load.
    static func appliesJointly(_ change: ValidatedChange) -> Bool {
        guard change.anchor == nil, change.plainSection != nil, case .updateItems = change.commands[0] else {
            return false
        }
        return true
    }

    /// Applies `change` (see `appliesJointly`) to `first` and `second`, two widths of one layout, as `applyHere`
    /// applies it to each, and returns each width's diff: the section is placed at both widths in one pass where its
    /// settings allow (`SectionState.place(_:_:after:scratch:_:)`).
    static func applyJointly(
        _ first: inout Layout, _ second: inout Layout, _ change: ValidatedChange, countsAsChange: Bool,
        listingItems: (Bool, Bool)
    ) -> (LayoutDiff, LayoutDiff) {
        guard let s = change.plainSection else {
            preconditionFailure("a change that does not apply jointly was applied jointly")
        }
        let command = change.commands[0]
        let before = (first.metrics[s], second.metrics[s])
        let changes = (
            first.beginItemsEdit(command, in: s, before: before.0),
            second.beginItemsEdit(command, in: s, before: before.1)
        )
        var scratch = (first.takeScratch(), second.takeScratch())
        let listed = SectionState.place(
            &first.sections[s], &second.sections[s], after: changes, scratch: &scratch.0, &scratch.1)
        let diffs = (
            first.finishItemsEdit(
                in: s, before: before.0, listed: listed.0, itemCount: change.itemCount, scratch: &scratch.0,
                listingItems: listingItems.0),
            second.finishItemsEdit(
                in: s, before: before.1, listed: listed.1, itemCount: change.itemCount, scratch: &scratch.1,
                listingItems: listingItems.1)
        )
        if countsAsChange {
            first.seq += 1
            second.seq += 1
        }
        return diffs
    }
}

extension SectionState {
    /// `place(after:scratch:)` at two widths of one layout, `first` after `changes.0` and `second` after
    /// `changes.1` (the same edits): where both re-place in place from the same item with the plain
    /// shortest-column loop, in one pass, each chunk placed at both widths at once; else each on its own.
    static func place(
        _ first: inout SectionState, _ second: inout SectionState, after changes: (SectionChange, SectionChange),
        scratch: inout PlacementScratch, _ secondScratch: inout PlacementScratch
    ) -> ([Int32], [Int32]) {
        let c = first.geometry.columnCount
        // Up to 32 columns a chunk's entries fit the kernel's entry lists (`ColumnEntries`) whole.
        guard let start = first.inPlaceStart(after: changes.0), second.inPlaceStart(after: changes.1) == start,
            second.geometry.columnCount == c, c <= ColumnEntries.scratchEntries / InPlaceRun.chunk,
            PlacementKernel.placesPlainly(first.geometry), PlacementKernel.placesPlainly(second.geometry)
        else {
            return (
                first.place(after: changes.0, scratch: &scratch),
                second.place(after: changes.1, scratch: &secondScratch)
            )
        }
        var firstRun = InPlaceRun(section: first, change: changes.0, start: start, scratch: &scratch)
        var secondRun = InPlaceRun(section: second, change: changes.1, start: start, scratch: &secondScratch)
        let geometries = (first.geometry, second.geometry)
        while true {
            let next = (firstRun.nextChunk(in: first), secondRun.nextChunk(in: second))
            // Both runs check convergence at the same items, so while both go on they place the same chunks.
            if let range = next.0, next.1 == range {
                let end = firstRun.placeChunk(range, in: &first, change: changes.0, scratch: &scratch) {
                    firstOutput, firstTops, _, firstInexact in
                    secondRun.placeChunk(range, in: &second, change: changes.1, scratch: &secondScratch) {
                        secondOutput, secondTops, inputs, secondInexact in
                        var inexact = (0, 0)
                        let end = PlacementKernel.placeAtTwoWidths(
                            inputs, range, geometries: geometries, columnY: (firstTops, secondTops),
                            outputs: (firstOutput, secondOutput), inexact: &inexact)
                        firstInexact += inexact.0
                        secondInexact += inexact.1
                        return end
                    }
                }
                // From an item spanning several columns on, each width places the chunk's rest on its own.
                if end < range.upperBound {
                    firstRun.place(end..<range.upperBound, in: &first, change: changes.0, scratch: &scratch)
                    secondRun.place(end..<range.upperBound, in: &second, change: changes.1, scratch: &secondScratch)
                }
                continue
            }
            guard next.0 != nil || next.1 != nil else { break }
            if let range = next.0 { firstRun.place(range, in: &first, change: changes.0, scratch: &scratch) }
            if let range = next.1 { secondRun.place(range, in: &second, change: changes.1, scratch: &secondScratch) }
        }
        return (firstRun.finish(in: &first, scratch: &scratch), secondRun.finish(in: &second, scratch: &secondScratch))
    }

    /// The item from which `place(after:scratch:)` re-places this section in place (`placeInPlace`) after `change`,
    /// when it does; nil when it would not, or when the change reaches the last item (which it may update alone).
    func inPlaceStart(after change: SectionChange) -> Int? {
        guard geometry.placesItems(like: change.oldGeometry), change.itemsChanged, change.lastDirty < count,
            placesInPlace(after: change)
        else { return nil }
        return min(change.firstDirty, count)
    }
}
