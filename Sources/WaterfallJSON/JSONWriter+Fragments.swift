/// A run of JSON text written straight into a `JSONWriter`'s buffer, in room reserved once for all of it.
///
/// For the hot values of fixed shape (an item's frame, a reply's envelope): written call by call, a frame of five
/// numbers costs a dozen writer calls, each with its room check and comma bookkeeping; as a fragment it is one. The caller writes the punctuation and keys itself, and must stay within the room it asked for.
@_spi(Package) public struct JSONFragment {
    @usableFromInline let start: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    @usableFromInline var count = 0

    @usableFromInline
    init(_ start: UnsafeMutablePointer<UInt8>) {
        self.start = start
    }

    /// The room `number` or `integer` needs at most.
    public static let numberLength = JSONWriter.maximumNumberLength

    /// The room `string` needs at most for `text`.
    @inlinable
    public static func stringLength(_ text: String) -> Int { JSONWriter.quotedLength(text.utf8.count) }

    /// Copies `text`: punctuation and keys that need no escaping, such as `,"x":`.
    @inlinable @inline(__always)
    public mutating func text(_ text: StaticString) {
        let length = text.utf8CodeUnitCount
        // Short constants: a loop beats a call to memmove.
        for k in 0..<length { start[count + k] = text.utf8Start[k] }
        count += length
    }

    /// Writes an integer in decimal.
    @inlinable @inline(__always)
    public mutating func integer(_ value: Int) {
        count += JSONWriter.writeInteger(Int64(value), to: start + count)
    }

    /// Writes a number as `JSONWriter.value(_: Double)` does.
    @inlinable @inline(__always)
    public mutating func number(_ value: Double) {
        count += JSONWriter.writeNumber(value, to: start + count)
    }

    /// Copies `bytes` verbatim: text that already is valid JSON, such as members formatted once for many fragments.
    /// The room needed is `bytes.count`.
    @inlinable @inline(__always)
    public mutating func bytes(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        UnsafeMutableRawPointer(start + count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    /// Writes `value` as a JSON string, escaped.
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { count += JSONWriter.writeQuoted($0, to: start + count) }
    }
}

extension JSONWriter {
    /// Writes one or more values or members of the open container (or a top-level value), with the comma that
    /// may go before them: `body` writes their whole text, in at most `maximumLength` bytes.
    @inlinable
    public mutating func fragment(maximumLength: Int, _ body: (inout JSONFragment) -> Void) {
        write(afterComma: separate(), maximumLength: maximumLength) { p in
            var fragment = JSONFragment(p)
            body(&fragment)
            precondition(fragment.count <= maximumLength, "a fragment wrote past the room it asked for")
            return fragment.count
        }
    }

    /// `fragment` whose text ends with a key (`"diff":`): the value that comes next gets no comma.
    @inlinable
    public mutating func keyFragment(maximumLength: Int, _ body: (inout JSONFragment) -> Void) {
        fragment(maximumLength: maximumLength, body)
        isAfterKey = true
    }
}
