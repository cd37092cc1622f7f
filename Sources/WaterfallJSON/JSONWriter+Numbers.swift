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
        let decimal = ShortestDecimal(exactlyShort: magnitude) ?? ShortestDecimal(magnitude)
        let count = Self.digitCount(decimal.significand)
        // The power of ten of the first digit: value = d.ddd × 10^e.
        let e = decimal.exponent + count - 1
        let digits = SignificandText(decimal.significand, count: count)
        // Swift's layout: exponential below 10^-4 and above 2^53 (where not every integer is a double), else plain.
        if e < -4 || magnitude > 9_007_199_254_740_992 {
            return start + writeExponential(digits, exponent: e, to: p + start)
        }
        if e < 0 {
            // "0.", up to three zeros, the digits: the digits overwrite the zeros they do not need.
            storeWord(0x3030_3030_3030_2E30, to: p + start)
            digits.write(to: p + start + 1 - e)
            return start + 1 - e + digits.length
        }
        // The integer part, the point, the rest. Below 2^53 the integer part has at most 16 digits, all of them in
        // the significand (its exponent is at most 0 there).
        digits.write(to: p + start, pointAfter: e + 1)
        if e + 1 < digits.length { return start + 1 + digits.length }
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
        storeWord((lanes | asciiZeros) &>> UInt64(truncatingIfNeeded: skip), to: p)
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

    /// How many digits `n` (1 ..< 10^17) has. Every normal double's shortest significand has 16 or 17 before its
    /// trailing zeros are dropped, unless it is exactly short (`ShortestDecimal(exactlyShort:)`).
    @inline(__always)
    private static func digitCount(_ n: UInt64) -> Int {
        if n >= 10_000_000_000_000_000 { return 17 }
        if n >= 1_000_000_000_000_000 { return 16 }
        // ⌊log10 2⌋ · bit width, too small by at most one.
        let estimate = ((64 &- n.leadingZeroBitCount) &* 1_233) >> 12
        return n >= powersOfTen[estimate] ? estimate &+ 1 : estimate
    }

    /// 10^0 to 10^16.
    private static let powersOfTen: InlineArray<17, UInt64> = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000, 10_000_000_000,
        100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
        10_000_000_000_000_000,
    ]

    /// Writes `digits` as "d.ddde+XX" at `p` (Swift's form: no point after a single digit, at least two exponent
    /// digits), the exponent being `e`; returns how many bytes.
    private static func writeExponential(
        _ digits: SignificandText, exponent e: Int, to p: UnsafeMutablePointer<UInt8>
    ) -> Int {
        var end = 1
        if digits.length > 1 {
            digits.write(to: p, pointAfter: 1)
            end = 1 + digits.length
        } else {
            digits.write(to: p)
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

/// A significand's digits as text in three words, the first digit in the lowest byte: written with a few word
/// stores, and a decimal point put in between the integer and fraction digits in registers, not in memory (reading
/// back the digits just stored, across two stores, stalls on store forwarding).
private struct SignificandText {
    // MARK: Lifecycle

    /// The `count` digits of `f` (1 ..< 10^17, `count` from `digitCount`).
    @inline(__always)
    init(_ f: UInt64, count: Int) {
        let zeros = JSONWriter.asciiZeros
        if count >= 16 {
            // Every normal double's significand: written as 17 digits, the first of them 0 for 16, and then moved
            // down a byte by selects, not branches (which of the two lengths a value has is as random as its bits).
            let first = f / 10_000_000_000_000_000
            let high = f / 100_000_000
            let head = JSONWriter.digitLanes(UInt32(truncatingIfNeeded: high &- first &* 100_000_000))
            let low = JSONWriter.digitLanes(UInt32(truncatingIfNeeded: f &- high &* 100_000_000))
            let headText = head | zeros
            let lowText = low | zeros
            let long = (0x30 &+ first | headText &<< 8, headText >> 56 | lowText &<< 8, lowText >> 56)
            words = count == 16 ? (headText, lowText, 0) : long
            // Trailing zeros: in `low` if it has a nonzero digit, else all of it and some of the head.
            length = count &- (low != 0 ? low.leadingZeroBitCount >> 3 : 8 &+ head.leadingZeroBitCount >> 3)
            return
        }
        if count <= 8 {
            let lanes =
                JSONWriter.digitLanes(UInt32(truncatingIfNeeded: f)) &>> UInt64(truncatingIfNeeded: 64 &- 8 &* count)
            words = (lanes | zeros &>> UInt64(truncatingIfNeeded: 64 &- 8 &* count), 0, 0)
            // Zero lanes above the digits: the shifted-in ones, then the trailing zeros.
            length = 8 &- lanes.leadingZeroBitCount >> 3
            return
        }
        // 9 to 15 digits (exactly short values, subnormals): the first count - 8, then eight.
        let high = f / 100_000_000
        let low = JSONWriter.digitLanes(UInt32(truncatingIfNeeded: f &- high &* 100_000_000))
        let lowText = low | zeros
        let headBits = UInt64(truncatingIfNeeded: 8 &* (count &- 8))
        let head = JSONWriter.digitLanes(UInt32(truncatingIfNeeded: high)) &>> (64 &- headBits)
        words = (head | zeros &>> (64 &- headBits) | lowText &<< headBits, lowText &>> (64 &- headBits), 0)
        length = low != 0 ? count &- low.leadingZeroBitCount >> 3 : 8 &- head.leadingZeroBitCount >> 3
    }

    // MARK: Internal

    /// Bytes 0–7, 8–15 and 16 of the text; unused bytes are scratch.
    let words: (UInt64, UInt64, UInt64)
    /// How many digits are left once the trailing zeros are dropped (they stay in the text: the layout of an
    /// integral value needs them).
    let length: Int

    /// Stores the digits at `p`. Touches 17 bytes.
    @inline(__always)
    func write(to p: UnsafeMutablePointer<UInt8>) {
        JSONWriter.storeWord(words.0, to: p)
        JSONWriter.storeWord(words.1, to: p + 8)
        p[16] = UInt8(truncatingIfNeeded: words.2)
    }

    /// Stores the first `integerDigits` digits (1...17) at `p`, then a point, then the other digits. Touches 18 bytes.
    @inline(__always)
    func write(to p: UnsafeMutablePointer<UInt8>, pointAfter integerDigits: Int) {
        guard integerDigits <= 7 else {
            // Seven integer digits and more (a layout 10^7 points tall): moved in memory, byte by byte.
            write(to: p + 1)
            for k in 0..<integerDigits { p[k] = p[k + 1] }
            p[integerDigits] = UInt8(ascii: ".")
            return
        }
        let integerBits = UInt64(truncatingIfNeeded: 8 &* integerDigits)
        let integerMask = UInt64.max &>> (64 &- integerBits)
        let point = UInt64(UInt8(ascii: ".")) &<< integerBits
        let fraction = (words.0 &<< 8) & ~(integerMask &<< 8 | 0xFF)
        JSONWriter.storeWord((words.0 & integerMask) | point | fraction, to: p)
        JSONWriter.storeWord(words.1 &<< 8 | words.0 >> 56, to: p + 8)
        UnsafeMutableRawPointer(p + 16).storeBytes(
            of: UInt16(truncatingIfNeeded: words.2 &<< 8 | words.1 >> 56).littleEndian, as: UInt16.self)
    }
}
