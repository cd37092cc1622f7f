import Testing

@testable import WaterfallJSON

/// The generated table of `ShortestDecimal`, recomputed with exact integer arithmetic, and its decimals on values
/// whose digits are known.
@Suite struct ShortestDecimalTests {
    @Test func powersOfTenAreExact() {
        let table = ShortestDecimal.powersOfTen
        #expect(table.count == 2 * 617)
        for k in -324...292 {
            // beta = 10^-k · 2^(125 - ⌊log2 10^-k⌋), in [2^125, 2^126); the table holds ⌊beta⌋ + 1.
            var beta: Natural
            if k <= 0 {
                let power = Natural(powerOfTen: -k)
                let shift = 125 - (power.bitWidth - 1)
                beta = shift >= 0 ? power.shiftedLeft(shift) : power.shiftedRight(-shift)
            } else {
                // 10^-k < 1 is no power of two, so ⌊log2 10^-k⌋ = -(bit width of 10^k).
                beta = Natural(one: ()).shiftedLeft(125 + Natural(powerOfTen: k).bitWidth)
                for _ in 0..<k { beta.divide(by: 10) }
            }
            #expect(beta.bitWidth == 126, "k = \(k)")
            beta.add(1)
            let g1 = beta.shiftedRight(63).low64
            let g0 = beta.low64 & (1 << 63 - 1)
            let index = 2 * (k + 324)
            #expect(table[index] == g1 && table[index + 1] == g0, "k = \(k)")
        }
    }

    @Test(
        arguments: [
            (172.5, 1725, -1), (0.1, 1, -1), (.leastNonzeroMagnitude, 5, -324), (1e23, 1, 23), (0.3, 3, -1),
            (1.7976931348623157e308, 17_976_931_348_623_157, 292), (2.0, 2, 0),
            (9_007_199_254_740_992, 9_007_199_254_740_992, 0),
        ] as [(Double, UInt64, Int)])
    func decimalsOfKnownValues(_ value: Double, _ digits: UInt64, _ exponent: Int) {
        var decimal = ShortestDecimal(value)
        // The conversion may leave trailing zeros for the printer to drop.
        while decimal.significand % 10 == 0 {
            decimal.significand /= 10
            decimal.exponent += 1
        }
        #expect(decimal.significand == digits && decimal.exponent == exponent)
    }
}

/// An unbounded natural number in 32-bit limbs, lowest first: just what recomputing the table needs.
private struct Natural {
    var limbs: [UInt32]

    init(one: Void) {
        limbs = [1]
    }

    init(powerOfTen n: Int) {
        limbs = [1]
        for _ in 0..<n { multiply(by: 10) }
    }

    var bitWidth: Int {
        guard let top = limbs.last(where: { $0 != 0 }), let index = limbs.lastIndex(where: { $0 != 0 }) else {
            return 0
        }
        return index * 32 + (32 - top.leadingZeroBitCount)
    }

    var low64: UInt64 {
        UInt64(limbs[0]) | (limbs.count > 1 ? UInt64(limbs[1]) << 32 : 0)
    }

    mutating func multiply(by factor: UInt32) {
        var carry: UInt64 = 0
        for k in limbs.indices {
            let product = UInt64(limbs[k]) * UInt64(factor) + carry
            limbs[k] = UInt32(truncatingIfNeeded: product)
            carry = product >> 32
        }
        if carry != 0 { limbs.append(UInt32(carry)) }
    }

    mutating func divide(by divisor: UInt32) {
        var remainder: UInt64 = 0
        for k in limbs.indices.reversed() {
            let current = remainder << 32 | UInt64(limbs[k])
            limbs[k] = UInt32(current / UInt64(divisor))
            remainder = current % UInt64(divisor)
        }
    }

    mutating func add(_ small: UInt32) {
        var carry = UInt64(small)
        for k in limbs.indices where carry != 0 {
            let sum = UInt64(limbs[k]) + carry
            limbs[k] = UInt32(truncatingIfNeeded: sum)
            carry = sum >> 32
        }
        if carry != 0 { limbs.append(UInt32(carry)) }
    }

    func shiftedLeft(_ bits: Int) -> Natural {
        var result = Natural(one: ())
        result.limbs = Array(repeating: 0, count: bits / 32) + limbs + [0]
        let rest = bits % 32
        if rest > 0 {
            for k in result.limbs.indices.reversed() {
                let lower = k > 0 ? result.limbs[k - 1] >> (32 - rest) : 0
                result.limbs[k] = result.limbs[k] << rest | lower
            }
        }
        return result
    }

    func shiftedRight(_ bits: Int) -> Natural {
        var result = Natural(one: ())
        result.limbs = Array(limbs.dropFirst(bits / 32)) + [0]
        let rest = bits % 32
        if rest > 0 {
            for k in result.limbs.indices {
                let upper = k + 1 < result.limbs.count ? result.limbs[k + 1] << (32 - rest) : 0
                result.limbs[k] = result.limbs[k] >> rest | upper
            }
        }
        return result
    }
}
