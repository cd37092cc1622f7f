// MARK: Eisel–Lemire

extension JSONNumber {
    /// The bit pattern (sign clear) of the `Double` nearest `significand × 10^power` (subnormal, zero or infinite as
    /// it may be), or nil where this fast method cannot be sure of the rounding: the exact conversion decides those.
    ///
    /// Eisel and Lemire's method as Nigel Tao describes it for Go's `strconv`: multiply the normalized significand by
    /// the truncated 128-bit significand of 10^power, first by its high word alone, which almost always settles the
    /// 54 bits needed. A truncated factor makes the product fall short of the true one by less than the significand
    /// in units of the product's last word kept; so where adding that much could carry into the kept bits, take the
    /// low word too, and where it still could, or the dropped bits are exactly a tie, give up rather than guess.
    ///
    /// - Precondition: `significand != 0` and `PowersOfFive.minimumPower...maximumPower` contains `power`.
    /// - Complexity: O(1): one or two 64×64-bit multiplications.
    @inline(__always)
    static func eiselLemireBits(_ significand: UInt64, power: Int) -> UInt64? {
        let leadingZeros = significand.leadingZeroBitCount
        let w = significand << UInt64(leadingZeros)
        // ⌊power · log₂ 10⌋ is (217706 · power) >> 16 across the table's range (`PowersOfFiveTests` checks it).
        var exponent = ((217_706 &* power) >> 16) &+ 64 &+ 1023 &- leadingZeros
        let index = 2 &* (power &- PowersOfFive.minimumPower)
        var (high, low) = w.multipliedFullWidth(by: PowersOfFive.significands[index])
        if high & 0x1FF == 0x1FF && low &+ w < w {
            // The low word of the power might carry into the bits kept: take it into account.
            let (nextHigh, nextLow) = w.multipliedFullWidth(by: PowersOfFive.significands[index &+ 1])
            let mergedLow = low &+ nextHigh
            let mergedHigh = mergedLow < low ? high &+ 1 : high
            if mergedHigh & 0x1FF == 0x1FF && mergedLow == .max && nextLow &+ w < w {
                // Undecided: maybe a tie, which a truncated power puts just below its place.
                return dyadicBits(significand, power: power)
            }
            (high, low) = (mergedHigh, mergedLow)
        }
        let topBit = Int(high >> 63)
        var bits = high >> UInt64(9 &+ topBit)
        exponent &-= 1 ^ topBit
        // Below the least normal exponent: fewer bits to keep, so another place to round.
        guard exponent > 0 else { return subnormalBits(w, index: index, exponent: exponent, topBit: topBit) }
        if low == 0 && high & 0x1FF == 0 && bits & 3 == 1 && high & (1 << UInt64(9 &+ topBit) &- 1) == 0 {
            // Every dropped bit is zero and the kept ones end in a lone 1 after an even bit: the product is at a
            // tie (which rounds down, to even) or, the power's significand being truncated, truly just above one.
            // A tie is a dyadic (2m + 1) · 2^k with 2m + 1 ≥ 2^53: for significand × 5^power · 2^power that needs
            // 5^power to divide 2m + 1 < 2^54 (power ≤ 23) or 5^−power to divide the significand (power ≥ −4).
            if power >= 0 && power <= 27 {
                // 5^power fits the table's high word: the product is exact, so this is a tie.
                bits &-= 1
            } else if let exact = dyadicBits(significand, power: power) {
                return exact
            }
            // Otherwise no tie is possible: truly just above one, so round up as usual.
        }
        return roundedBits(bits, exponent)
    }

    // MARK: Private

    /// The bit pattern of a 54-bit significand `bits` (in [2^53, 2^54)) with biased `exponent` > 0, rounded half up
    /// to 53 bits (ties were settled before): infinity past the largest double.
    @inline(__always)
    private static func roundedBits(_ bits: UInt64, _ exponent: Int) -> UInt64 {
        var bits = bits &+ bits & 1
        var exponent = exponent
        bits >>= 1
        if bits >> 53 != 0 {
            bits >>= 1
            exponent &+= 1
        }
        // Rounded (with certainty) to 2^1024 or more: infinity.
        guard exponent < 0x7FF else { return 0x7FF << 52 }
        return UInt64(exponent) << 52 | bits & (1 << 52 &- 1)
    }

    /// The bit pattern of `significand × 10^power` when that is a dyadic number with −4 ≤ `power` < 0 (5^−power
    /// divides the significand), else nil: then it is exactly (significand / 5^−power) · 2^power, one correctly
    /// rounded conversion of an integer and an exact scaling. The only ties below power 0 are such numbers.
    @inline(never)
    private static func dyadicBits(_ significand: UInt64, power: Int) -> UInt64? {
        guard power < 0 && power >= -4 else { return nil }
        let divisor: UInt64 = power == -1 ? 5 : power == -2 ? 25 : power == -3 ? 125 : 625
        guard significand % divisor == 0 else { return nil }
        let value = Double(significand / divisor) * Double(sign: .plus, exponent: power, significand: 1)
        return value.bitPattern
    }

    /// `eiselLemireBits` for a result below the least normal double, whose 54-bit significand would have the biased
    /// `exponent` (≤ 0) and sits in `high >> (9 + topBit)` of the product: the subnormal significand is that value
    /// shifted right by 2 − `exponent` more bits, rounded there; nil where the product cannot tell.
    ///
    /// Out of line: subnormal input is rare, and with both words of the power the product is short of the true
    /// one by less than 2 units of its low word, which bounds the checks.
    @inline(never)
    private static func subnormalBits(_ w: UInt64, index: Int, exponent: Int, topBit: Int) -> UInt64? {
        var (high, low) = w.multipliedFullWidth(by: PowersOfFive.significands[index])
        let (nextHigh, _) = w.multipliedFullWidth(by: PowersOfFive.significands[index + 1])
        let (mergedLow, carry) = low.addingReportingOverflow(nextHigh)
        if carry { high &+= 1 }
        low = mergedLow
        let shift = 9 + topBit + 2 - exponent
        // Below a quarter of the least subnormal even with the error: zero. Near half of it: undecided here.
        if shift >= 66 { return 0 }
        if shift >= 64 { return nil }
        let significand = high >> UInt64(shift)
        let belowMask: UInt64 = 1 << UInt64(shift - 1) - 1
        let below = high & belowMask
        if high >> UInt64(shift - 1) & 1 == 0 {
            // Under half a unit, unless the error could carry the dropped bits up to it.
            if below == belowMask && low >= .max - 1 { return nil }
            return significand
        }
        // Half a unit or more: exactly half rounds to even, and the product cannot tell exactly half from just above.
        if below == 0 && low == 0 && significand & 1 == 0 { return nil }
        // At most 2^52: the least normal double's bits when rounding carries into the implicit bit.
        return significand + 1
    }
}
