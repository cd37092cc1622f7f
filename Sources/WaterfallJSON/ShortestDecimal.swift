/// The shortest decimal that reads back to a given positive finite `Double`, and among the shortest the closest to
/// it (ties to an even last digit): the digits Swift's `description` prints.
///
/// Raffaello Giulietti's Schubfach ("The Schubfach way to render doubles", 2020; the algorithm of Java's
/// `Double.toString` since JDK 19), chosen over Ryū and Dragonbox because its one decision procedure covers regular
/// spacing and the binade boundaries alike (where the gap below a power of two is half the gap above it), and every
/// decision is an exact comparison of round-to-odd products, proven in the paper, with no correction loop: three
/// 64×128-bit products (six `mul`s) and a handful of comparisons. Ryū removes digits one division at a time and
/// tracks trailing zeros of both bounds to break ties; Dragonbox is a little faster on paper but needs a separate
/// case analysis for the boundary intervals. The one difference from Java's version: Java prints at least two
/// digits (`4.9E-324`), so it scales tiny subnormals by ten and skips the search for a shorter decimal below 100;
/// Swift prints `5e-324`, so here that search always runs.
///
/// The rounding interval is closed when the significand is even (a decimal on its edge reads back to this double,
/// round-half-even) and open when odd, as in SwiftDtoa.
struct ShortestDecimal {
    // MARK: Lifecycle

    /// The decimal of `value`, which must be positive and finite.
    @inline(__always)
    init(_ value: Double) {
        let bits = value.bitPattern
        let fraction = bits & (1 << 52 - 1)
        let biasedExponent = Int(truncatingIfNeeded: bits >> 52) & 0x7FF
        // value = c · 2^q with c an integer below 2^53.
        let c: UInt64
        let q: Int
        if biasedExponent != 0 {
            c = fraction | 1 << 52
            q = biasedExponent - 1075
        } else {
            c = fraction
            q = -1074
        }
        // The interval is (or, for an even c, includes) the midpoints to the neighbours, scaled by 4: c - 1/2 ... c +
        // 1/2, except at a power of two above the smallest normal, where the neighbour below is a quarter ulp away.
        // Folded into the bounds: vbl + open <= x, and x + open <= vbr.
        let open = c & 1
        let cb = c << 2
        let cbr = cb + 2
        let cbl: UInt64
        let k: Int
        if fraction != 0 || biasedExponent <= 1 {
            cbl = cb &- 2
            k = Self.floorLog10Pow2(q)
        } else {
            cbl = cb &- 1
            k = Self.floorLog10ThreeQuartersPow2(q)
        }
        // 10^k ≤ the interval's width < 10^(k+1): at most one multiple of 10^(k+1) lies in it, at least one of 10^k.
        let h = UInt64(truncatingIfNeeded: q + Self.floorLog2Pow10(-k) + 2)
        let index = 2 &* (k &+ 324)
        let g1 = Self.powersOfTen[index]
        let g0 = Self.powersOfTen[index + 1]
        let vb = Self.roundToOdd(g1, g0, cb &<< h)
        let vbl = Self.roundToOdd(g1, g0, cbl &<< h) &+ open
        let vbr = Self.roundToOdd(g1, g0, cbr &<< h) &- open
        // vb is 4 · value / 10^k with a sticky bit; s = ⌊value / 10^k⌋.
        let s = vb >> 2
        exponent = k
        // A multiple of 10^(k+1) in the interval is the shortest decimal, and the only one of its length. Otherwise
        // s · 10^k or (s + 1) · 10^k: the one inside, or the closer, or on a tie the even one. Every case is computed
        // and one selected: which case applies depends on the value's last bits, so branches would mispredict.
        let sp10 = s / 10 &* 10
        let tp10 = sp10 &+ 10
        let upin = vbl <= sp10 &<< 2
        let wpin = tp10 &<< 2 <= vbr
        let t = s &+ 1
        let uin = vbl <= s &<< 2
        let win = t &<< 2 <= vbr
        // Closer to s (vb below the midpoint, or on it with s even) or to t.
        let closer = vb < ((s &+ t) &<< 1) &+ (~s & 1) ? s : t
        let inside = win ? (uin ? closer : t) : s
        significand = upin != wpin ? (upin ? sp10 : tp10) : inside
    }

    /// The decimal of `value` (positive, normal) if it is exactly a decimal of at most 15 digits with a few binary
    /// fraction digits (172.5, 0.375, 60.25: a layout's halves and quarters), found without the products: any other
    /// decimal of at most 15 digits is at least 10^-15 · value away, farther than the neighbouring doubles, so this
    /// one is the shortest and the closest. Nil otherwise.
    @inline(__always)
    init?(exactlyShort value: Double) {
        let bits = value.bitPattern
        let biasedExponent = Int(truncatingIfNeeded: bits >> 52) & 0x7FF
        let c = bits & (1 << 52 - 1) | 1 << 52
        let zeros = c.trailingZeroBitCount
        // value = (c >> zeros) / 2^j = (c >> zeros) · 5^j / 10^j.
        let j = 1075 &- biasedExponent &- zeros
        guard j >= 1, j <= 22, biasedExponent != 0 else { return nil }
        let product = (c >> zeros).multipliedReportingOverflow(by: Self.powersOfFive[j])
        guard !product.overflow, product.partialValue < 1_000_000_000_000_000 else { return nil }
        significand = product.partialValue
        exponent = -j
    }

    // MARK: Internal

    /// The decimal's digits: 1 to 17 of them, never 0; may end in zeros (the printer drops them).
    var significand: UInt64
    /// The value is `significand` · 10^`exponent`.
    var exponent: Int

    // MARK: Private

    /// 5^0 to 5^22.
    private static let powersOfFive: InlineArray<23, UInt64> = [
        1, 5, 25, 125, 625, 3_125, 15_625, 78_125, 390_625, 1_953_125, 9_765_625, 48_828_125, 244_140_625,
        1_220_703_125, 6_103_515_625, 30_517_578_125, 152_587_890_625, 762_939_453_125, 3_814_697_265_625,
        19_073_486_328_125, 95_367_431_640_625, 476_837_158_203_125, 2_384_185_791_015_625,
    ]

    /// ⌊log10(2^e)⌋ for |e| ≤ 5456721 (Giulietti's constants).
    @inline(__always)
    private static func floorLog10Pow2(_ e: Int) -> Int {
        (e &* 661_971_961_083) >> 41
    }

    /// ⌊log10(3/4 · 2^e)⌋ for |e| ≤ 2882055.
    @inline(__always)
    private static func floorLog10ThreeQuartersPow2(_ e: Int) -> Int {
        (e &* 661_971_961_083 &- 274_743_187_321) >> 41
    }

    /// ⌊log2(10^e)⌋ for |e| ≤ 1838394.
    @inline(__always)
    private static func floorLog2Pow10(_ e: Int) -> Int {
        (e &* 913_124_641_741) >> 38
    }

    /// ⌊cp · g / 2^127⌋ rounded to odd (its lowest bit set if anything was cut off), g = g1 · 2^63 + g0.
    @inline(__always)
    private static func roundToOdd(_ g1: UInt64, _ g0: UInt64, _ cp: UInt64) -> UInt64 {
        let x1 = g0.multipliedFullWidth(by: cp).high
        let y = g1.multipliedFullWidth(by: cp)
        let z = (y.low >> 1) &+ x1
        let mask: UInt64 = 1 << 63 - 1
        return (y.high &+ (z >> 63)) | ((z & mask) &+ mask) >> 63
    }
}
