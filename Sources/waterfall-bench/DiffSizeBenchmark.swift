@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// Bytes on the wire for small changes to large layouts.
enum DiffSizeBenchmark {
    static func run(items: Int, sections: Int, sectionItems: Int, table: inout Table) async {
        if var big = await BenchLayouts.make(sections: 1, items: items),
            let diff = try? await big.validateAndApply([.insertItems(section: 0, at: items, items: [Item(height: 120)])]
            )
        {
            report("append 1 item to 1 section × \(items) items", diff, &table)
        }
        if var many = await BenchLayouts.make(sections: sections, items: sectionItems) {
            let update = ItemUpdate(index: sectionItems / 2, item: Item(height: 333))
            if let diff = try? await many.validateAndApply([.updateItems(section: 0, updates: [update])]) {
                report("change section 0 of \(sections) × \(sectionItems) (1 height)", diff, &table)
            }
        }
    }

    /// The size of the diff alone and of the whole reply line that carries it.
    private static func report(_ name: String, _ diff: LayoutDiff, _ table: inout Table) {
        var w = JSONWriter(capacity: 4096)
        ReplyEncoding.diff(diff, &w)
        let diffBytes = w.byteCount
        let encoded = Array(w.bytes)
        var line = JSONWriter(capacity: 4096)
        ReplyEncoding.result(&line, id: .int(123_456)) { w in
            ReplyEncoding.mutation(
                &w, seq: 1_000, contentSize: Size(width: 1000, height: 1e8), encodedDiff: encoded[...])
        }
        let items = diff.sections.reduce(0) { $0 + $1.items.count }
        table.add(
            "diff size, \(name)",
            "\(diffBytes) bytes of diff, \(line.byteCount) bytes per reply line",
            "\(diff.sections.count) sections, \(items) item frames listed")
    }
}
