/// Reads what `ByteWriter` writes from a buffer, throwing `FormatError.malformed` (naming the absolute offset and
/// the field) instead of reading past the end.
package struct ByteReader {
    /// Where `buffer` starts in its file, so that errors name file offsets.
    package let base: Int
    package internal(set) var offset = 0
    private let buffer: UnsafeRawBufferPointer

    package init(_ buffer: UnsafeRawBufferPointer, base: Int = 0) {
        self.buffer = buffer
        self.base = base
    }

    package var isAtEnd: Bool { offset == buffer.count }
    package var remaining: Int { buffer.count - offset }

    /// The error for field `what` at the current offset.
    package func malformed(_ what: String) -> FormatError {
        .malformed(offset: base + offset, what: what)
    }

    /// The next byte, not read; nil at the end.
    @inline(__always)
    func peekU8() -> UInt8? {
        offset < buffer.count ? buffer[offset] : nil
    }

    @inline(__always)
    package mutating func u8(_ what: @autoclosure () -> String) throws(FormatError) -> UInt8 {
        guard offset < buffer.count else { throw malformed("\(what()) past the end") }
        defer { offset += 1 }
        return buffer[offset]
    }

    package mutating func u16(_ what: @autoclosure () -> String) throws(FormatError) -> UInt16 {
        guard remaining >= 2 else { throw malformed("\(what()) past the end") }
        defer { offset += 2 }
        return UInt16(buffer[offset]) | UInt16(buffer[offset + 1]) << 8
    }

    package mutating func u32(_ what: @autoclosure () -> String) throws(FormatError) -> UInt32 {
        guard remaining >= 4 else { throw malformed("\(what()) past the end") }
        defer { offset += 4 }
        return UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    @inline(__always)
    package mutating func u64(_ what: @autoclosure () -> String) throws(FormatError) -> UInt64 {
        guard remaining >= 8 else { throw malformed("\(what()) past the end") }
        defer { offset += 8 }
        return UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    @inline(__always)
    package mutating func varint(_ what: @autoclosure () -> String) throws(FormatError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while offset < buffer.count {
            let byte = buffer[offset]
            offset += 1
            guard shift < 64 else { break }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
        throw malformed("\(what()) is not a varint")
    }

    @inline(__always)
    package mutating func int(_ what: @autoclosure () -> String) throws(FormatError) -> Int {
        let z = try varint(what())
        return Int(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))))
    }

    /// A count, at most `limit` (so that a damaged count cannot make a reader reserve memory without bound).
    package mutating func count(_ what: @autoclosure () -> String, limit: Int) throws(FormatError) -> Int {
        let start = offset
        let v = try varint(what())
        guard v <= UInt64(limit) else {
            throw .malformed(offset: base + start, what: "\(what()) \(v) is more than \(limit)")
        }
        return Int(v)
    }

    @inline(__always)
    package mutating func double(_ what: @autoclosure () -> String) throws(FormatError) -> Double {
        Double(bitPattern: try u64(what()))
    }

    package mutating func bool(_ what: @autoclosure () -> String) throws(FormatError) -> Bool {
        switch try u8(what()) {
        case 0: return false
        case 1: return true
        case let v: throw malformed("\(what()) is \(v), not 0 or 1")
        }
    }

    package mutating func string(_ what: @autoclosure () -> String) throws(FormatError) -> String {
        let n = try count(what(), limit: remaining)
        defer { offset += n }
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + n]), as: UTF8.self)
    }
}
