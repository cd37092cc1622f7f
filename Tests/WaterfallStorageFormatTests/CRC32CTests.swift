import Testing
import WaterfallStorageFormat

@Suite struct CRC32CTests {
    /// RFC 3720 B.4's vectors and the usual check value of "123456789".
    @Test(arguments: [
        ("check", Array("123456789".utf8), UInt32(0xE306_9283)),
        ("32 zeros", [UInt8](repeating: 0, count: 32), 0x8A91_36AA),
        ("32 ones", [UInt8](repeating: 0xFF, count: 32), 0x62A8_AB43),
        ("ascending", (0..<32).map { UInt8($0) }, 0x46DD_794E),
        ("descending", (0..<32).map { UInt8(31 - $0) }, 0x113F_DB5C),
        ("empty", [], 0),
    ])
    func knownVectors(name: String, bytes: [UInt8], expected: UInt32) {
        #expect(CRC32C.checksum(bytes) == expected, "\(name)")
    }

    /// Slicing by 8 must agree with itself at every split and alignment: the checksum of a buffer equals the
    /// checksum continued piece by piece.
    @Test func continuationEqualsWhole() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        let whole = CRC32C.checksum(bytes)
        bytes.withUnsafeBytes { all in
            for split in [0, 1, 3, 7, 8, 9, 500, 999, 1000] {
                let first = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: all[..<split]))
                let both = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: all[split...]), continuing: first)
                #expect(both == whole, "split at \(split)")
            }
        }
    }
}
