import WaterfallModel

/// The compact stored form of an item: its sizing, and the column it was last placed in.
///
/// 24 bytes (stride) instead of `Item`'s 48: the id lives in a separate array that exists only when a section has ids,
/// so a million plain items cost 24 MB here rather than 48 MB. The column sits in what would be padding, which is
/// 2 bytes per item less than an array of its own; it moves with the item through inserts and deletes, so during a
/// change it is the item's old column until the item is placed again.
struct ItemInput: Sendable, Hashable {
    var height: Double
    /// 0 when the item has no aspect size (a valid aspect width is > 0).
    var aspectWidth: Double
    /// 0 means `full`; otherwise the requested span, capped at `UInt16.max` (column counts are at most 1024).
    var span: UInt16
    /// The start column of the item's placement (meaningless before its first); in a stable section, the column it
    /// keeps.
    var column: UInt16 = 0
    /// In a stable section, whether the item has no kept column yet, so that placement chooses one (it sits in what
    /// would be padding; sections with exact reflow never read it).
    var needsColumn = true

    /// The input of an item that is only its height (`Item(height:)`).
    @inline(__always)
    init(height: Double) {
        self.height = height
        aspectWidth = 0
        span = 1
    }

    init(_ item: Item) {
        height = item.height
        aspectWidth = item.aspectWidth ?? 0
        switch item.span {
        case .full: span = 0
        case .columns(let n): span = UInt16(clamping: n)
        }
        if let kept = item.column {
            column = UInt16(clamping: kept)
            needsColumn = false
        }
    }

    /// Whether the item is only its height, `Item(height:)`, as `item(id: nil, keepsColumn:)` reads it.
    @inline(__always)
    func isOnlyHeight(keepsColumn: Bool) -> Bool {
        aspectWidth == 0 && span == 1 && !(keepsColumn && !needsColumn)
    }

    /// The span clamped to `columnCount`.
    @inline(__always)
    func span(in columnCount: Int) -> Int {
        span == 0 ? columnCount : min(Int(span), columnCount)
    }

    /// The input of `item` in a section whose aspect sizes are stored transposed (a horizontal layout's): an aspect
    /// item `{w, h}` is stored as `{h, w}`, so that the vertical kernels size its extent along x as `h`-row × w / h.
    @inline(__always)
    init(_ item: Item, transposed: Bool) {
        self.init(item)
        if transposed { transposeAspect() }
    }

    /// Swaps an aspect item's width and height (a horizontal layout's stored form); other items are unchanged.
    @inline(__always)
    mutating func transposeAspect() {
        guard aspectWidth > 0 else { return }
        (height, aspectWidth) = (aspectWidth, height)
    }

    /// The public form, for reading items back; `keepsColumn` (a stable section) includes the kept column, and
    /// `transposed` undoes a horizontal layout's stored form.
    func item(id: String?, keepsColumn: Bool = false, transposed: Bool = false) -> Item {
        let stored = transposed && aspectWidth > 0
        return Item(
            height: stored ? aspectWidth : height,
            aspectWidth: aspectWidth > 0 ? (stored ? height : aspectWidth) : nil,
            span: span == 0 ? .full : .columns(Int(span)),
            id: id,
            column: keepsColumn && !needsColumn ? Int(column) : nil
        )
    }
}
