extension JSONNumber {
    /// The end and the correctly rounded value of a plain number at `base[start]`, read in one pass:
    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?` with at most 19 digits and no exponent, not followed by a digit.
    ///
    /// `base` must be a `JSONStorage`'s bytes, which have `JSONStorage.padding` readable bytes after the input.
    ///
    /// Nil for anything else, including a malformed number and the rare value that Eisel–Lemire leaves undecided:
    /// the caller then scans it the usual way, which reports any error, and `double` converts it later. The value
    /// is bit for bit what `double` gives: with at most 19 digits nothing is cut, so Clinger's fast path and
    /// Eisel–Lemire are exact where they answer.
    @inline(__always)
    static func plain(
        _ base: UnsafePointer<UInt8>, from start: Int, end: Int
    ) -> (end: Int, value: Double, isInteger: Bool)? {
        var i = start
        let isNegative = base[i] == UInt8(ascii: "-")
        if isNegative {
            i &+= 1
            guard i < end else { return nil }
        }
        let integerStart = i
        var significand: UInt64 = 0
        if base[i] == UInt8(ascii: "0") {
            i &+= 1
        } else {
            // Wrapping: more than 19 digits are refused below. A digit at a time: integer parts are short and of
            // steady length (heights of 2 or 3 digits), a loop whose exit the branch predictor learns, so the
            // eight-byte steps below would gain nothing for them.
            accumulateDigits(base, at: &i, end: end, into: &significand)
            guard i > integerStart else { return nil }
        }
        var digitCount = i &- integerStart
        var scale = 0
        var isInteger = true
        if i < end && base[i] == UInt8(ascii: ".") {
            isInteger = false
            i &+= 1
            let fractionStart = i
            // Fractions are long (14 digits for most doubles JavaScript writes) and vary in length: eight at a time,
            // then the rest in one step, with no branch per digit to mispredict at the end.
            accumulateEightDigitChunks(base, at: &i, end: end, into: &significand)
            accumulateDigitTail(base, at: &i, end: end, into: &significand)
            guard i > fractionStart else { return nil }
            scale = fractionStart &- i
            digitCount &+= i &- fractionStart
        }
        // A digit after a leading zero, or an exponent: the general scan decides.
        if i < end && (base[i] &- UInt8(ascii: "0") < 10 || base[i] | 0x20 == UInt8(ascii: "e")) { return nil }
        guard digitCount <= 19 else { return nil }
        let sign: UInt64 = isNegative ? 1 << 63 : 0
        if significand == 0 { return (i, Double(bitPattern: sign), isInteger) }
        if significand <= 1 << 53 && scale >= -22 {
            let magnitude = scale < 0 ? Double(significand) / powersOfTen[-scale] : Double(significand)
            return (i, isNegative ? -magnitude : magnitude, isInteger)
        }
        guard let bits = eiselLemireBits(significand, power: scale) else { return nil }
        return (i, Double(bitPattern: sign | bits), isInteger)
    }
}
