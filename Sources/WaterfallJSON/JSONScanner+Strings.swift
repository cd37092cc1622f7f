// MARK: Strings

extension JSONScanner {
    /// Scans a string starting at its opening quote at `i`, validating UTF-8 and escapes, and appends its node.
    @inline(__always)
    mutating func scanString(_ base: UnsafePointer<UInt8>, at i: inout Int, end: Int) -> JSONError? {
        let start = i
        var flags: UInt8 = 0
        i += 1
        while true {
            // Plain printable ASCII is the common case: find the next byte that is not, eight bytes at a time.
            while i + 8 <= end {
                let special = Self.specialBytes(UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                if special == 0 {
                    i += 8
                } else {
                    i += special.trailingZeroBitCount >> 3
                    break
                }
            }
            while i < end {
                let byte = base[i]
                guard byte &- 0x20 < 0x60, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
                i += 1
            }
            guard i < end else { return JSONError(.unexpectedEnd, at: end) }
            let byte = base[i]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                flags = TapeNode.hasEscapes
                if let failure = Self.scanEscape(base, at: &i, end: end) { return failure }
            } else if byte < 0x20 {
                return JSONError(.controlCharacter(byte), at: i)
            } else if let failure = Self.scanMultibyte(base, at: &i, end: end) {
                return failure
            }
        }
        i += 1
        append(TapeNode(kind: .string, flags: flags, start: start, end: i, next: nodeCount + 1))
        return nil
    }

    /// The high bit of each byte of `word` (little-endian) that is a quote, a backslash, below 0x20 or above 0x7F.
    ///
    /// The borrow trick can also flag a byte just above a flagged one, but never below the first, so the
    /// lowest set bit is always exact (that is all the caller uses).
    @inline(__always)
    private static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let isQuote = (quotes &- ones) & ~quotes
        let isBackslash = (backslashes &- ones) & ~backslashes
        let isControl = (word &- ones &* 0x20) & ~word
        return (isQuote | isBackslash | isControl | word) & (ones &* 0x80)
    }

    /// Validates one well-formed UTF-8 sequence of 2–4 bytes at `i` (Unicode Table 3-7) and moves past it.
    ///
    /// Rejects overlong forms (C0, C1, E0 80–9F, F0 80–8F), UTF-8-encoded surrogates (ED A0–BF), values
    /// above U+10FFFF (F4 90+, F5–FF), stray continuation bytes and sequences cut short.
    private static func scanMultibyte(_ base: UnsafePointer<UInt8>, at i: inout Int, end: Int) -> JSONError? {
        let lead = base[i]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return JSONError(.invalidUTF8, at: i)
        }
        guard i + length <= end else { return JSONError(.invalidUTF8, at: i) }
        let second = base[i + 1]
        guard second >= low && second <= high else { return JSONError(.invalidUTF8, at: i) }
        for k in 2..<length where base[i + k] & 0xC0 != 0x80 {
            return JSONError(.invalidUTF8, at: i)
        }
        i += length
        return nil
    }

    /// Validates one escape at `i` (a backslash) and moves past it; a high surrogate must be followed by a low one.
    private static func scanEscape(_ base: UnsafePointer<UInt8>, at i: inout Int, end: Int) -> JSONError? {
        guard i + 1 < end else { return JSONError(.unexpectedEnd, at: end) }
        switch base[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            i += 2
            return nil
        case UInt8(ascii: "u"):
            guard i + 6 <= end else { return JSONError(.unexpectedEnd, at: end) }
            guard let unit = JSONText.hex4(base + i + 2) else { return JSONError(.invalidEscape, at: i) }
            switch unit {
            case 0xD800...0xDBFF:
                guard i + 12 <= end, base[i + 6] == UInt8(ascii: "\\"), base[i + 7] == UInt8(ascii: "u"),
                    let next = JSONText.hex4(base + i + 8), next >= 0xDC00 && next <= 0xDFFF
                else { return JSONError(.loneSurrogate, at: i) }
                i += 12
            case 0xDC00...0xDFFF:
                return JSONError(.loneSurrogate, at: i)
            default:
                i += 6
            }
            return nil
        default:
            return JSONError(.invalidEscape, at: i)
        }
    }
}
