/// Appends the little-endian, varint and compact-number encodings the storage formats are made of.
package struct ByteWriter: Sendable {
    package var bytes: [UInt8]

    package init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Room for `count` more bytes, growing at least twofold: `reserveCapacity` alone grows to exactly what is
    /// asked, so reserving before each of a record's many sections would copy the whole buffer every time.
    package mutating func reserve(_ count: Int) {
        let needed = bytes.count + count
        if needed > bytes.capacity { bytes.reserveCapacity(max(needed, 2 * bytes.capacity)) }
    }

    @inline(__always)
    package mutating func u8(_ v: UInt8) { bytes.append(v) }

    package mutating func u16(_ v: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: v))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
    }

    package mutating func u32(_ v: UInt32) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    @inline(__always)
    package mutating func u64(_ v: UInt64) {
        withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// LEB128: 7 bits per byte, low first; 1 byte below 128.
    @inline(__always)
    package mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// A signed integer, zigzag-mapped so that small negatives are short too.
    @inline(__always)
    package mutating func int(_ v: Int) {
        let v = Int64(v)
        varint(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
    }

    /// The exact bit pattern, 8 bytes.
    @inline(__always)
    package mutating func double(_ v: Double) { u64(v.bitPattern) }

    package mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }

    /// UTF-8 bytes after their count.
    package mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Overwrites 4 bytes at `offset` (a length or checksum filled in after what it covers is written).
    package mutating func patch(u32 v: UInt32, at offset: Int) {
        for k in 0..<4 { bytes[offset + k] = UInt8(truncatingIfNeeded: v >> (8 * k)) }
    }
}
