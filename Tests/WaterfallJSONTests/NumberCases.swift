/// Seeded JSON number texts for the differential tests of number parsing, by kind.
struct NumberCases {
    // MARK: Lifecycle

    /// A generator whose texts are fixed by `seed`.
    init(seed: UInt64) {
        rng = SplitMix64(seed: seed)
    }

    // MARK: Internal

    /// The kinds of text, each with its share of a run.
    enum Kind: String, CaseIterable, CustomStringConvertible {
        /// A random finite bit pattern (any exponent, subnormals included) as `description` prints it.
        case shortest
        /// A double uniform in a range numbers on the wire come from, as `description` prints it.
        case uniform
        /// A random finite double's exact expansion cut or rounded to 17–25 significant digits.
        case printed
        /// The exact midpoint between adjacent doubles, itself, ±1 in its last digit, cut to 17–25 digits, or
        /// followed by a sticky tail (0…01) that may start past the 800th digit.
        case midpoint
        /// A random subnormal (or a neighbour of the least normal): shortest, cut to 17–25 digits, or a midpoint.
        case subnormal
        /// Random decimal digits (1–25 of them) at a random power of ten, incl. beyond the range of `Double`.
        case decimal
        /// Neighbours of 2^53, 2^63, 2^64, 10^19, 10^22, 10^23, the largest finite double, the least normal and
        /// subnormal ones; subnormals; zeros; integer-grammar numbers; integers halfway between two doubles;
        /// hundreds of digits; long zero fractions; huge, tiny and many-digit exponents.
        case edge

        /// Cases of this kind in a run of `total`.
        func share(of total: Int) -> Int {
            switch self {
            // Shares that keep the default million quick in a debug build, where the exact expansions that
            // `printed` and `midpoint` print are costly.
            case .shortest: return total * 40 / 100
            case .uniform: return total * 13 / 100
            case .printed: return total * 5 / 100
            case .midpoint: return total * 2 / 100
            case .decimal: return total * 30 / 100
            case .subnormal: return total * 3 / 100
            case .edge: return total * 7 / 100
            }
        }

        var description: String { rawValue }
    }

    /// The next text of `kind`.
    mutating func text(_ kind: Kind) -> String {
        switch kind {
        case .shortest: return signed(randomFinite().description)
        case .uniform: return uniform()
        case .printed: return printed(randomFinite())
        case .midpoint: return midpoint(randomFinite().magnitude)
        case .subnormal: return subnormal()
        case .decimal: return decimal()
        case .edge: return edge()
        }
    }

    // MARK: Private

    /// Values whose neighbours the edge cases visit.
    private static let landmarks: [Double] = [
        0x1p53, 0x1p63, 0x1p64, 1e19, 1e22, 1e23, .greatestFiniteMagnitude, .leastNormalMagnitude,
        .leastNonzeroMagnitude, 1, 0.1, 1e-5, 1e15, 1e16, 1e308, 1e-307, 0x1p-1022 - 0x1p-1074,
    ]

    /// Decimal digits of integers whose integer-grammar neighbours the edge cases visit.
    private static let integerLandmarks: [[UInt8]] = {
        var values = [BigUInt(1), BigUInt(1), BigUInt(1), BigUInt(1), BigUInt(1)]
        values[0].shiftLeft(by: 53)
        values[1].shiftLeft(by: 64)
        values[2].shiftLeft(by: 63)
        for _ in 0..<19 { values[3].multiply(by: 10) }
        for _ in 0..<22 { values[4].multiply(by: 10) }
        return values.map { $0.decimalDigits() }
    }()

    private var rng: SplitMix64

    /// A random finite double from a random bit pattern: every exponent alike, so 1 in 2048 is subnormal.
    private mutating func randomFinite() -> Double {
        while true {
            let value = Double(bitPattern: rng.next())
            if value.isFinite { return value }
        }
    }

    /// `text` with a minus sign half the time (when it has none).
    private mutating func signed(_ text: String) -> String {
        text.hasPrefix("-") || rng.chance(0.5) ? text : "-" + text
    }

    private mutating func uniform() -> String {
        let ranges: [Range<Double>] = [20..<400, 0..<1, 0..<1_000, 1e-5..<1e5, 1e6..<1e12, -1e3..<1e3, 0..<1e-300]
        let value = Double.random(in: rng.pick(ranges), using: &rng)
        return rng.chance(0.8) ? value.description : printed(value)
    }

    private mutating func printed(_ value: Double) -> String {
        let digits = Int.random(in: 17...25, using: &rng)
        return DecimalText(exactly: value).prefix(digits, roundingUp: rng.chance(0.5)).text(&rng)
    }

    private mutating func midpoint(_ value: Double) -> String {
        var text = DecimalText(midpointAbove: value)
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: break
        case 1: text.addUnitInLastPlace(1)
        case 2: text.addUnitInLastPlace(-1)
        case 3:
            text = text.prefix(Int.random(in: 17...25, using: &rng), roundingUp: rng.chance(0.5))
            if rng.chance(0.5) { text.addUnitInLastPlace(rng.chance(0.5) ? 1 : -1) }
        case 4:
            // Just above the midpoint, by a nonzero digit at most a few past the 800th significant digit.
            let zeros = max(0, Int.random(in: 780...830, using: &rng) - text.digits.count)
            text.append([UInt8](repeating: 0, count: zeros) + [1])
        default:
            text.append([UInt8](repeating: 0, count: Int.random(in: 1...40, using: &rng)))
        }
        text.isNegative = rng.chance(0.5)
        return text.text(&rng)
    }

    private mutating func subnormal() -> String {
        let bits = rng.chance(0.9) ? UInt64.random(in: 1..<(1 << 52), using: &rng) : (1 << 52) + rng.next() % 64
        let value = Double(bitPattern: bits)
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<7: return signed(value.description)
        case 7, 8: return printed(value)
        default: return midpoint(value)
        }
    }

    private mutating func randomDigits(_ count: Int) -> [UInt8] {
        var digits = (0..<count).map { _ in UInt8.random(in: 0...9, using: &rng) }
        if digits[0] == 0 { digits[0] = UInt8.random(in: 1...9, using: &rng) }
        return digits
    }

    private mutating func decimal() -> String {
        let count = rng.chance(0.3) ? Int.random(in: 17...21, using: &rng) : Int.random(in: 1...25, using: &rng)
        let point = rng.chance(0.7) ? Int.random(in: -30...30, using: &rng) : Int.random(in: -345...330, using: &rng)
        return DecimalText(digits: randomDigits(count), point: point, isNegative: rng.chance(0.5)).text(&rng)
    }

    private mutating func edge() -> String {
        switch Int.random(in: 0..<11, using: &rng) {
        case 0, 1:
            // A neighbour of a landmark: shortest, exact, or a midpoint.
            var value = rng.pick(Self.landmarks)
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                value = rng.chance(0.5) ? value.nextUp : value.nextDown
            }
            guard value.isFinite else { return "1.7976931348623157e308" }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return signed(value.description)
            case 1: return printed(value)
            default: return midpoint(value.magnitude)
            }
        case 2:
            // An integer-grammar neighbour of 2^53, 2^64, 2^63, 10^19, 10^22.
            let digits = rng.pick(Self.integerLandmarks)
            var text = DecimalText(digits: digits, point: digits.count, isNegative: rng.chance(0.5))
            let steps = Int.random(in: -3...3, using: &rng)
            for _ in 0..<abs(steps) { text.addUnitInLastPlace(steps > 0 ? 1 : -1) }
            return (text.isNegative ? "-" : "") + String(decoding: text.digits.map { $0 + 48 }, as: UTF8.self)
        case 3:
            // A subnormal: shortest, exact or a midpoint.
            let value = Double(bitPattern: UInt64.random(in: 1..<(1 << 52), using: &rng))
            return rng.chance(0.5) ? signed(value.description) : midpoint(value)
        case 4:
            // An integer of 1 to 25 digits.
            guard !rng.chance(0.05) else { return rng.pick(["0", "-0"]) }
            let digits = randomDigits(Int.random(in: 1...25, using: &rng))
            return (rng.chance(0.3) ? "-" : "") + String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
        case 5:
            // Hundreds of digits.
            let count = Int.random(in: 100...1_000, using: &rng)
            let point = Int.random(in: -350...350, using: &rng)
            return DecimalText(digits: randomDigits(count), point: point, isNegative: rng.chance(0.5)).text(&rng)
        case 6:
            // A fraction with many leading zeros.
            let zeros = String(repeating: "0", count: Int.random(in: 1...400, using: &rng))
            let digits = randomDigits(Int.random(in: 1...30, using: &rng))
            return "0." + zeros + String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
        case 7:
            // Zeros.
            return rng.pick(["0", "-0", "0.0", "-0.0", "-0.0e5", "0e-400", "0.000000", "-0E+7", "0.0e99999999999"])
        case 8:
            // Huge and tiny exponents, some with many digits.
            let digits = randomDigits(Int.random(in: 1...20, using: &rng))
            let exponent = rng.pick([
                String(Int.random(in: 280...330, using: &rng)), "-" + String(Int.random(in: 300...360, using: &rng)),
                "99999", "-99999", "+1000000000000", "-1000000000000000000000", "0000000000000000000308",
            ])
            return (rng.chance(0.5) ? "-" : "") + String(decoding: digits.map { $0 + 48 }, as: UTF8.self) + "e"
                + exponent
        case 9:
            // Halfway between two doubles: an integer (2m + 1) · 2^j with 2^52 ≤ m < 2^53, perhaps times 10^k, or
            // a fraction (2m + 1) / 2^k.
            let odd = 2 * UInt64.random(in: (1 << 52)..<(1 << 53), using: &rng) + 1
            let sign = rng.chance(0.2) ? "-" : ""
            guard rng.chance(0.5) else {
                // A fraction's tie, (2m + 1) / 2^k = (2m + 1) · 5^k / 10^k for k ≤ 4.
                let k = Int.random(in: 1...4, using: &rng)
                let digits = String((0..<k).reduce(odd) { value, _ in value * 5 })
                return sign + digits.dropLast(k) + "." + digits.suffix(k)
            }
            let tie = odd << UInt64(Int.random(in: 0...10, using: &rng))
            let scaled = rng.chance(0.5) ? "" : rng.pick(["0", "00", "e1", "e5", "e+27", "e28", "e-1", "E-3"])
            return sign + String(tie) + scaled
        default:
            // 19 and 20 significant digits: the cut of the fast path.
            let count = Int.random(in: 19...20, using: &rng)
            let point = Int.random(in: -320...310, using: &rng)
            return DecimalText(digits: randomDigits(count), point: point, isNegative: rng.chance(0.5)).text(&rng)
        }
    }
}
