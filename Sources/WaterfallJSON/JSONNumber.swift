/// Conversions of validated JSON number bytes to `Int64` and `Double`.
@usableFromInline
internal enum JSONNumber {
    // MARK: Internal

    /// The longest integer text (sign included) that `shortInteger` reads: 18 digits stay below 10^18 < 2^63.
    @inlinable static var shortIntegerLength: Int { 18 }

    /// The longest integer text (sign included) whose value a `Double` holds exactly: 15 digits stay below 2^53.
    @inlinable static var exactIntegerLength: Int { 15 }

    /// The value of a validated integer-grammar number of at most `shortIntegerLength` bytes at `p`.
    ///
    /// Inlined into the accessors because request fields are mostly such numbers (`"section":0`, `"h":120`),
    /// and the call to `int64(_:)` with its range checks cost more than the digits.
    @inlinable
    static func shortInteger(_ p: UnsafePointer<UInt8>, length: Int) -> Int64 {
        let isNegative = p[0] == UInt8(ascii: "-")
        var i = isNegative ? 1 : 0
        var magnitude: Int64 = 0
        while i < length {
            magnitude = magnitude &* 10 &+ Int64(p[i] &- UInt8(ascii: "0"))
            i &+= 1
        }
        return isNegative ? 0 &- magnitude : magnitude
    }

    /// The exact value of an integer-grammar number (no fraction, no exponent), or nil outside Int64.
    @usableFromInline
    static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let p = bytes.baseAddress, !bytes.isEmpty else { return nil }
        let isNegative = p[0] == UInt8(ascii: "-")
        let first = isNegative ? 1 : 0
        let digits = bytes.count - first
        guard digits > 0 && digits <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for k in first..<bytes.count {
            // 19 digits fit in UInt64 (max 18_446_744_073_709_551_615 has 20), so this cannot overflow.
            magnitude = magnitude &* 10 &+ UInt64(p[k] &- UInt8(ascii: "0"))
        }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// The correctly rounded `Double` nearest a validated JSON number (±infinity if beyond range).
    ///
    /// Up to 19 significant digits with a decimal exponent within ±22 and a mantissa below 2^53 take Clinger's
    /// fast path (both operands exact, so one IEEE operation rounds correctly); anything else goes to the
    /// standard library's parser, which is correctly rounded and, for ≤ 15 bytes, does not allocate.
    @usableFromInline
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
        guard let p = bytes.baseAddress, !bytes.isEmpty else { return .nan }
        let count = bytes.count
        var i = 0
        let isNegative = p[0] == UInt8(ascii: "-")
        if isNegative { i = 1 }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var scale = 0
        var sawPoint = false
        while i < count {
            let byte = p[i]
            if byte == UInt8(ascii: ".") {
                sawPoint = true
            } else if byte &- UInt8(ascii: "0") < 10 {
                if mantissa != 0 || byte != UInt8(ascii: "0") { significantDigits += 1 }
                if significantDigits <= 19 { mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0")) }
                if sawPoint { scale -= 1 }
            } else {
                break
            }
            i += 1
        }
        var exponent = 0
        if i < count {
            // An exponent: [eE][+-]?digits.
            i += 1
            let isNegativeExponent = i < count && p[i] == UInt8(ascii: "-")
            if i < count && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")) { i += 1 }
            while i < count {
                if exponent < 100_000 { exponent = exponent * 10 + Int(p[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            if isNegativeExponent { exponent = -exponent }
        }
        let power = scale + exponent
        if significantDigits <= 19 && mantissa <= 1 << 53 && power >= -22 && power <= 22 {
            let value = power < 0 ? Double(mantissa) / powersOfTen[-power] : Double(mantissa) * powersOfTen[power]
            return isNegative ? -value : value
        }
        if mantissa == 0 { return isNegative ? -0.0 : 0.0 }
        return slowDouble(bytes)
    }

    // MARK: Private

    /// 10^0 ... 10^22, every one exactly representable in a `Double`.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The standard library's correctly rounded conversion, for the numbers the fast path cannot do exactly.
    private static func slowDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double {
        guard let value = Double(String(decoding: bytes, as: UTF8.self)) else {
            assertionFailure("unvalidated number")
            return .nan
        }
        return value
    }
}
