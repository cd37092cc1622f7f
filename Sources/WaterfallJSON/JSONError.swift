/// Why a line is not acceptable JSON, and the byte offset (from 0, in the parsed input) where that was found.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong; stable, so callers and tests can switch on it.
    public enum Reason: Sendable, Equatable {
        /// The input has no value at all: it is empty or whitespace only.
        case empty
        /// The input ended inside a value.
        case unexpectedEnd
        /// A byte that cannot start or continue what was expected here (includes a BOM and trailing content).
        case unexpectedByte(UInt8)
        /// A string contains bytes that are not well-formed UTF-8 (overlong, surrogate, too large, truncated).
        case invalidUTF8
        /// A string contains a raw control character (below 0x20); it must be escaped.
        case controlCharacter(UInt8)
        /// A backslash is followed by something other than `" \ / b f n r t u` and four hex digits.
        case invalidEscape
        /// A `\u` escape is a surrogate that is not part of a high-low pair; such a string has no Unicode value.
        case loneSurrogate
        /// A number does not follow `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
        case invalidNumber
        /// A number is too large in magnitude for a `Double`; the protocol cannot carry infinity.
        case numberOutOfRange
        /// Arrays and objects are nested deeper than the reader's limit.
        case nestingTooDeep(limit: Int)
        /// An object has the same key twice; the wire protocol gives no meaning to either one.
        case duplicateKey(String)
        /// The input is longer than the 4 GiB a document can address.
        case tooLarge
    }

    // MARK: Lifecycle

    /// An error for `reason` found at byte `offset` of the input.
    package init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    // MARK: Public

    /// What went wrong.
    public let reason: Reason
    /// Where, counted in bytes from the start of the parsed input (0 is the first byte).
    public let offset: Int

    /// A short sentence for people: "unexpected ']' at byte 4".
    public var description: String {
        switch reason {
        case .empty: "no JSON value in the input"
        case .unexpectedEnd: "unexpected end of input at byte \(offset)"
        case .unexpectedByte(let byte): "unexpected \(Self.describe(byte)) at byte \(offset)"
        case .invalidUTF8: "invalid UTF-8 at byte \(offset)"
        case .controlCharacter(let byte): "unescaped control character \(Self.describe(byte)) at byte \(offset)"
        case .invalidEscape: "invalid escape at byte \(offset)"
        case .loneSurrogate: "unpaired surrogate escape at byte \(offset)"
        case .invalidNumber: "invalid number at byte \(offset)"
        case .numberOutOfRange: "number out of range at byte \(offset)"
        case .nestingTooDeep(let limit): "nesting deeper than \(limit) at byte \(offset)"
        case .duplicateKey(let key): "duplicate key \(Self.quote(key)) at byte \(offset)"
        case .tooLarge: "input larger than 4 GiB"
        }
    }

    // MARK: Private

    /// A printable ASCII byte in quotes (`']'`), anything else in hex (`0xC3`), so messages stay one clean line.
    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        let hex = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0x0\(hex)" : "0x\(hex)"
    }

    /// The key as a JSON string literal, so a key with quotes or controls cannot garble the message.
    private static func quote(_ key: String) -> String {
        var writer = JSONWriter(capacity: key.utf8.count + 2)
        writer.value(key)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
