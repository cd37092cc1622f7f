/// CRC-32C (Castagnoli, the checksum of iSCSI, ext4 metadata and LevelDB's log), in software, slicing by 8.
///
/// Slicing by 8 reads eight bytes per step through eight 256-entry tables, several times as fast as one table
/// lookup per byte, so that checksumming a large snapshot stays small next to writing it.
package enum CRC32C {
    /// The checksum of `bytes`, continuing from `crc` (the checksum of what came before, 0 to start).
    package static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        guard var p = bytes.baseAddress else { return crc }
        var n = bytes.count
        tables.withUnsafeBufferPointer { t in
            while n >= 8 {
                let word = p.loadUnaligned(as: UInt64.self).littleEndian
                let lo = UInt32(truncatingIfNeeded: word) ^ c
                let hi = UInt32(truncatingIfNeeded: word >> 32)
                c =
                    t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[1 * 256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                p += 8
                n -= 8
            }
            while n > 0 {
                c = t[Int((c ^ UInt32(p.load(as: UInt8.self))) & 0xFF)] ^ (c >> 8)
                p += 1
                n -= 1
            }
        }
        return ~c
    }

    /// The checksum of `bytes`.
    package static func checksum<C: Collection<UInt8>>(_ bytes: C) -> UInt32 {
        if let crc = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) { return crc }
        return Array(bytes).withUnsafeBytes { checksum($0) }
    }

    // MARK: Private

    /// Reflected polynomial 0x1EDC6F41.
    private static let polynomial: UInt32 = 0x82F6_3B78

    /// Table k maps a byte to its CRC after k more zero bytes, so eight bytes fold in one step.
    private static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ polynomial : c >> 1 }
            t[i] = c
        }
        for k in 1..<8 {
            for i in 0..<256 {
                let previous = t[(k - 1) * 256 + i]
                t[k * 256 + i] = t[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return t
    }()
}
