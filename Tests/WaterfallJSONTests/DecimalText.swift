/// A decimal `±0.d₁d₂…dₙ × 10^point` (no leading zero digit; no digits for zero) and the JSON texts that spell
/// it: the number tests' own exact printer, so their inputs do not depend on the printer under comparison.
struct DecimalText {
    // MARK: Lifecycle

    /// The decimal with `digits` (values 0...9) and decimal point `point`; leading zeros are dropped.
    init(digits: [UInt8], point: Int, isNegative: Bool = false) {
        let leadingZeros = digits.prefix { $0 == 0 }.count
        self.digits = Array(digits.dropFirst(leadingZeros))
        self.point = self.digits.isEmpty ? 0 : point - leadingZeros
        self.isNegative = isNegative
    }

    /// The exact value of `significand × 2^exponent`.
    init(significand: UInt64, exponent: Int) {
        if exponent >= 0 {
            var value = BigUInt(significand)
            value.shiftLeft(by: exponent)
            let digits = value.decimalDigits()
            self.init(digits: digits, point: digits.count)
        } else {
            var value = BigUInt.powersOfFive[-exponent]
            value.multiply(by: significand)
            let digits = value.decimalDigits()
            self.init(digits: digits, point: digits.count + exponent)
        }
        trimTrailingZeros()
    }

    /// The exact value of the finite `value`.
    init(exactly value: Double) {
        let (significand, exponent) = Self.parts(of: value)
        self.init(significand: significand, exponent: exponent)
        isNegative = value.sign == .minus
    }

    /// The exact midpoint between the finite, non-negative `value` and the next larger double (infinity past the
    /// largest finite one, as rounding sees it).
    init(midpointAbove value: Double) {
        let (significand, exponent) = Self.parts(of: value)
        self.init(significand: 2 * significand + 1, exponent: exponent - 1)
    }

    // MARK: Internal

    /// The significant digits, most significant first.
    private(set) var digits: [UInt8]

    /// The power of ten of the decimal point.
    private(set) var point: Int

    /// Whether a minus sign is written.
    var isNegative: Bool

    /// This decimal cut (`roundingUp` false) or rounded half up to at most `count` significant digits.
    func prefix(_ count: Int, roundingUp: Bool) -> DecimalText {
        guard digits.count > count else { return self }
        var result = DecimalText(digits: Array(digits.prefix(count)), point: point, isNegative: isNegative)
        if roundingUp && digits[count] >= 5 { result.addUnitInLastPlace(1) }
        result.trimTrailingZeros()
        return result
    }

    /// Adds `delta` (±1) units in the last digit, with carry or borrow; a decimal that is one digit is kept above 0.
    mutating func addUnitInLastPlace(_ delta: Int) {
        guard !digits.isEmpty else { return }
        var k = digits.count - 1
        if delta > 0 {
            while k >= 0 && digits[k] == 9 {
                digits[k] = 0
                k -= 1
            }
            if k < 0 {
                digits.insert(1, at: 0)
                point += 1
            } else {
                digits[k] += 1
            }
        } else {
            while k > 0 && digits[k] == 0 {
                digits[k] = 9
                k -= 1
            }
            guard digits[k] > 0 && !(k == 0 && digits[k] == 1 && digits.count == 1) else { return }
            digits[k] -= 1
            if digits[0] == 0 {
                digits.removeFirst()
                point -= 1
            }
        }
    }

    /// Appends `digits` after the last significant digit (zeros, or a sticky tail such as 0…01).
    mutating func append(_ tail: [UInt8]) {
        digits += tail
    }

    /// A JSON text of this value in a style drawn from `rng`: scientific with one or several integer digits,
    /// positional with or without a fraction, `e` or `E`, an explicit `+`, zeros before the exponent's digits.
    func text(_ rng: inout SplitMix64) -> String {
        var out = isNegative ? "-" : ""
        guard !digits.isEmpty else {
            out += rng.pick(["0", "0.0", "0e5", "0.000e-7", "0E+0", "0.0e400"])
            return out
        }
        let count = digits.count
        let style = Int.random(in: 0..<4, using: &rng)
        if style == 0 && point >= -400 && point <= 400 {
            // Positional.
            if point <= 0 {
                out += "0." + String(repeating: "0", count: -point) + Self.spell(digits[...])
            } else if point < count {
                out += Self.spell(digits[..<point]) + "." + Self.spell(digits[point...])
            } else {
                out += Self.spell(digits[...]) + String(repeating: "0", count: point - count)
                if rng.chance(0.2) { out += rng.pick([".0", ".000"]) }
            }
            return out
        }
        // Scientific, with `integers` digits before the point.
        let integers = style == 1 ? Int.random(in: 1...count, using: &rng) : 1
        out += Self.spell(digits[..<integers])
        if integers < count { out += "." + Self.spell(digits[integers...]) }
        let exponent = point - integers
        out += rng.chance(0.5) ? "e" : "E"
        if exponent < 0 {
            out += "-"
        } else if rng.chance(0.3) {
            out += "+"
        }
        if rng.chance(0.1) { out += "00" }
        out += String(abs(exponent))
        return out
    }

    // MARK: Private

    /// The significand and power of two of the finite `value`'s magnitude, as integers.
    private static func parts(of value: Double) -> (significand: UInt64, exponent: Int) {
        let biased = Int(value.exponentBitPattern)
        return biased == 0
            ? (value.significandBitPattern, -1074)
            : (value.significandBitPattern | 1 << 52, biased - 1075)
    }

    /// `digits` as ASCII text.
    private static func spell(_ digits: ArraySlice<UInt8>) -> String {
        String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
    }

    /// Drops zeros after the last significant digit.
    private mutating func trimTrailingZeros() {
        while digits.last == 0 { digits.removeLast() }
    }
}
