/// A minimal arbitrary-precision unsigned integer (64-bit limbs, least significant first): the exact arithmetic
/// behind the number tests' decimal expansions and the check of the powers-of-five table.
struct BigUInt {
    // MARK: Lifecycle

    /// The integer `value`.
    init(_ value: UInt64) {
        limbs = value == 0 ? [] : [value]
    }

    // MARK: Internal

    /// 5^0 ... 5^1100, enough for the exact expansion of any `Double` and of any midpoint between two.
    static let powersOfFive: [BigUInt] = {
        var powers = [BigUInt(1)]
        powers.reserveCapacity(1_101)
        for _ in 0..<1_100 {
            var next = powers[powers.count - 1]
            next.multiply(by: 5)
            powers.append(next)
        }
        return powers
    }()

    /// The limbs, least significant first, with no zero limb at the top.
    private(set) var limbs: [UInt64]

    /// The number of bits up to and including the highest set bit; 0 for zero.
    var bitWidth: Int {
        guard let top = limbs.last else { return 0 }
        return limbs.count * 64 - top.leadingZeroBitCount
    }

    /// Multiplies in place by `factor`.
    mutating func multiply(by factor: UInt64) {
        var carry: UInt64 = 0
        for k in limbs.indices {
            let (high, low) = limbs[k].multipliedFullWidth(by: factor)
            let (sum, overflow) = low.addingReportingOverflow(carry)
            limbs[k] = sum
            carry = high &+ (overflow ? 1 : 0)
        }
        if carry != 0 { limbs.append(carry) }
        normalize()
    }

    /// Multiplies in place by 2^shift.
    mutating func shiftLeft(by shift: Int) {
        guard !limbs.isEmpty && shift > 0 else { return }
        let words = shift / 64
        let bits = shift % 64
        if bits != 0 {
            var carry: UInt64 = 0
            for k in limbs.indices {
                let limb = limbs[k]
                limbs[k] = limb << UInt64(bits) | carry
                carry = limb >> UInt64(64 - bits)
            }
            if carry != 0 { limbs.append(carry) }
        }
        if words > 0 { limbs.insert(contentsOf: repeatElement(0, count: words), at: 0) }
    }

    /// Divides in place by 2^shift, dropping the remainder.
    mutating func shiftRight(by shift: Int) {
        let words = shift / 64
        let bits = shift % 64
        guard words < limbs.count else {
            limbs = []
            return
        }
        limbs.removeFirst(words)
        if bits != 0 {
            for k in limbs.indices {
                let next = k + 1 < limbs.count ? limbs[k + 1] : 0
                limbs[k] = limbs[k] >> UInt64(bits) | next << UInt64(64 - bits)
            }
        }
        normalize()
    }

    /// Divides in place by `divisor`, returning the remainder.
    @discardableResult
    mutating func divide(by divisor: UInt64) -> UInt64 {
        var remainder: UInt64 = 0
        // Through a buffer pointer: these tests run in debug builds, where each checked array access costs.
        limbs.withUnsafeMutableBufferPointer { limbs in
            var k = limbs.count - 1
            while k >= 0 {
                let (quotient, rest) = divisor.dividingFullWidth((remainder, limbs[k]))
                limbs[k] = quotient
                remainder = rest
                k -= 1
            }
        }
        normalize()
        return remainder
    }

    /// The decimal digits, most significant first (values 0...9, no leading zero); empty for zero.
    func decimalDigits() -> [UInt8] {
        var rest = self
        var chunks: [UInt64] = []
        while !rest.limbs.isEmpty { chunks.append(rest.divide(by: 10_000_000_000_000_000_000)) }
        var digits = [UInt8](repeating: 0, count: chunks.count * 19)
        digits.withUnsafeMutableBufferPointer { digits in
            var end = digits.count
            for chunk in chunks {
                var value = chunk
                for _ in 0..<19 {
                    end -= 1
                    digits[end] = UInt8(truncatingIfNeeded: value % 10)
                    value /= 10
                }
            }
        }
        return Array(digits.drop { $0 == 0 })
    }

    // MARK: Private

    /// Drops zero limbs at the top.
    private mutating func normalize() {
        while limbs.last == 0 { limbs.removeLast() }
    }
}
