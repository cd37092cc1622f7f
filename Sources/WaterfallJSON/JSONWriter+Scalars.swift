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

    /// The most bytes `writeQuoted` writes for `count` bytes of text: each may become a six-byte \u00XX escape.
    @inlinable
    static func quotedLength(_ count: Int) -> Int { count * 6 + 2 }

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
