import WaterfallModel

extension Layout {
    /// Appends `items` (which `quickCheck` passed) after the last item of section `s` and returns the diff.
    ///
    /// What `apply` would do, minus the bookkeeping that only other changes need: nothing before the new items
    /// moves, so there is no index map to keep and nothing to compare or splice, and the sections below only
    /// shift.
    ///
    /// - Complexity: O(appended items + columns × log n + sections below).
    @inline(__always)
    mutating func appendItems(_ items: ItemList, toSection s: Int, listingItems: Bool) -> LayoutDiff {
        let before = metrics[s]
        let start = sections[s].count
        sections[s].insertItems(items, at: start)
        var scratch = takeScratch()
        sections[s].placeAppended(from: start, scratch: &scratch)
        itemCount += items.count
        // Its count changed, so the section has the first entry. It lists no moved item: its new ones are added
        // after `fillItems`, which sets the frames of every entry it is given a listing for.
        let diff = entries(afterChangeTo: s, before: before, listed: [], scratch: &scratch)
        keepScratch(&scratch)
        guard listingItems else { return diff.unfilled }
        var result = diff.total > 0 ? diff.filled(&self) : diff.unfilled
        let origin = origins[s]
        result.sections[0].items = sections.withUnsafeBufferPointer {
            $0[s].itemFrames(start..<(start + items.count), origin: origin)
        }
        return result
    }

    /// Makes one item command that `quickCheck` passed (an insert, a delete or an update in one section) and
    /// returns the diff: the general path minus what only a batch of several commands needs (validation on a
    /// shape, a placement job list, results by section, a pass over every section for the diff), which would be most
    /// of the cost of a one-item update.
    ///
    /// - Complexity: that of placing the section after the change, plus O(sections below).
    @inline(__always)
    mutating func changeItems(
        _ command: LayoutCommand, in s: Int, itemCount newItemCount: Int, listingItems: Bool
    ) -> LayoutDiff {
        let before = metrics[s]
        let change = beginItemsEdit(command, in: s, before: before)
        var scratch = takeScratch()
        let listed = sections[s].place(after: change, scratch: &scratch)
        return finishItemsEdit(
            in: s, before: before, listed: listed, itemCount: newItemCount, scratch: &scratch,
            listingItems: listingItems)
    }

    /// Makes `command` to the inputs of section `s`, whose metrics are `before`, and returns the change to place:
    /// the first stage of `changeItems`, and of the placement of two widths in one pass (`Layout.applyJointly`).
    @inline(__always)
    mutating func beginItemsEdit(_ command: LayoutCommand, in s: Int, before: SectionMetrics) -> SectionChange {
        var change = SectionChange(section: sections[s], metrics: before)
        performItems(command, in: s, &change)
        return change
    }

    /// The last stage of `changeItems` (and of `Layout.applyJointly`), once section `s`, whose metrics were
    /// `before`, re-placed `listed`: the layout's counts, metrics and origins, the scratch kept, and the diff (its
    /// item frames filled when `listingItems`). The seq is the caller's.
    @inline(__always)
    mutating func finishItemsEdit(
        in s: Int, before: SectionMetrics, listed: [Int32], itemCount newItemCount: Int,
        scratch: inout PlacementScratch, listingItems: Bool
    ) -> LayoutDiff {
        itemCount = newItemCount
        let diff = entries(afterChangeTo: s, before: before, listed: listed, scratch: &scratch)
        // Kept while the diff still lists it: the diff is gone before the next change takes it again.
        scratch.keep(listed: listed)
        keepScratch(&scratch)
        guard listingItems && diff.total > 0 else { return diff.unfilled }
        return diff.filled(&self)
    }

    /// The diff entries of a change to section `s` alone, which had `before`'s metrics and re-placed `listed`,
    /// after recording its new metrics and moving the origins below in `updateOrigins`'s order (so that they come
    /// out bit for bit the same).
    mutating func entries(
        afterChangeTo s: Int, before: SectionMetrics, listed: [Int32], scratch: inout PlacementScratch
    ) -> DiffEntries {
        metrics[s] = sections[s].measured()
        lastPlacedCount = sections[s].placedInLastPass
        // The origins move first, in a loop of their own: in one that also built the entries, which read `self`,
        // the compiler copied the whole layout.
        var oldOriginsBelow = PlacementScratch.take(&scratch.origins)
        for k in (s + 1)..<(sections.count + 1) {
            oldOriginsBelow.append(origins[k])
            origins[k] = origins[k - 1] + metrics[k - 1].height
        }
        defer { scratch.origins = oldOriginsBelow }
        return entries(ofSection: s, before: before, listed: listed, oldOriginsBelow: oldOriginsBelow)
    }
}
