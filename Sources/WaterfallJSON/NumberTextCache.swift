/// The text of recently written numbers, by bit pattern, so that a value written again and again is copied rather
/// than formatted again.
///
/// Frames repeat their x and w: every item of a column has the same two, and a 17-digit double takes a shortest-digits
/// search to format but three word copies to repeat. Sixteen slots, chosen by a multiplicative hash of the bits,
/// hold a layout's columns and the widths of its spans; a collision only costs a formatting. The slots live on the
/// stack for one `withCache` call, so a reply's frames share them without an allocation.
@_spi(Package) public struct NumberTextCache {
    /// `slotCount` slots of four words: the number's bits, then up to 24 bytes of its text.
    @usableFromInline let words: UnsafeMutablePointer<UInt64>
    /// The length of each slot's text.
    @usableFromInline let lengths: UnsafeMutablePointer<UInt8>

    @usableFromInline static var slotCount: Int { 16 }

    /// No finite double has this pattern (a NaN's), so it marks an empty slot; NaN is never written as a number.
    @usableFromInline static var empty: UInt64 { 0x7FF8_0000_0000_0DAD }

    @usableFromInline
    init(words: UnsafeMutablePointer<UInt64>, lengths: UnsafeMutablePointer<UInt8>) {
        self.words = words
        self.lengths = lengths
    }

    /// Calls `body` with an empty cache that lives until it returns.
    @inlinable
    public static func withCache<Result>(_ body: (NumberTextCache) throws -> Result) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 4 * slotCount) { words in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: slotCount) { lengths in
                markEmpty(words.baseAddress!)
                return try body(NumberTextCache(words: words.baseAddress!, lengths: lengths.baseAddress!))
            }
        }
    }

    /// Marks every slot of `words` (`4 * slotCount` words) empty; a slot's other words and its length are read only
    /// once it is filled.
    @usableFromInline @inline(__always)
    static func markEmpty(_ words: UnsafeMutablePointer<UInt64>) {
        for slot in 0..<slotCount { words[4 * slot] = empty }
    }

    /// Writes `value` at `p` as `JSONWriter.writeNumber` does, from the cache when it holds it; returns the length.
    ///
    /// Like `writeNumber`, it may use all of `JSONWriter.maximumNumberLength` bytes at `p` (a hit stores 24 bytes,
    /// of which the text is the first ones).
    @inlinable @inline(__always)
    func write(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        let bits = value.bitPattern
        let slot = Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 60)
        let entry = words + 4 * slot
        let raw = UnsafeMutableRawPointer(p)
        if entry[0] == bits {
            raw.storeBytes(of: entry[1], as: UInt64.self)
            raw.storeBytes(of: entry[2], toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: entry[3], toByteOffset: 16, as: UInt64.self)
            return Int(lengths[slot])
        }
        let length = JSONWriter.writeNumber(value, to: p)
        guard length <= 24 else { return length }
        entry[0] = bits
        entry[1] = raw.loadUnaligned(as: UInt64.self)
        entry[2] = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        entry[3] = raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        lengths[slot] = UInt8(truncatingIfNeeded: length)
        return length
    }
}

/// A `NumberTextCache` that lasts from one reply to the next: its slots are allocated once, with the object.
///
/// A pipelining client's one-item updates list one frame per reply, and its x and width (17 digits, such as
/// 673.3333333333334) are the same reply after reply: a cache that lives for one reply's items would never see
/// them twice, and would format both every time. Only one writer may use it at a time: a session sets it on the writer of
/// its replies (`JSONWriter.numberTexts`), which one task at a time fills.
@_spi(Package) public final class LastingNumberTextCache: @unchecked Sendable {
    private let words: UnsafeMutablePointer<UInt64>
    private let lengths: UnsafeMutablePointer<UInt8>

    public init() {
        words = .allocate(capacity: 4 * NumberTextCache.slotCount)
        lengths = .allocate(capacity: NumberTextCache.slotCount)
        NumberTextCache.markEmpty(words)
    }

    deinit {
        words.deallocate()
        lengths.deallocate()
    }

    /// The cache, for the writes of one call.
    @usableFromInline var cache: NumberTextCache { NumberTextCache(words: words, lengths: lengths) }
}

extension NumberTextCache {
    /// Calls `body` with `lasting`'s slots, or with an empty cache for this call when there is none.
    @inlinable
    public static func with<Result>(
        _ lasting: LastingNumberTextCache?, _ body: (NumberTextCache) throws -> Result
    ) rethrows -> Result {
        if let lasting { return try body(lasting.cache) }
        return try withCache(body)
    }
}

extension JSONFragment {
    /// Writes a number as `number(_:)` does, through `cache`: for values that repeat, such as a column's x.
    @inlinable @inline(__always)
    public mutating func number(_ value: Double, cache: NumberTextCache) {
        count += cache.write(value, to: start + count)
    }
}
