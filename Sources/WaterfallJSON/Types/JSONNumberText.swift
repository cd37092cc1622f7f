/// A number's JSON text, formatted once and then copied into many fragments with three word stores, such as a
/// column's x and width in every frame of a reply (formatting a double costs ~10–20 ns; copying this, ~1 ns).
public struct JSONNumberText: Sendable {
    // MARK: Lifecycle

    /// The text `JSONWriter.value(_: Double)` writes for `value`.
    public init(_ value: Double) {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let length = withUnsafeMutableBytes(of: &words) { raw in
            JSONWriter.writeNumber(value, to: raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        self.words = words
        self.length = UInt8(truncatingIfNeeded: length)
    }

    // MARK: Public

    /// How many bytes the text has (at most `JSONWriter.maximumNumberLength`).
    @inlinable
    public var count: Int { Int(length) }

    /// The text's bytes.
    public var bytes: [UInt8] {
        withUnsafeBytes(of: words) { Array($0.prefix(count)) }
    }

    // MARK: Internal

    /// The text in memory order, padded with scratch bytes to 24.
    @usableFromInline let words: (UInt64, UInt64, UInt64)
    @usableFromInline let length: UInt8

    /// Stores all 24 bytes at `p` (the room a number needs anyway); returns how many of them are the text.
    @inlinable @inline(__always)
    func write(to p: UnsafeMutablePointer<UInt8>) -> Int {
        // In memory order, as `init` wrote them.
        let raw = UnsafeMutableRawPointer(p)
        raw.storeBytes(of: words.0, as: UInt64.self)
        raw.storeBytes(of: words.1, toByteOffset: 8, as: UInt64.self)
        raw.storeBytes(of: words.2, toByteOffset: 16, as: UInt64.self)
        return count
    }
}
