import WaterfallModel

/// One section: its items and their placement, in section-local coordinates.
///
/// Frames are stored relative to the section's origin (MagazineLayout does the same), so a change above a section
/// moves its origin without touching its items. Per item this costs 44 bytes: the input with its column (24), the
/// local y (8), the laid-out height (8) and one entry in its column's index (4), plus 1/2 byte of index samples.
struct SectionState: Sendable {
    var properties: SectionProperties
    var geometry: SectionGeometry
    var inputs: ContiguousArray<ItemInput>
    /// Empty while no item of the section has an id; otherwise one entry per item.
    var ids: ContiguousArray<String?>

    /// Local y of each item, by index (valid after placement).
    var ys: ContiguousArray<Double>
    /// Laid-out height of each item.
    var heights: ContiguousArray<Double>
    /// For each column, the indices of the items covering it, ascending (so also by y): the query index.
    var columnItems: [ContiguousArray<Int32>]
    /// For each column, the y of every `sampleStride`-th entry of its index: a small sorted array that a query
    /// searches first, so that only the last few steps of its search touch the big arrays (cache misses dominate
    /// a query on a million items). 8 bytes per 16 entries.
    var columnSamples: [ContiguousArray<Double>]
    /// Local y where the items end (the top of the items area when there are none).
    var itemsBottom: Double
    /// Items whose laid-out height fails `Exactness`.
    var inexactCount: Int
    /// How many items the last placement placed, for `Layout.lastPlacedCount`.
    var placedInLastPass = 0
    /// In a stable section, an index at or after the last item still waiting for its column (`needsColumn`), or -1
    /// when none waits: an edit at or before it must have the columns chosen first (`SectionState+Stable`).
    var lastPending = -1

    // MARK: Lifecycle

    init(properties: SectionProperties, geometry: SectionGeometry, items: [Item]) {
        self.properties = properties
        self.geometry = geometry
        let transposed = geometry.transposesAspect
        inputs = ContiguousArray(items.lazy.map { ItemInput($0, transposed: transposed) })
        ids = items.contains { $0.id != nil } ? ContiguousArray(items.lazy.map(\.id)) : []
        ys = []
        heights = []
        columnItems = []
        columnSamples = []
        itemsBottom = geometry.stampsBottom
        inexactCount = 0
        if geometry.reflow == .stable { lastPending = inputs.lastIndex(where: \.needsColumn) ?? -1 }
    }

    // MARK: Internal

    var count: Int { inputs.count }

    /// The section's height: header block, insets, items, footer block.
    var height: Double { itemsBottom + geometry.insets.bottom + geometry.footerBlock }

    /// Whether every local position is exact, so that adding an exact offset gives the bits a fresh placement would.
    var isExact: Bool {
        inexactCount == 0 && geometry.isExact && height < Exactness.limit
    }

    /// The id of item `index`.
    @inline(__always)
    func id(at index: Int) -> String? {
        ids.isEmpty ? nil : ids[index]
    }

    /// The frame of item `index` relative to the section's origin, mirrored for rtl.
    @inline(__always)
    func localFrame(at index: Int) -> Rect {
        let span = inputs[index].span(in: geometry.columnCount)
        let frame = Rect(
            x: geometry.columnX(Int(inputs[index].column)), y: ys[index],
            width: geometry.itemWidth(column: Int(inputs[index].column), span: span), height: heights[index])
        return geometry.mirrored(frame)
    }

    /// The header's frame relative to the origin, if there is a header.
    var localHeaderFrame: Rect? { geometry.localHeaderFrame }

    /// A pinned header's `pinMaxY` relative to the origin, if the header is pinned.
    var localPinMaxY: Double? { geometry.localPinMaxY(itemsBottom: itemsBottom) }

    /// The footer's frame relative to the origin, if there is a footer.
    var localFooterFrame: Rect? { geometry.localFooterFrame(itemsBottom: itemsBottom) }

    /// Sets the id of item `index`, creating the id array on first use.
    mutating func setID(_ id: String?, at index: Int) {
        if ids.isEmpty {
            guard id != nil else { return }
            ids = ContiguousArray(repeating: nil, count: inputs.count)
        }
        ids[index] = id
    }

    /// The index in `columnItems[column]` of the first entry at or after item `index`.
    ///
    /// - Complexity: O(log n).
    func firstEntry(in column: Int, atOrAfter index: Int) -> Int {
        columnItems[column].withUnsafeBufferPointer { list in
            let target = Int32(truncatingIfNeeded: index)
            // Past the last entry (an append): answered without a search that would touch the whole list.
            if let last = list.last, last < target { return list.count }
            var low = 0
            var high = list.count
            while low < high {
                let mid = (low + high) >> 1
                if list[mid] < target { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    /// The placement state just before item `index`, read back from the column index rather than replayed.
    ///
    /// `previous` is the input of the item before `index` when `inputs` no longer matches the placement arrays;
    /// `storage` is an empty array to hold the column tops in, to spare an allocation.
    ///
    /// - Complexity: O(columns × log n).
    func cursor(before index: Int, previous: ItemInput? = nil, storage: consuming [Double] = []) -> ColumnCursor {
        var cursor = ColumnCursor(columnCount: geometry.columnCount, top: geometry.itemsTop, storage: storage)
        guard index > 0, columnItems.count == geometry.columnCount else { return cursor }
        for column in 0..<geometry.columnCount {
            let entry = firstEntry(in: column, atOrAfter: index)
            if entry > 0 {
                let item = Int(columnItems[column][entry - 1])
                cursor.columnY[column] = ys[item] + heights[item] + geometry.rowSpacing
            }
        }
        let last = index - 1
        let item = previous ?? inputs[last]
        cursor.next = (Int(item.column) + item.span(in: geometry.columnCount)) % geometry.columnCount
        return cursor
    }

    static let sampleStride = 16

    /// Recomputes the samples of `column` from its entry `entry` on (the ones before are unchanged).
    ///
    /// - Complexity: O((entries after `entry`) / 64).
    mutating func refreshSamples(column: Int, fromEntry entry: Int) {
        if columnSamples.count != columnItems.count {
            columnSamples = Array(repeating: [], count: columnItems.count)
            return refreshSamples()
        }
        let stride = Self.sampleStride
        let first = entry / stride
        // Worked on outside the array of columns, so each append is a plain append rather than a nested mutation.
        var samples = columnSamples[column]
        columnSamples[column] = []
        samples.removeSubrange(min(first, samples.count)...)
        columnItems[column].withUnsafeBufferPointer { list in
            ys.withUnsafeBufferPointer { ys in
                guard let ys = ys.baseAddress else { return }
                // Grown geometrically: an exact reserve would copy the whole array for every few appended items.
                let needed = list.count / stride + 1
                if samples.capacity < needed { samples.reserveCapacity(max(needed, 2 * samples.capacity)) }
                Self.appendSamples(&samples, of: list, at: 0, ys: ys)
            }
        }
        columnSamples[column] = samples
    }

    /// Appends to `samples` the y of each entry due for a sample among `entries`, which stand from entry `first`
    /// on in their column's index; `samples` holds every sample before them.
    @inline(__always)
    static func appendSamples(
        _ samples: inout ContiguousArray<Double>, of entries: UnsafeBufferPointer<Int32>, at first: Int,
        ys: UnsafePointer<Double>
    ) {
        var entry = samples.count * sampleStride
        while entry < first + entries.count {
            samples.append(ys[Int(entries[entry - first])])
            entry += sampleStride
        }
    }

    /// Recomputes every column's samples.
    mutating func refreshSamples() {
        if columnSamples.count != columnItems.count {
            columnSamples = Array(repeating: [], count: columnItems.count)
        }
        for column in columnItems.indices { refreshSamples(column: column, fromEntry: 0) }
    }

    /// Recomputes `itemsBottom` from the last item of each column and the stamps.
    ///
    /// - Complexity: O(columns).
    mutating func updateItemsBottom() {
        // A stamp below every item still extends the items area (the Geometry article, "Stamps").
        var bottom = geometry.stampsBottom
        for list in columnItems {
            guard let last = list.last else { continue }
            bottom = max(bottom, ys[Int(last)] + heights[Int(last)])
        }
        itemsBottom = bottom
    }
}
