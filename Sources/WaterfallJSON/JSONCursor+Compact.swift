extension JSONCursor {
    /// Takes `literal` when the bytes at the cursor are exactly it, with no whitespace before it; false (nothing
    /// taken) otherwise.
    ///
    /// For a reader of text whose writer is known (the daemon writes no whitespace): one comparison of a run such as
    /// `,"x":` in place of a byte, a key and a colon read apart. A caller falls back to the general reads, which take
    /// any spacing, when it returns false.
    @inlinable @inline(__always)
    package mutating func take(literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end &- at >= count, Self.equal(base + at, literal.utf8Start, count) else { return false }
        at &+= count
        return true
    }

    /// `integer()`, with the commonest case (`shortDigits`) inlined into the caller: for a reader of many small
    /// objects, such as a large reply's item frames.
    @inlinable @inline(__always)
    package mutating func compactInteger() -> Int64? {
        shortDigits() ?? integer()
    }

    /// `number()`, with the commonest case (`shortDigits`) inlined into the caller, as `compactInteger()`.
    @inlinable @inline(__always)
    package mutating func compactNumber() -> Double? {
        if let value = shortDigits() { return Double(value) }
        return number()
    }

    /// The value of an integer of at most 15 digits, with no sign, at the cursor (no whitespace before it), read in
    /// the pass that finds its end; nil, with the cursor where it was, for any other token (a sign, a fraction, an
    /// exponent, a 16th digit), which `numberToken` then reads.
    ///
    /// Most numbers of requests and replies are such integers (`"i":999`, `"h":120`): `integer()` and `number()`
    /// take them this way first rather than finding the token's end and then reading its digits again.
    @inlinable @inline(__always)
    mutating func shortDigits() -> Int64? {
        var k = at
        var value: UInt64 = 0
        digits(from: &k, to: min(end, at &+ JSONNumber.exactIntegerLength), into: &value)
        // At least one digit, no leading zero, and nothing after the digits that would continue the token.
        guard k > at, base[at] != UInt8(ascii: "0") || k == at &+ 1 else { return nil }
        if k < end {
            let next = base[k]
            guard !(Self.isDigit(next) || Self.isLetter(next) || next == UInt8(ascii: ".")) else { return nil }
        }
        at = k
        return Int64(truncatingIfNeeded: value)
    }

    /// Reads the digits from `k` up to `limit` (excluded) into `value`, and leaves `k` after the last.
    @inlinable @inline(__always)
    func digits(from k: inout Int, to limit: Int, into value: inout UInt64) {
        while k < limit {
            let digit = base[k] &- UInt8(ascii: "0")
            guard digit < 10 else { return }
            value = value &* 10 &+ UInt64(digit)
            k &+= 1
        }
    }
}

extension JSONCursor {
    /// A number with a fraction and at most 15 digits, no sign and no exponent, such as `100.123`, at the cursor
    /// (no whitespace before it), read in one pass; nil, with the cursor where it was, for any other token, which
    /// `number()` then reads.
    ///
    /// Its value is the one `number()` gives (`JSONNumber.double`'s first case): the digits, an integer below 2^53,
    /// and the power of ten that scales them, below 10^22, are both exact doubles, so their quotient's one rounding
    /// is the correct one. For the heights of the commonest request, which `number()` would scan for the token's end,
    /// then read again digit by digit.
    @inlinable @inline(__always)
    package mutating func shortDecimal() -> Double? {
        // Room for 15 digits and the point: a 16th digit stops the read where a point or the end should be.
        let limit = min(end, at &+ JSONNumber.exactIntegerLength &+ 1)
        var k = at
        var significand: UInt64 = 0
        digits(from: &k, to: limit, into: &significand)
        let integerDigits = k &- at
        // At least one digit before the point, and no leading zero.
        guard integerDigits > 0, base[at] != UInt8(ascii: "0") || integerDigits == 1, k < end,
            base[k] == UInt8(ascii: ".")
        else { return nil }
        k &+= 1
        let fractionStart = k
        digits(from: &k, to: limit, into: &significand)
        let fractionDigits = k &- fractionStart
        guard fractionDigits > 0 else { return nil }
        // After the digits, nothing that would continue the token (a digit: more than 15).
        if k < end {
            let next = base[k]
            guard !(Self.isDigit(next) || Self.isLetter(next) || next == UInt8(ascii: ".")) else { return nil }
        }
        var scale: UInt64 = 1
        for _ in 0..<fractionDigits { scale &*= 10 }
        at = k
        return Double(significand) / Double(scale)
    }
}
