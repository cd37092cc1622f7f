import WaterfallModel

/// Where the kernel writes each placed item: its y, laid-out height and column at its index (minus an offset), and
/// its entries in the per-column index.
struct KernelOutput<Entries: ColumnEntrySink> {
    private let ys: UnsafeMutablePointer<Double>
    private let heights: UnsafeMutablePointer<Double>
    let columns: ColumnOutput
    let entries: Entries

    /// Item `index` is written at `ys[index - offset]` and `heights[index - offset]`.
    init(
        ys: UnsafeMutablePointer<Double>, heights: UnsafeMutablePointer<Double>, columns: ColumnOutput,
        entries: Entries, offset: Int = 0
    ) {
        // Pointers moved back by the offset are only ever used with indices of the range placed.
        self.ys = ys - offset
        self.heights = heights - offset
        self.columns = columns.shifted(by: offset)
        self.entries = entries
    }

    /// A single-column item.
    @inline(__always)
    func write(_ index: Int, y: Double, height: Double, column: Int) {
        ys[index] = y
        heights[index] = height
        columns.set(index, column)
        entries.append(index, column: column)
    }

    /// An item covering `span` columns from `column` on.
    @inline(__always)
    func write(_ index: Int, y: Double, height: Double, column: Int, span: Int) {
        ys[index] = y
        heights[index] = height
        columns.set(index, column)
        for j in column..<(column + span) { entries.append(index, column: j) }
    }
}

/// Receives each placed item's index once for every column it covers, in placement order (so ascending).
protocol ColumnEntrySink {
    func append(_ index: Int, column: Int)
}

/// For placements whose index is built afterwards.
struct NoColumnEntries: ColumnEntrySink {
    @inline(__always)
    func append(_ index: Int, column: Int) {}
}

/// Per-column scratch lists, each with room for `capacity` entries, that the kernel fills and `flush` appends to
/// the section's index lists: a plain store per entry in the loop, and one bulk append per column and chunk.
struct ColumnEntries: ColumnEntrySink {
    /// Scratch entries in all: 128 KiB, so the lists stay in cache between the kernel and the flush.
    static let scratchEntries = 32_768
    /// Beyond this many columns the chunks would be too short to pay for a flush of every column.
    static let maxColumns = 64

    let capacity: Int
    private let base: UnsafeMutablePointer<Int32>
    private let counts: UnsafeMutablePointer<Int>
    private let columnCount: Int

    /// Calls `body` with scratch lists for `columnCount` columns and chunks of at most `items` items: on the
    /// stack when they are small (a few changed items), else in `scratch`.
    static func withScratch<R>(
        columnCount: Int, items: Int, scratch: inout PlacementScratch, _ body: (ColumnEntries) throws -> R
    ) rethrows -> R {
        let capacity = max(1, min(items, scratchEntries / columnCount))
        guard capacity * columnCount <= 256 else {
            return try scratch.withEntryBuffers(columnCount: columnCount) { base, counts in
                counts.initialize(repeating: 0, count: columnCount)
                return try body(
                    ColumnEntries(capacity: capacity, base: base, counts: counts, columnCount: columnCount))
            }
        }
        return try withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity * columnCount) { base in
            try withUnsafeTemporaryAllocation(of: Int.self, capacity: columnCount) { counts in
                counts.initialize(repeating: 0)
                return try body(
                    ColumnEntries(
                        capacity: capacity, base: base.baseAddress!, counts: counts.baseAddress!,
                        columnCount: columnCount))
            }
        }
    }

    @inline(__always)
    func append(_ index: Int, column: Int) {
        let count = counts[column]
        base[column &* capacity &+ count] = Int32(truncatingIfNeeded: index)
        counts[column] = count &+ 1
    }

    /// Appends each column's entries to `lists[column]` and empties the scratch; `last` (the placement's last chunk)
    /// sizes a list that must grow exactly, rather than doubling it: a small section's index would otherwise keep
    /// up to half its capacity unused, in heap pages that count.
    ///
    /// With `samples`, also appends the y (from `ys`, by item index) of every entry due for a sample: the entries
    /// are in cache here, where a later pass would gather them from all over the index.
    func flush(
        into lists: inout [ContiguousArray<Int32>], last: Bool, samples: inout [ContiguousArray<Double>]?,
        ys: UnsafePointer<Double>
    ) {
        let stride = SectionState.sampleStride
        for column in 0..<columnCount where counts[column] > 0 {
            let before = lists[column].count
            let entries = UnsafeBufferPointer(start: base + column * capacity, count: counts[column])
            let needed = before + entries.count
            if last && lists[column].capacity < needed {
                lists[column].reserveCapacity(needed)
            } else {
                lists[column].reserveForAppend(entries.count)
            }
            lists[column].append(contentsOf: entries)
            counts[column] = 0
            guard samples != nil else { continue }
            if last { samples?[column].reserveCapacity((needed + stride - 1) / stride) }
            SectionState.appendSamples(&samples![column], of: entries, at: before, ys: ys)
        }
    }
}

/// Where the kernel writes each item's column: a plain `UInt16` buffer, or the `column` field of the inputs
/// themselves (a strided write into the line just read, cheaper than a separate array).
struct ColumnOutput {
    private let base: UnsafeMutableRawPointer
    private let stride: Int

    /// Columns written to `buffer[index]`.
    init(_ buffer: UnsafeMutablePointer<UInt16>) {
        base = UnsafeMutableRawPointer(buffer)
        stride = MemoryLayout<UInt16>.stride
    }

    /// Columns written to `inputs[index].column`.
    init(inputs: UnsafeMutablePointer<ItemInput>) {
        base = UnsafeMutableRawPointer(inputs) + MemoryLayout<ItemInput>.offset(of: \.column)!
        stride = MemoryLayout<ItemInput>.stride
    }

    private init(base: UnsafeMutableRawPointer, stride: Int) {
        self.base = base
        self.stride = stride
    }

    /// The same output, indexed `offset` lower (only ever used inside the range it was made for).
    func shifted(by offset: Int) -> ColumnOutput { ColumnOutput(base: base - offset * stride, stride: stride) }

    @inline(__always)
    func set(_ index: Int, _ column: Int) {
        base.storeBytes(of: UInt16(truncatingIfNeeded: column), toByteOffset: index * stride, as: UInt16.self)
    }

    @inline(__always)
    func get(_ index: Int) -> Int {
        Int(base.load(fromByteOffset: index * stride, as: UInt16.self))
    }
}
