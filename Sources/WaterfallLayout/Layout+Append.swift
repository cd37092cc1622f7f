extension Layout {
    /// The section and items of `commands` when it is one valid append after the last item of an existing section,
    /// the feed's usual change, which `appendItems` makes without the batch machinery; nil for anything else
    /// (including an invalid append, which the general path then reports).
    func appendOnly(_ commands: [LayoutCommand]) -> (section: Int, items: [Item])? {
        guard case .insertItems(let s, let at, let items) = commands.first, !items.isEmpty,
            quickCheck(commands) != nil, at == metrics[s].count
        else { return nil }
        return (s, items)
    }

    /// Appends `items` after the last item of section `s` and returns the diff.
    ///
    /// What `apply` would do, minus the bookkeeping that only other changes need: nothing before the new items
    /// moves, so there is no index map to keep and nothing to compare or splice, and the sections below only
    /// shift. The origins are recomputed in `updateOrigins`'s order, so that they come out bit for bit the same.
    ///
    /// - Complexity: O(appended items + columns × log n + sections below).
    mutating func appendItems(_ items: [Item], toSection s: Int, listingItems: Bool) async -> LayoutDiff {
        let before = metrics[s]
        let start = sections[s].count
        sections[s].insertItems(items, at: start)
        var scratch = EntryScratch()
        sections[s].placeAppended(from: start, scratch: &scratch)
        scratch.release()
        metrics[s] = SectionMetrics(sections[s])
        itemCount += items.count
        lastPlacedCount = items.count
        let origin = origins[s]
        // Its count changed, so the section has an entry.
        guard let entry = existingEntry(s, before: before, oldOrigin: origin, listed: [])?.entry else {
            preconditionFailure("an append left section \(s) unchanged")
        }
        var entries = [entry]
        // Made only for sections below that move: the appended section's own frames are built apart.
        var listings: [ItemListing] = []
        var total = 0
        for k in (s + 1)..<(sections.count + 1) {
            let oldOrigin = origins[k]
            origins[k] = origins[k - 1] + metrics[k - 1].height
            guard k < sections.count, origins[k] != oldOrigin,
                let (below, listed) = existingEntry(k, before: metrics[k], oldOrigin: oldOrigin, listed: [])
            else { continue }
            if listings.isEmpty { listings = [.some([])] }
            entries.append(below)
            listings.append(.some(listed))
            total += listed.count
        }
        if listingItems {
            // The sections below first: `fillItems` sets every entry it is given a listing for.
            if total > 0 { await fillItems(&entries, listings, total: total) }
            entries[0].items = sections[s].itemFrames(start..<(start + items.count), origin: origin)
        }
        return LayoutDiff(sections: entries)
    }
}
