import WaterfallLayout

/// Incremental changes against a full serial relayout of the same layout.
///
/// Each change is timed on its own with `Layout.apply` on a layout built once; changes that would accumulate are
/// undone by the next one (insert then delete, height A then B), so every sample sees the same layout.
enum IncrementalBenchmark {
    static func run(items: Int, sections: Int, sectionItems: Int, changes: Int, runs: Int, table: inout Table) async {
        guard var big = await BenchLayouts.make(sections: 1, items: items) else {
            table.add("incremental", "could not build the layout")
            return
        }
        let full = await Measure.median(runs: runs) { await big.placeEverything() }
        table.add("full relayout, 1 section × \(items) items, serial", Format.seconds(full))
        let middle = items / 2

        var appended = 0
        let append = await time(&big, changes) { _ in
            appended += 1
            return .insertItems(section: 0, at: items + appended - 1, items: [Item(height: 120)])
        }
        report("append 1 item", append, full, target: (1e-4, "1/10,000"), items: items, &table)
        _ = try? await big.validateAndApply([.deleteItems(section: 0, indices: Array(items..<(items + appended)))])

        let update = await time(&big, changes) { k in
            .updateItems(section: 0, updates: [ItemUpdate(index: middle, item: Item(height: k % 2 == 0 ? 333 : 77))])
        }
        report("update the middle item's height", update, full, target: nil, items: items, &table)

        var inserts = Samples(capacity: changes)
        var deletes = Samples(capacity: changes)
        var placedByInsert = 0
        var placedByDelete = 0
        var warmUp = changes / 10
        let deadline = nanoseconds() + budget
        for k in 0..<(changes + warmUp) where k < warmUp + 10 || nanoseconds() < deadline {
            let start = nanoseconds()
            _ = try? await big.validateAndApply([.insertItems(section: 0, at: middle, items: [Item(height: 150)])])
            let inserted = nanoseconds()
            placedByInsert = big.lastPlacedCount
            _ = try? await big.validateAndApply([.deleteItems(section: 0, indices: [middle])])
            let deleted = nanoseconds()
            placedByDelete = big.lastPlacedCount
            if k == 0 && deleted - start > 2_000_000 { warmUp = 1 }
            guard k >= warmUp else { continue }
            inserts.append(Double(inserted - start) / 1e9)
            deletes.append(Double(deleted - inserted) / 1e9)
        }
        report("insert 1 item in the middle", (inserts.median, placedByInsert), full, target: nil, items: items, &table)
        report("delete 1 item in the middle", (deletes.median, placedByDelete), full, target: nil, items: items, &table)

        guard var many = await BenchLayouts.make(sections: sections, items: sectionItems) else { return }
        let fullMany = await Measure.median(runs: runs) { await many.placeEverything() }
        table.add("full relayout, \(sections) sections × \(sectionItems) items, serial", Format.seconds(fullMany))
        let section0 = await time(&many, changes) { k in
            .updateItems(
                section: 0, updates: [ItemUpdate(index: sectionItems / 2, item: Item(height: k % 2 == 0 ? 333 : 77))])
        }
        report(
            "change section 0 of \(sections) (update 1 height)", section0, fullMany, target: (1e-2, "1/100"),
            items: sections * sectionItems, &table)
    }

    /// How long one kind of change is repeated at most (at least 10 samples are taken): a change that re-places
    /// half a million items is slow, and a thousand of them would stretch the run to minutes.
    private static let budget: UInt64 = 2_000_000_000

    /// The median time of `count` changes made by `command(k)` after a tenth as many untimed (fewer when they
    /// exceed `budget`), and the number of items the last one re-placed.
    private static func time(
        _ layout: inout Layout, _ count: Int, _ command: (Int) -> LayoutCommand
    ) async -> (seconds: Double, placed: Int) {
        var samples = Samples(capacity: count)
        var warmUp = count / 10
        let deadline = nanoseconds() + budget
        for k in 0..<(warmUp + count) where k < warmUp + 10 || nanoseconds() < deadline {
            let change = command(k)
            let start = nanoseconds()
            _ = try? await layout.validateAndApply([change])
            let elapsed = Double(nanoseconds() - start) / 1e9
            // A slow change needs little warming up, and a tenth of the count of them would blow the budget.
            if k == 0 && elapsed > 1e-3 { warmUp = 1 }
            if k >= warmUp { samples.append(elapsed) }
        }
        return (samples.median, layout.lastPlacedCount)
    }

    private static func report(
        _ name: String, _ result: (seconds: Double, placed: Int), _ full: Double, target: (Double, String)?, items: Int,
        _ table: inout Table
    ) {
        let ratio = result.seconds / full
        table.add(
            "\(name), \(items) items",
            "\(Format.seconds(result.seconds)) per change, re-placed \(result.placed) items",
            "\(Format.ratio(ratio)) of full",
            target.map { "≤ \($0.1) of full: \(ratio <= $0.0 ? "met" : "not met")" } ?? "")
    }
}
