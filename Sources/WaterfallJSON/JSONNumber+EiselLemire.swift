// MARK: Eisel–Lemire

extension JSONNumber {
    /// The bit pattern (sign clear) of the `Double` nearest `significand × 10^power`, or nil where this fast method
    /// cannot be sure of the rounding, or the result is subnormal or infinite: the exact conversion decides those.
    ///
    /// Eisel and Lemire's method as Nigel Tao describes it for Go's `strconv`: multiply the normalized significand by
    /// the truncated 128-bit significand of 10^power (first by its high word alone, which almost always settles the
    /// 54 bits needed); the product is known to lie within one unit of its last word, so when that unit could carry
    /// into the kept bits, or the dropped bits are exactly a tie, give up rather than guess.
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
            if mergedHigh & 0x1FF == 0x1FF && mergedLow == .max && nextLow &+ w < w { return nil }
            (high, low) = (mergedHigh, mergedLow)
        }
        let topBit = Int(high >> 63)
        var bits = high >> UInt64(9 &+ topBit)
        exponent &-= 1 ^ topBit
        // The dropped bits are all zero and the kept ones end in a lone 1 after an even bit: maybe a tie to even,
        // maybe just above one; 128 bits cannot tell.
        if low == 0 && high & 0x1FF == 0 && bits & 3 == 1 { return nil }
        bits &+= bits & 1
        bits >>= 1
        if bits >> 53 != 0 {
            bits >>= 1
            exponent &+= 1
        }
        guard exponent > 0 && exponent < 0x7FF else { return nil }
        return UInt64(exponent) << 52 | bits & (1 << 52 &- 1)
    }
}
