/// Conversions of validated JSON number bytes to `Int64` and `Double`.
@usableFromInline
internal enum JSONNumber {
    // MARK: Internal

    /// The longest integer text (sign included) that `shortInteger` reads: 18 digits stay below 10^18 < 2^63.
    @inlinable static var shortIntegerLength: Int { 18 }

    /// The longest integer text (sign included) whose value a `Double` holds exactly: 15 digits stay below 2^53.
    @inlinable static var exactIntegerLength: Int { 15 }

    /// The value of a validated integer-grammar number of at most `shortIntegerLength` bytes at `p`.
    ///
    /// Inlined into the accessors because request fields are mostly such numbers (`"section":0`, `"h":120`),
    /// and the call to `int64(_:)` with its range checks cost more than the digits.
    @inlinable
    static func shortInteger(_ p: UnsafePointer<UInt8>, length: Int) -> Int64 {
        let isNegative = p[0] == UInt8(ascii: "-")
        var i = isNegative ? 1 : 0
        var magnitude: Int64 = 0
        while i < length {
            magnitude = magnitude &* 10 &+ Int64(p[i] &- UInt8(ascii: "0"))
            i &+= 1
        }
        return isNegative ? 0 &- magnitude : magnitude
    }

    /// The exact value of an integer-grammar number (no fraction, no exponent), or nil outside Int64.
    @usableFromInline
    static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let p = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let isNegative = p[0] == UInt8(ascii: "-")
        let first = isNegative ? 1 : 0
        let digits = bytes.count - first
        guard digits > 0 && digits <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for k in first..<bytes.count {
            // 19 digits fit in UInt64 (max 18_446_744_073_709_551_615 has 20), so this cannot overflow.
            magnitude = magnitude &* 10 &+ UInt64(p[k] &- UInt8(ascii: "0"))
        }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The correctly rounded `Double` nearest a validated JSON number (±infinity if beyond range), bit for bit
    /// what `Double(String)` gives, without allocating.
    ///
    /// One pass reads the digits into a `UInt64` (a fraction eight at a time) and the power of ten that scales
    /// them; past 19 significant digits, `firstNineteenDigits` reads the number again and keeps the first 19. Then,
    /// cheapest first: Clinger's fast path, when the digits and 10^|power| are both exact doubles, so one IEEE
    /// operation rounds correctly; Eisel–Lemire (`eiselLemireBits`: subnormals, infinity and ties included), which
    /// settles all but a sliver of the rest with one or two multiplications, and settles a number cut at 19 digits
    /// when the digits and the digits plus one round alike (fast_float's test); and for what remains (a cut number
    /// whose two bounds round apart, a product that 128 bits leave undecided) the exact decimal conversion of
    /// `BigDecimal` in a stack buffer.
    ///
    /// - Complexity: O(n) in the number's length; the exact conversion adds a bounded amount of work.
    @usableFromInline
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
        guard let p = bytes.baseAddress, !bytes.isEmpty else { return .nan }
        let count = bytes.count
        let isNegative = p[0] == UInt8(ascii: "-")
        let digitsStart = isNegative ? 1 : 0
        var i = digitsStart
        // Wrapping: past 19 digits the value is read again.
        var significand: UInt64 = 0
        accumulateDigits(p, at: &i, end: count, into: &significand)
        var digitCount = i &- digitsStart
        var scale = 0
        if i < count && p[i] == UInt8(ascii: ".") {
            i &+= 1
            let fractionStart = i
            // Eight digits at a time: a 17-digit double's fraction is most of its length.
            accumulateEightDigitChunks(p, at: &i, end: count, into: &significand)
            accumulateDigits(p, at: &i, end: count, into: &significand)
            scale = fractionStart &- i
            digitCount &+= i &- fractionStart
        }
        var exponent = 0
        if i < count {
            // An exponent: [eE][+-]?digits.
            i &+= 1
            let isNegativeExponent = p[i] == UInt8(ascii: "-")
            if isNegativeExponent || p[i] == UInt8(ascii: "+") { i &+= 1 }
            while i < count {
                // Saturate far beyond any power that matters, and beyond any input's length, so that
                // `scale + exponent` can neither overflow nor bring a saturated exponent back into range.
                if exponent < 1 << 40 { exponent = exponent &* 10 &+ Int(p[i] &- UInt8(ascii: "0")) }
                i &+= 1
            }
            if isNegativeExponent { exponent = -exponent }
        }
        var isTruncated = false
        if digitCount > 19 {
            // Leading zeros (`0.000…`) count in `digitCount` but not in the value; beyond them, keep 19 digits.
            (significand, scale, isTruncated) = firstNineteenDigits(p, from: digitsStart, count: count)
        }
        let power = scale &+ exponent
        let sign: UInt64 = isNegative ? 1 << 63 : 0
        if significand == 0 { return Double(bitPattern: sign) }
        if !isTruncated && significand <= 1 << 53 && power >= -22 && power <= 22 {
            let value =
                power < 0 ? Double(significand) / powersOfTen[-power] : Double(significand) * powersOfTen[power]
            return isNegative ? -value : value
        }
        let bits: UInt64
        if power < PowersOfFive.minimumPower {
            bits = 0
        } else if power > PowersOfFive.maximumPower {
            bits = 0x7FF << 52
        } else if let fast = eiselLemireBits(significand, power: power),
            !isTruncated || eiselLemireBits(significand &+ 1, power: power) == fast
        {
            bits = fast
        } else {
            bits = exactBits(bytes)
        }
        return Double(bitPattern: sign | bits)
    }

    // MARK: Private

    /// 10^0 ... 10^22, every one exactly representable in a `Double`.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Reads the digits from `p[i]` on into `significand` (wrapping past 19 of them), leaving `i` after them.
    @inline(__always)
    static func accumulateDigits(
        _ p: UnsafePointer<UInt8>, at i: inout Int, end: Int, into significand: inout UInt64
    ) {
        while i < end {
            let digit = p[i] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            significand = significand &* 10 &+ UInt64(digit)
            i &+= 1
        }
    }

    /// `accumulateDigits` eight at a time, while eight bytes are left and all are digits; the rest is left to it.
    @inline(__always)
    static func accumulateEightDigitChunks(
        _ p: UnsafePointer<UInt8>, at i: inout Int, end: Int, into significand: inout UInt64
    ) {
        while end &- i >= 8 {
            let chunk = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
            guard isEightDigits(chunk) else { break }
            significand = significand &* 100_000_000 &+ valueOfEightDigits(chunk)
            i &+= 8
        }
    }

    /// `accumulateDigits` for the fewer than eight digits left after `accumulateEightDigitChunks`, in one step and
    /// without a branch per digit (whose mispredicted exit cost more than the digits): the digits among the eight
    /// bytes at `p[i]` end at the lowest of their `nonDigitFlags`, move to the top of the word (the bytes below
    /// become leading zeros) and are combined as eight.
    ///
    /// Reads eight bytes at `p[i]`, past `end` when fewer are left: `p` must have that many readable bytes
    /// (`JSONStorage.padding`); bytes at `end` and after are never taken as digits.
    @inline(__always)
    static func accumulateDigitTail(
        _ p: UnsafePointer<UInt8>, at i: inout Int, end: Int, into significand: inout UInt64
    ) {
        let chunk = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
        let count = min(nonDigitFlags(chunk).trailingZeroBitCount >> 3, end &- i)
        let digits = (chunk &- 0x3030_3030_3030_3030) << UInt64(64 &- 8 &* count)
        significand = significand &* eightDigitScales[count] &+ valueOfEightDigitValues(digits)
        i &+= count
    }

    /// 10^k for k digits, 0 through 8.
    private static let eightDigitScales: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
    ]

    /// Whether the eight bytes of `chunk` (first byte lowest) are all ASCII digits.
    @inline(__always)
    private static func isEightDigits(_ chunk: UInt64) -> Bool {
        nonDigitFlags(chunk) == 0
    }

    /// The high bit of each byte of `chunk` that is not an ASCII digit, as set by adding 0x46 (which carries bytes
    /// above `9` past 0x7F) or subtracting 0x30 (which borrows below `0`). A carry or borrow only moves up from a
    /// byte that is not a digit, so the lowest flag is exact (it marks the first byte that is not a digit); flags
    /// above it may be spurious.
    @inline(__always)
    private static func nonDigitFlags(_ chunk: UInt64) -> UInt64 {
        // Parenthesized: `|` has the precedence of `&+` and `&-` in Swift, so without them this would
        // read `((chunk + 0x46…) | chunk) - 0x30…`, which lets bytes below "0" (space, comma, tab) pass for digits.
        ((chunk &+ 0x4646_4646_4646_4646) | (chunk &- 0x3030_3030_3030_3030)) & 0x8080_8080_8080_8080
    }

    /// The value of eight ASCII digits, the first in the lowest byte: pairs, then fours, then all eight combined
    /// by three multiplications (fast_float's `parse_eight_digits_unrolled`).
    @inline(__always)
    private static func valueOfEightDigits(_ chunk: UInt64) -> UInt64 {
        valueOfEightDigitValues(chunk &- 0x3030_3030_3030_3030)
    }

    /// `valueOfEightDigits` of bytes that are already digit values (0 through 9).
    @inline(__always)
    private static func valueOfEightDigitValues(_ digits: UInt64) -> UInt64 {
        var value = digits
        value = value &* 10 &+ value >> 8
        let mask: UInt64 = 0x0000_00FF_0000_00FF
        let pairs = (value & mask) &* (100 &+ 1_000_000 << 32)
        let quads = (value >> 16 & mask) &* (1 &+ 10_000 << 32)
        return (pairs &+ quads) >> 32
    }

    /// The first 19 significant digits of the validated number whose digits start at `p[start]`, the power of
    /// ten that scales them, and whether a nonzero digit follows them: the slow, careful reading for long texts.
    private static func firstNineteenDigits(
        _ p: UnsafePointer<UInt8>, from start: Int, count: Int
    ) -> (significand: UInt64, scale: Int, isTruncated: Bool) {
        var significand: UInt64 = 0
        var significantDigits = 0
        var scale = 0
        var isTruncated = false
        var sawPoint = false
        var i = start
        while i < count {
            let digit = p[i] &- UInt8(ascii: "0")
            if digit < 10 {
                if significantDigits < 19 {
                    // Leading zeros leave the significand zero and are not counted.
                    significand = significand &* 10 &+ UInt64(digit)
                    if significand != 0 { significantDigits &+= 1 }
                    if sawPoint { scale &-= 1 }
                } else {
                    if !sawPoint { scale &+= 1 }
                    if digit != 0 { isTruncated = true }
                }
            } else if p[i] == UInt8(ascii: ".") {
                sawPoint = true
            } else {
                break
            }
            i &+= 1
        }
        return (significand, scale, isTruncated)
    }

    /// The bit pattern (sign clear) of the `Double` nearest `bytes` by exact decimal arithmetic, in a buffer on
    /// the stack: for the few numbers the fast paths cannot settle, kept out of line so they stay small.
    @inline(never)
    private static func exactBits(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: BigDecimal.capacity) { buffer in
            guard let digits = buffer.baseAddress else { return 0 }
            var decimal = BigDecimal(digits: digits, parsing: bytes)
            return decimal.nearestDoubleBits()
        }
    }
}
