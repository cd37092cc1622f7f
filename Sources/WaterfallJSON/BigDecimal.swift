/// A decimal `0.d₁d₂…dₙ × 10^decimalPoint` of up to `capacity` digits in a caller's buffer, with a flag for nonzero
/// digits dropped past it: the exact conversion for the numbers Eisel–Lemire cannot round with certainty.
///
/// The "simple decimal conversion" of Go's old `strconv` and of Wuffs: shift the decimal by powers of two, exactly,
/// until it lies in [1/2, 1), then shift in 53 bits and round the integer part. Why it is exact with truncated
/// digits: every midpoint between adjacent doubles has at most 767 significant digits, so the first `inputDigits`
/// digits of the number and whether any later digit is nonzero place it against every midpoint as the whole number
/// would; the working precision, 100 digits beyond that, keeps the error of the shifts' own truncations far below
/// the gap of at least one unit in the 800th digit between such a prefix and a midpoint. (Go kept 800 digits for
/// both: some 20 truncating shifts at about 10^−799 each could then add up to more than such a gap.)
///
/// - Complexity: O(n) to read n digits; then at most about 25 shifts of at most `capacity` digits each, whatever
///   the input (a decimal point beyond ±330 is zero or infinity before any shift).
struct BigDecimal {
    // MARK: Lifecycle

    /// The decimal of the validated JSON number `bytes` (its sign ignored), in `digits`, which holds `capacity`.
    init(digits: UnsafeMutablePointer<UInt8>, parsing bytes: UnsafeBufferPointer<UInt8>) {
        self.digits = digits
        let end = bytes.count
        var i = bytes.first == UInt8(ascii: "-") ? 1 : 0
        var sawPoint = false
        while i < end {
            let byte = bytes[i]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                if count == 0 && digit == 0 {
                    // A leading zero: only a fraction's moves the point.
                    if sawPoint { decimalPoint -= 1 }
                } else {
                    if !sawPoint { decimalPoint += 1 }
                    if count < Self.inputDigits {
                        digits[count] = digit
                        count += 1
                    } else if digit != 0 {
                        isTruncated = true
                    }
                }
            } else if byte == UInt8(ascii: ".") {
                sawPoint = true
            } else {
                break
            }
            i += 1
        }
        if i < end {
            // An exponent: [eE][+-]?digits, saturated far beyond any power that matters (and any input's length).
            i += 1
            let isNegative = bytes[i] == UInt8(ascii: "-")
            if isNegative || bytes[i] == UInt8(ascii: "+") { i += 1 }
            var exponent = 0
            while i < end {
                if exponent < 1 << 40 { exponent = exponent * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            decimalPoint += isNegative ? -exponent : exponent
        }
        trimTrailingZeros()
    }

    // MARK: Internal

    /// The digits kept of the input: more than the 767 of the longest midpoint between adjacent doubles.
    static let inputDigits = 800

    /// The digits kept while shifting: what the buffer passed to `init` must hold.
    static let capacity = 900

    /// The bit pattern (sign clear) of the `Double` nearest this decimal, rounding ties to even; consumes the value.
    mutating func nearestDoubleBits() -> UInt64 {
        let infinity: UInt64 = 0x7FF << 52
        // Below 10^-330 is below half the least subnormal; 10^310 is beyond the largest finite double.
        guard count > 0 && decimalPoint >= -330 else { return 0 }
        guard decimalPoint <= 310 else { return infinity }
        var exponent = 0
        while decimalPoint > 0 {
            let shift = Self.shift(forDecades: decimalPoint)
            shiftRight(by: shift)
            exponent += shift
        }
        while decimalPoint < 0 || (decimalPoint == 0 && digits[0] < 5) {
            let shift = decimalPoint == 0 ? (digits[0] < 2 ? 2 : 1) : Self.shift(forDecades: -decimalPoint)
            shiftLeft(by: shift)
            exponent -= shift
        }
        // In [1/2, 1) now, and a double's significand is in [1, 2).
        exponent -= 1
        if exponent < -1022 {
            // Subnormal: fewer significand bits, so shift the value down to the least normal exponent.
            var remaining = -1022 - exponent
            while remaining > 0 {
                let shift = min(remaining, Self.maximumShift)
                shiftRight(by: shift)
                remaining -= shift
            }
            exponent = -1022
        }
        guard exponent + 1023 < 0x7FF else { return infinity }
        shiftLeft(by: 53)
        var significand = roundedInteger()
        if significand == 1 << 53 {
            // Rounding carried into a 54th bit.
            significand >>= 1
            exponent += 1
            guard exponent + 1023 < 0x7FF else { return infinity }
        }
        let biased = significand & (1 << 52) == 0 ? 0 : UInt64(exponent + 1023)
        return biased << 52 | significand & (1 << 52 - 1)
    }

    // MARK: Private

    /// The largest shift at once: a digit shifted in stays below 10 · 2^60 < 2^64.
    private static let maximumShift = 60

    /// The most digits `digits` holds.
    private let digits: UnsafeMutablePointer<UInt8>

    /// How many of `digits` are in use; no trailing zeros.
    private var count = 0

    /// The power of ten of the decimal point: the value is `0.digits × 10^decimalPoint`.
    private var decimalPoint = 0

    /// Whether nonzero digits were dropped past `count`: the value is then slightly above `0.digits`.
    private var isTruncated = false

    /// The largest shift k with 2^k ≤ 10^decades (so a value below 10^decades shifted by k stays below 1).
    private static func shift(forDecades decades: Int) -> Int {
        decades < decadeShifts.count ? decadeShifts[decades] : maximumShift
    }

    /// `shift(forDecades:)` below 19 decades: ⌊decades · log₂ 10⌋.
    private static let decadeShifts = [0, 3, 6, 9, 13, 16, 19, 23, 26, 29, 33, 36, 39, 43, 46, 49, 53, 56, 59]

    /// Divides the value by 2^shift, keeping at most `capacity` digits.
    private mutating func shiftRight(by shift: Int) {
        var read = 0
        var write = 0
        var n: UInt64 = 0
        // Enough leading digits for the quotient to start with a nonzero digit.
        while n >> UInt64(shift) == 0 {
            if read < count {
                n = n * 10 + UInt64(digits[read])
                read += 1
            } else if n == 0 {
                return
            } else {
                while n >> UInt64(shift) == 0 {
                    n *= 10
                    read += 1
                }
                break
            }
        }
        decimalPoint -= read - 1
        let mask: UInt64 = 1 << UInt64(shift) - 1
        while read < count {
            // Writes stay behind reads, so the digits can be rewritten in place.
            digits[write] = UInt8(truncatingIfNeeded: n >> UInt64(shift))
            write += 1
            n = (n & mask) * 10 + UInt64(digits[read])
            read += 1
        }
        while n > 0 {
            let digit = UInt8(truncatingIfNeeded: n >> UInt64(shift))
            n &= mask
            if write < Self.capacity {
                digits[write] = digit
                write += 1
            } else if digit != 0 {
                isTruncated = true
            }
            n *= 10
        }
        count = write
        trimTrailingZeros()
    }

    /// Multiplies the value by 2^shift, keeping at most `capacity` digits.
    private mutating func shiftLeft(by shift: Int) {
        // The product has as many new digits as 2^shift has digits, or one fewer: write as if it had that many,
        // from the last digit up, then close the gap at the front if there is one.
        var added = 1
        var power: UInt64 = 1 << UInt64(shift)
        while power >= 10 {
            power /= 10
            added += 1
        }
        var read = count - 1
        var write = read + added
        var n: UInt64 = 0
        while read >= 0 {
            n += UInt64(digits[read]) << UInt64(shift)
            let quotient = n / 10
            let digit = UInt8(truncatingIfNeeded: n - quotient * 10)
            if write < Self.capacity {
                digits[write] = digit
            } else if digit != 0 {
                isTruncated = true
            }
            n = quotient
            write -= 1
            read -= 1
        }
        while n > 0 {
            let quotient = n / 10
            digits[write] = UInt8(truncatingIfNeeded: n - quotient * 10)
            n = quotient
            write -= 1
        }
        var newCount = min(count + added, Self.capacity)
        if write == 0 {
            // One digit fewer than 2^shift has: the front position was never written.
            for k in 1..<newCount { digits[k - 1] = digits[k] }
            newCount -= 1
            added -= 1
        }
        assert(write <= 0, "left shift wrote more digits than 2^shift has")
        count = newCount
        decimalPoint += added
        trimTrailingZeros()
    }

    /// The integer part of the value, rounded to nearest by its fraction, ties to even.
    private func roundedInteger() -> UInt64 {
        var n: UInt64 = 0
        var i = 0
        while i < decimalPoint && i < count {
            n = n * 10 + UInt64(digits[i])
            i += 1
        }
        while i < decimalPoint {
            n *= 10
            i += 1
        }
        guard decimalPoint >= 0 && decimalPoint < count else { return n }
        let first = digits[decimalPoint]
        let roundsUp =
            first == 5 && decimalPoint + 1 == count
            ? isTruncated || (decimalPoint > 0 && digits[decimalPoint - 1] & 1 == 1) : first >= 5
        return roundsUp ? n + 1 : n
    }

    /// Drops zeros at the end of the digits, so a lone trailing 5 means an exact half.
    private mutating func trimTrailingZeros() {
        while count > 0 && digits[count - 1] == 0 { count -= 1 }
    }
}
