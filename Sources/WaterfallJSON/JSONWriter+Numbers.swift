// MARK: Numbers at a pointer

// Numbers are written straight into the reserved room, eight digits at a time: a block below 10^8 is split into
// its eight decimal digits with three multiply-and-mask steps on one 64-bit word (two 4-digit halves, four
// 2-digit pairs, eight digits, in parallel lanes), then stored with one unaligned 8-byte store. Its leading zeros
// are shifted out by their count (a `trailingZeroBitCount`), and a significand's trailing zeros are counted the same
// way, so no digit costs a division. A two-digit table takes over where one pair is all there is (integers below
// 100, the exponent). The price: a writer may leave scratch bytes past the text it returns, within
// `maximumNumberLength` of where it started; callers reserve that room anyway and write over them.

extension JSONWriter {
    /// The most bytes `writeInteger` and `writeNumber` write, and the room they need: they may leave scratch bytes
    /// past the text they return, never past this many from where they start.
    @usableFromInline static let maximumNumberLength = 24

    /// Writes the decimal digits of `value` at `p`; returns how many (at most 20). Touches at most 20 bytes.
    @inlinable
    static func writeInteger(_ value: Int64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if value < 0 {
            p[0] = UInt8(ascii: "-")
            return 1 + writeDigits(value.magnitude, to: p + 1)
        }
        return writeDigits(UInt64(value), to: p)
    }

    /// Writes `value` at `p` as `value(_: Double)` does: integral values below 2^53 as integers, others in the
    /// shortest form that reads back the same; returns how many bytes (at most 24).
    @inlinable
    static func writeNumber(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        // Truncated through `Int64` (exact below 2^53), not `rounded(.towardZero)`: a call to libm's `trunc` on the
        // x86-64 baseline.
        if value.magnitude < 9_007_199_254_740_992, Double(Int64(value)) == value, value != 0 || value.sign == .plus {
            return writeInteger(Int64(value), to: p)
        }
        return writeDouble(value, to: p)
    }

    /// Writes `value` at `p` exactly as Swift's `description` does, without a `String`: the shortest digits that read
    /// back to it (`ShortestDecimal`), laid out as "172.5", "0.0001", "1e-05", "120.0", "9007199254740992.0",
    /// "1e+16", "-0.0" (all valid JSON); `null` for NaN and infinity. Returns how many bytes (at most 24).
    @usableFromInline
    static func writeDouble(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        guard value.isFinite else {
            assertionFailure("NaN or infinity cannot be written as JSON")
            for (k, byte) in "null".utf8.enumerated() { p[k] = byte }
            return 4
        }
        var start = 0
        if value.sign == .minus {
            p[0] = UInt8(ascii: "-")
            start = 1
        }
        let magnitude = value.magnitude
        guard magnitude != 0 else {
            p[start] = UInt8(ascii: "0")
            p[start + 1] = UInt8(ascii: ".")
            p[start + 2] = UInt8(ascii: "0")
            return start + 3
        }
        let decimal = ShortestDecimal(magnitude)
        let count = Self.digitCount(decimal.significand)
        // The power of ten of the first digit: value = d.ddd × 10^e.
        let e = decimal.exponent + count - 1
        // Swift's layout: exponential below 10^-4 and above 2^53 (where not every integer is a double), else plain.
        if e < -4 || magnitude > 9_007_199_254_740_992 {
            return start + writeExponential(decimal.significand, count: count, exponent: e, to: p + start)
        }
        if e < 0 {
            // "0.", up to three zeros, the digits: the digits overwrite the zeros they do not need.
            storeWord(0x3030_3030_3030_2E30, to: p + start)
            let length = writeSignificand(decimal.significand, count: count, to: p + start + 1 - e)
            return start + 1 - e + length
        }
        // Written one place to the right, the integer part then moves left over a gap for the point. Below 2^53 it
        // has at most 16 digits, all in the significand (its exponent is at most 0 there).
        let length = writeSignificand(decimal.significand, count: count, to: p + start + 1)
        for k in start...(start + e) { p[k] = p[k + 1] }
        p[start + e + 1] = UInt8(ascii: ".")
        if e + 1 < length { return start + 1 + length }
        // Integral: Swift ends it in ".0".
        p[start + e + 2] = UInt8(ascii: "0")
        return start + e + 3
    }

    // MARK: Digits

    /// Writes the decimal digits of `n` at `p`, without leading zeros; returns how many (1 to 20). Touches at most
    /// max(8, that many) bytes.
    @inlinable @inline(__always)
    static func writeDigits(_ n: UInt64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if n < 100 {
            if n < 10 {
                p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n)
                return 1
            }
            let pairs: StaticString = Self.digitPairs
            let pair = pairs.utf8Start + 2 &* Int(truncatingIfNeeded: n)
            p[0] = pair[0]
            p[1] = pair[1]
            return 2
        }
        if n < 100_000_000 {
            return writeLeadingBlock(UInt32(truncatingIfNeeded: n), to: p)
        }
        if n < 10_000_000_000_000_000 {
            let high = n / 100_000_000
            let count = writeLeadingBlock(UInt32(truncatingIfNeeded: high), to: p)
            storeWord(digitLanes(UInt32(truncatingIfNeeded: n &- high &* 100_000_000)) | asciiZeros, to: p + count)
            return count + 8
        }
        let high = n / 10_000_000_000_000_000
        let rest = n &- high &* 10_000_000_000_000_000
        let middle = rest / 100_000_000
        let count = writeLeadingBlock(UInt32(truncatingIfNeeded: high), to: p)
        storeWord(digitLanes(UInt32(truncatingIfNeeded: middle)) | asciiZeros, to: p + count)
        storeWord(digitLanes(UInt32(truncatingIfNeeded: rest &- middle &* 100_000_000)) | asciiZeros, to: p + count + 8)
        return count + 16
    }

    /// Writes `n` (1 ..< 10^8) without leading zeros at `p`; returns how many digits. Touches 8 bytes.
    @inlinable @inline(__always)
    static func writeLeadingBlock(_ n: UInt32, to p: UnsafeMutablePointer<UInt8>) -> Int {
        let lanes = digitLanes(n)
        // The leading zeros are the low lanes that are 0.
        let skip = lanes.trailingZeroBitCount & ~7
        storeWord((lanes | asciiZeros) >> UInt64(truncatingIfNeeded: skip), to: p)
        return 8 &- skip >> 3
    }

    /// The eight decimal digits of `n` (below 10^8, leading zeros included), one a byte, the first in the lowest
    /// byte (Paul Khuong's split: 4 + 4 digits, then 2-digit pairs, then digits, each lane at once).
    @inlinable @inline(__always)
    static func digitLanes(_ n: UInt32) -> UInt64 {
        let high = n / 10_000
        let fours = UInt64(truncatingIfNeeded: high) | UInt64(truncatingIfNeeded: n &- high &* 10_000) << 32
        // x / 100 as x · 10486 / 2^20, exact below 10^4; x / 10 as x · 103 / 2^10, exact below 100.
        let hundreds = ((fours &* 10_486) >> 20) & 0x0000_007F_0000_007F
        let pairs = hundreds | (fours &- hundreds &* 100) << 16
        let tens = ((pairs &* 103) >> 10) & 0x000F_000F_000F_000F
        return tens | (pairs &- tens &* 10) << 8
    }

    /// Stores the eight bytes of `word` at `p`, its lowest byte first, unaligned.
    @inlinable @inline(__always)
    static func storeWord(_ word: UInt64, to p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: word.littleEndian, as: UInt64.self)
    }

    /// "0" in every byte: turns digit lanes into text.
    @inlinable
    static var asciiZeros: UInt64 { 0x3030_3030_3030_3030 }

    /// "00" to "99", two bytes each.
    @inlinable
    static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748\
        49505152535455565758596061626364656667686970717273747576777879808182838485868788899091929394959697\
        9899
        """
    }

    // MARK: Private

    /// How many digits `n` (1 ..< 10^17) has. Every normal double's significand has 16 or 17.
    @inline(__always)
    private static func digitCount(_ n: UInt64) -> Int {
        if n >= 10_000_000_000_000_000 { return 17 }
        if n >= 1_000_000_000_000_000 { return 16 }
        var count = 1
        var rest = n
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }

    /// Writes the `count` digits of `f` (below 10^17) at `p`; returns how many are left once its trailing zeros are
    /// dropped (they stay written: the layout needs them for integral values). Touches max(8, count) bytes.
    @inline(__always)
    private static func writeSignificand(_ f: UInt64, count: Int, to p: UnsafeMutablePointer<UInt8>) -> Int {
        if count <= 8 {
            let lanes = digitLanes(UInt32(truncatingIfNeeded: f))
            let shift = UInt64(truncatingIfNeeded: 64 &- 8 &* count)
            storeWord((lanes | asciiZeros) >> shift, to: p)
            // Zero lanes above the digits: the shifted-in ones, then the trailing zeros.
            return 8 &- (lanes >> shift).leadingZeroBitCount >> 3
        }
        let high = f / 100_000_000
        let low = digitLanes(UInt32(truncatingIfNeeded: f &- high &* 100_000_000))
        let head: UInt64
        let headCount: Int
        let headEnd: Int
        if count <= 16 {
            head = digitLanes(UInt32(truncatingIfNeeded: high)) >> UInt64(truncatingIfNeeded: 128 &- 8 &* count)
            storeWord(head | (asciiZeros >> UInt64(truncatingIfNeeded: 128 &- 8 &* count)), to: p)
            headCount = count &- 8
            headEnd = 8
        } else {
            let first = high / 100_000_000
            p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: first)
            head = digitLanes(UInt32(truncatingIfNeeded: high &- first &* 100_000_000))
            storeWord(head | asciiZeros, to: p + 1)
            headCount = 9
            headEnd = 9
        }
        storeWord(low | asciiZeros, to: p + headCount)
        if low != 0 { return count &- low.leadingZeroBitCount >> 3 }
        // All of `low` is zeros: what is left of the head (an empty head lane word counts as the first digit alone).
        return headEnd &- head.leadingZeroBitCount >> 3
    }

    /// Writes `f`'s `count` digits as "d.ddde+XX" at `p` (Swift's form: no point after a single digit, at least two
    /// exponent digits); returns how many bytes.
    private static func writeExponential(
        _ f: UInt64, count: Int, exponent e: Int, to p: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let length = writeSignificand(f, count: count, to: p + 1)
        p[0] = p[1]
        var end = 1
        if length > 1 {
            p[1] = UInt8(ascii: ".")
            end = 1 + length
        }
        p[end] = UInt8(ascii: "e")
        p[end + 1] = e < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
        end += 2
        var magnitude = e.magnitude
        if magnitude >= 100 {
            p[end] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / 100)
            magnitude %= 100
            end += 1
        }
        let pairs: StaticString = Self.digitPairs
        let pair = pairs.utf8Start + 2 &* Int(truncatingIfNeeded: magnitude)
        p[end] = pair[0]
        p[end + 1] = pair[1]
        return end + 2
    }
}
