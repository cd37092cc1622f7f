// MARK: Members and trees

extension JSONWriter {
    /// Writes a key and a value in one call.
    @inlinable
    public mutating func member(_ key: StaticString, _ value: Int) {
        self.key(key)
        self.value(value)
    }

    /// Writes a key and a value in one call.
    @inlinable
    public mutating func member(_ key: StaticString, _ value: Double) {
        self.key(key)
        self.value(value)
    }

    /// Writes a key and a value in one call.
    @inlinable
    public mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        self.value(value)
    }

    /// Writes a key and a value in one call.
    @inlinable
    public mutating func member(_ key: StaticString, _ value: String) {
        self.key(key)
        self.value(value)
    }

    /// Writes a whole tree. Recursive: depth is bounded by how the value was built.
    public mutating func write(_ value: JSONValue) {
        switch value {
        case .null: null()
        case .bool(let flag): self.value(flag)
        case .int(let integer): self.value(integer)
        case .double(let number): self.value(number)
        case .string(let text): self.value(text)
        case .array(let elements):
            beginArray()
            for element in elements { write(element) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members {
                key(string: name)
                write(member)
            }
            endObject()
        }
    }

    // MARK: Internal

    /// Writes the decimal digits of `value`, straight into the buffer.
    @inlinable
    internal mutating func appendInteger(_ value: Int64, comma: Bool) {
        write(afterComma: comma, maximumLength: 20) { Self.writeInteger(value, to: $0) }
    }

    /// Writes `text` in quotes, escaping what RFC 8259 requires: `"`, `\` and bytes below 0x20.
    @usableFromInline
    internal mutating func appendQuoted(_ text: String, comma: Bool) {
        var text = text
        text.withUTF8 { utf8 in
            write(afterComma: comma, maximumLength: Self.quotedLength(utf8.count)) { Self.writeQuoted(utf8, to: $0) }
        }
    }

    // MARK: Writing at a pointer

    /// The most bytes `writeInteger` and `writeNumber` write.
    @usableFromInline static let maximumNumberLength = 24

    /// The most bytes `writeQuoted` writes for `count` bytes of text: each may become a six-byte \u00XX escape.
    @inlinable
    static func quotedLength(_ count: Int) -> Int { count * 6 + 2 }

    /// Writes the decimal digits of `value` at `p`; returns how many (at most 20).
    @inlinable
    static func writeInteger(_ value: Int64, to p: UnsafeMutablePointer<UInt8>) -> Int {
        var k = 0
        if value < 0 {
            p[0] = UInt8(ascii: "-")
            k = 1
        }
        var magnitude = value.magnitude
        var digits = 1
        var probe = magnitude
        while probe >= 10 {
            probe /= 10
            digits += 1
        }
        var position = k + digits
        repeat {
            position -= 1
            let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
            p[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remainder)
            magnitude = quotient
        } while magnitude > 0
        return k + digits
    }

    /// Writes `value` at `p` as `value(_: Double)` does: integral values below 2^53 as integers, others in the
    /// shortest form that reads back the same; returns how many bytes (at most 24).
    @inlinable
    static func writeNumber(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        // Truncated through `Int64` (exact below 2^53), not `rounded(.towardZero)`: a call to libm's `trunc` on the
        // x86-64 baseline.
        if value.magnitude < 9_007_199_254_740_992, Double(Int64(value)) == value, value != 0 || value.sign == .plus {
            return writeInteger(Int64(value), to: p)
        }
        return writeDouble(value, to: p)
    }

    /// Writes `value` at `p` in Swift's shortest round-trip form ("172.5", "1e-05", "1e+16", "-0.0", all valid
    /// JSON), or `null` for NaN and infinity; returns how many bytes (at most 24).
    @usableFromInline
    static func writeDouble(_ value: Double, to p: UnsafeMutablePointer<UInt8>) -> Int {
        guard value.isFinite else {
            assertionFailure("NaN or infinity cannot be written as JSON")
            for (k, byte) in "null".utf8.enumerated() { p[k] = byte }
            return 4
        }
        var text = DecimalText(p)
        value.write(to: &text)
        return text.count
    }

    /// Writes `utf8` at `p` in quotes, escaping what RFC 8259 requires; returns how many bytes.
    @usableFromInline
    static func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to p: UnsafeMutablePointer<UInt8>) -> Int {
        p[0] = UInt8(ascii: "\"")
        var k = 1
        for byte in utf8 {
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                p[k] = byte
                k += 1
            } else {
                k += Self.writeEscape(byte, to: p + k)
            }
        }
        p[k] = UInt8(ascii: "\"")
        return k + 1
    }

    // MARK: Private

    /// Writes the escape of one byte that may not appear raw in a string; returns its length.
    private static func writeEscape(_ byte: UInt8, to p: UnsafeMutablePointer<UInt8>) -> Int {
        p[0] = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): p[1] = byte
        case 0x08: p[1] = UInt8(ascii: "b")
        case 0x09: p[1] = UInt8(ascii: "t")
        case 0x0A: p[1] = UInt8(ascii: "n")
        case 0x0C: p[1] = UInt8(ascii: "f")
        case 0x0D: p[1] = UInt8(ascii: "r")
        default:
            let hexDigits: StaticString = "0123456789abcdef"
            p[1] = UInt8(ascii: "u")
            p[2] = UInt8(ascii: "0")
            p[3] = UInt8(ascii: "0")
            p[4] = hexDigits.utf8Start[Int(byte >> 4)]
            p[5] = hexDigits.utf8Start[Int(byte & 0xF)]
            return 6
        }
        return 2
    }
}

/// Receives a number's text straight into the writer's buffer: `Double.write(to:)` hands its digits to
/// `_writeASCII` without making the `String` that `description` allocates for 16 bytes and more (75 → 35 ns).
/// `write(_:)` is there for a standard library that would send a `String` instead: slower, as correct.
@usableFromInline
struct DecimalText: TextOutputStream {
    private let start: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    @usableFromInline private(set) var count = 0

    @usableFromInline
    init(_ start: UnsafeMutablePointer<UInt8>) {
        self.start = start
    }

    @usableFromInline
    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { _writeASCII($0) }
    }

    @usableFromInline
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        // The caller reserved room for the 24 bytes a Double's text needs at most.
        let length = min(buffer.count, 24 - count)
        if let base = buffer.baseAddress { (start + count).update(from: base, count: length) }
        count += length
    }
}
