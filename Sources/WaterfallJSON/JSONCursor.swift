/// A forward reader over one JSON text of a shape known in advance, token by token, with no tape.
///
/// For a caller that reads the commonest requests in one pass and hands everything else to ``JSONReader``: each
/// read takes only the plainest form of its token (a string of printable ASCII with no escape, a number in strict
/// JSON grammar) and returns nil for anything else, leaving the caller to fall back. What it does return is what a
/// ``JSONDocument`` of the same text gives: numbers go through the same conversions as ``JSONView/int64`` and
/// ``JSONView/double``. It never reads past `bytes`.
@usableFromInline
package struct JSONCursor {
    // MARK: Lifecycle

    /// A cursor at the start of `bytes`, which must stay valid while it is used.
    @inlinable
    package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        // An empty buffer may have no address; with `end` 0 nothing is read from this one.
        base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        end = bytes.count
    }

    // MARK: Package

    /// Where the cursor is, as an offset from the start.
    @inlinable
    package var position: Int { at }

    /// Whether only whitespace is left.
    @inlinable
    package var isAtEnd: Bool {
        mutating get {
            skipSpace()
            return at == end
        }
    }

    /// Takes `byte` after any whitespace; false (nothing taken but the whitespace) when the next byte is another.
    @inlinable
    package mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard at < end, base[at] == byte else { return false }
        at &+= 1
        return true
    }

    /// The bytes of a string of printable ASCII without escapes, after any whitespace, quotes excluded; nil for
    /// any other token (an escape, a control byte or a byte above 0x7E sends the caller to the general reader).
    @inlinable
    package mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = at
        while at < end {
            let byte = base[at]
            if byte == UInt8(ascii: "\"") {
                at &+= 1
                return UnsafeBufferPointer(start: base + start, count: at &- 1 &- start)
            }
            guard byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") else { return nil }
            at &+= 1
        }
        return nil
    }

    /// Takes a plain string equal to `text`; false for any other token.
    @inlinable
    package mutating func take(string text: StaticString) -> Bool {
        guard let bytes = plainString() else { return false }
        return Self.bytes(bytes, are: text)
    }

    /// The value of an integer (strict grammar, no fraction or exponent) within Int64, after any whitespace.
    @inlinable
    package mutating func integer() -> Int64? {
        skipSpace()
        if let value = shortDigits() { return value }
        guard let token = numberToken(), token.isInteger else { return nil }
        let p = base + token.start
        let length = at &- token.start
        if length <= JSONNumber.shortIntegerLength { return JSONNumber.shortInteger(p, length: length) }
        return JSONNumber.int64(UnsafeBufferPointer(start: p, count: length))
    }

    /// The correctly rounded value of a number in strict JSON grammar, after any whitespace; nil for one beyond
    /// the range of a `Double`, which ``JSONReader`` refuses.
    @inlinable
    package mutating func number() -> Double? {
        skipSpace()
        if let value = shortDigits() { return Double(value) }
        guard let token = numberToken() else { return nil }
        let p = base + token.start
        let length = at &- token.start
        // As `JSONView.double`: a short integer converts exactly, and `-0` stays -0.0.
        if token.isInteger && length <= JSONNumber.exactIntegerLength {
            let value = JSONNumber.shortInteger(p, length: length)
            return value == 0 && p[0] == UInt8(ascii: "-") ? -0.0 : Double(value)
        }
        let value = JSONNumber.double(UnsafeBufferPointer(start: p, count: length))
        return value.isFinite ? value : nil
    }

    /// Reads an object, after any whitespace, calling `member` with each key (a plain string, as `plainString`
    /// takes) and the cursor after its colon, to read the value; false when `member` refuses one (returns false),
    /// or the bytes are not an object.
    @inlinable
    package mutating func object(_ member: (UnsafeBufferPointer<UInt8>, inout JSONCursor) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        repeat {
            guard let key = plainString(), take(UInt8(ascii: ":")), member(key, &self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// Reads an array, after any whitespace, calling `element` with the cursor at each element; false when
    /// `element` refuses one, or the bytes are not an array.
    @inlinable
    package mutating func array(_ element: (inout JSONCursor) -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            guard element(&self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }

    /// Reads a member's value into `slot` with `read`, once: false when `slot` is already set (the member came
    /// before: the general reader says what a repeated key is) or `read` gives nil.
    @inlinable
    package mutating func once<T>(_ slot: inout T?, _ read: (inout JSONCursor) -> T?) -> Bool {
        guard slot == nil else { return false }
        slot = read(&self)
        return slot != nil
    }

    /// Whether `bytes` (a key `object` passed) are those of `text`.
    @inlinable
    package static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, are text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount && equal(bytes.baseAddress!, text.utf8Start, bytes.count)
    }

    /// `true` or `false`, after any whitespace.
    @inlinable
    package mutating func bool() -> Bool? {
        skipSpace()
        if matches("true") {
            at &+= 4
            return true
        }
        if matches("false") {
            at &+= 5
            return false
        }
        return nil
    }

    // MARK: Internal

    @usableFromInline let base: UnsafePointer<UInt8>
    @usableFromInline let end: Int
    @usableFromInline var at = 0

    /// Moves past any whitespace.
    @inlinable
    package mutating func skipSpace() {
        while at < end {
            switch base[at] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): at &+= 1
            default: return
            }
        }
    }

    /// Whether the bytes at the cursor are `literal` followed by something that cannot continue it.
    @inlinable
    func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end &- at >= count, Self.equal(base + at, literal.utf8Start, count) else { return false }
        return at &+ count == end || !Self.isLetter(base[at &+ count])
    }

    /// Reads a number in strict JSON grammar, `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, and leaves the
    /// cursor after it; nil (cursor anywhere) when the bytes are not one, or run on into letters or digits.
    @inlinable
    mutating func numberToken() -> (start: Int, isInteger: Bool)? {
        skipSpace()
        let start = at
        if at < end && base[at] == UInt8(ascii: "-") { at &+= 1 }
        guard at < end else { return nil }
        if base[at] == UInt8(ascii: "0") {
            at &+= 1
        } else {
            guard Self.isDigit(base[at]) else { return nil }
            skipDigits()
        }
        var isInteger = true
        if at < end && base[at] == UInt8(ascii: ".") {
            at &+= 1
            guard at < end && Self.isDigit(base[at]) else { return nil }
            skipDigits()
            isInteger = false
        }
        if at < end && (base[at] == UInt8(ascii: "e") || base[at] == UInt8(ascii: "E")) {
            at &+= 1
            if at < end && (base[at] == UInt8(ascii: "+") || base[at] == UInt8(ascii: "-")) { at &+= 1 }
            guard at < end && Self.isDigit(base[at]) else { return nil }
            skipDigits()
            isInteger = false
        }
        // `01`, `1.5.2` or `12a` are not numbers followed by something else: the general reader says what.
        guard at == end || !(Self.isDigit(base[at]) || Self.isLetter(base[at]) || base[at] == UInt8(ascii: ".")) else {
            return nil
        }
        return (start, isInteger)
    }

    @inlinable
    mutating func skipDigits() {
        while at < end && Self.isDigit(base[at]) { at &+= 1 }
    }

    @inlinable
    static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        var k = 0
        while k < count {
            guard a[k] == b[k] else { return false }
            k &+= 1
        }
        return true
    }

    @inlinable
    static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    @inlinable
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
}
