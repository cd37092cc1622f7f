/// String helpers shared by the scanner, the node accessors and the writer: hex escapes and unescaping.
@usableFromInline
internal enum JSONText {
    // MARK: Internal

    /// The value of four ASCII hex digits at `p`, or nil if any is not a hex digit.
    @inline(__always)
    static func hex4(_ p: UnsafePointer<UInt8>) -> UInt32? {
        var value: UInt32 = 0
        for k in 0..<4 {
            let byte = p[k]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// The value of a validated string's content (the bytes between its quotes).
    ///
    /// Without escapes the bytes are the value; with escapes they are decoded into the new string's own
    /// storage in one pass (decoding only ever shrinks, so the raw length is enough capacity).
    @usableFromInline
    static func decode(_ content: UnsafeBufferPointer<UInt8>, hasEscapes: Bool) -> String {
        guard hasEscapes else { return String(decoding: content, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: content.count) { output in
            unescape(content, into: output)
        }
    }

    // MARK: Private

    /// Writes the unescaped bytes of `content` to `output` and returns how many were written.
    ///
    /// The scanner has validated every escape; if that invariant is ever broken this stops early rather than
    /// reading out of bounds.
    private static func unescape(_ content: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>)
        -> Int
    {
        guard let input = content.baseAddress else { return 0 }
        let count = content.count
        var i = 0
        var o = 0
        while i < count {
            let byte = input[i]
            guard byte == UInt8(ascii: "\\") else {
                output[o] = byte
                o += 1
                i += 1
                continue
            }
            guard i + 1 < count else { break }
            let simple: UInt8
            switch input[i + 1] {
            case UInt8(ascii: "b"): simple = 0x08
            case UInt8(ascii: "f"): simple = 0x0C
            case UInt8(ascii: "n"): simple = 0x0A
            case UInt8(ascii: "r"): simple = 0x0D
            case UInt8(ascii: "t"): simple = 0x09
            case UInt8(ascii: "u"):
                guard i + 6 <= count, var scalar = hex4(input + i + 2) else {
                    assertionFailure("unvalidated \\u escape")
                    return o
                }
                i += 6
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    guard i + 6 <= count, let low = hex4(input + i + 2) else {
                        assertionFailure("unvalidated surrogate pair")
                        return o
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low &- 0xDC00)
                    i += 6
                }
                o += encodeUTF8(scalar, into: output.baseAddress! + o)
                continue
            default: simple = input[i + 1]  // '"', '\\' and '/' stand for themselves
            }
            output[o] = simple
            o += 1
            i += 2
        }
        return o
    }

    /// Writes the UTF-8 form of `scalar` (at most U+10FFFF, not a surrogate) at `p`; returns its length.
    @inline(__always)
    private static func encodeUTF8(_ scalar: UInt32, into p: UnsafeMutablePointer<UInt8>) -> Int {
        switch scalar {
        case 0..<0x80:
            p[0] = UInt8(truncatingIfNeeded: scalar)
            return 1
        case 0x80..<0x800:
            p[0] = UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6)
            p[1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            p[0] = UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12)
            p[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            p[2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 3
        default:
            p[0] = UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18)
            p[1] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F)
            p[2] = UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F)
            p[3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return 4
        }
    }
}
