/// The framing every stored file shares: an 8-byte header (magic, format version, reserved), then records, each
/// `length` (4 bytes), `CRC-32C` (4 bytes, over the length's bytes and the payload) and the payload.
///
/// The checksum covers the length so that a run of zeros (a file extended but never written, as a crash can
/// leave on ext4) is not a valid empty record.
package enum RecordFile {
    /// The format version this build writes and reads.
    package static let version: UInt16 = 1
    package static let headerSize = 8
    /// Length and checksum before each payload.
    package static let frameOverhead = 8

    /// What a file holds, by its magic.
    package enum Kind: Sendable {
        case journal
        case snapshot

        var magic: [UInt8] { self == .journal ? Array("WFJL".utf8) : Array("WFSN".utf8) }
        var name: String { self == .journal ? "waterfall journal" : "waterfall snapshot" }
    }

    /// The header of a new file of `kind`.
    package static func header(_ kind: Kind, version: UInt16 = version) -> [UInt8] {
        var w = ByteWriter(capacity: headerSize)
        w.bytes.append(contentsOf: kind.magic)
        w.u16(version)
        w.u16(0)
        return w.bytes
    }

    /// Checks the header of a file of `kind`.
    ///
    /// - Throws: `FormatError.badMagic`, `.truncated` or `.unsupportedVersion` (naming the version found).
    package static func checkHeader(_ file: UnsafeRawBufferPointer, _ kind: Kind) throws(FormatError) {
        guard file.count >= headerSize else { throw .truncated(offset: 0) }
        guard Array(file[0..<4]) == kind.magic else { throw .badMagic(expected: kind.name, offset: 0) }
        let found = UInt16(file[4]) | UInt16(file[5]) << 8
        guard found == version else { throw .unsupportedVersion(found: found, supported: version) }
    }

    /// Frames the payload `body` writes and appends it to `w`.
    package static func append(to w: inout ByteWriter, _ body: (inout ByteWriter) -> Void) {
        let start = beginRecord(&w)
        body(&w)
        endRecord(&w, startedAt: start)
    }

    /// Reserves a record's frame in `w` and returns where it starts; the payload follows, then `endRecord`.
    package static func beginRecord(_ w: inout ByteWriter) -> Int {
        let start = w.bytes.count
        w.u32(0)
        w.u32(0)
        return start
    }

    /// Fills in the frame of the record begun at `start` with the length and checksum of what follows it.
    package static func endRecord(_ w: inout ByteWriter, startedAt start: Int) {
        let length = w.bytes.count - start - frameOverhead
        precondition(length > 0 && length <= Int(UInt32.max), "a record's payload is 1 byte to 4 GB")
        w.patch(u32: UInt32(length), at: start)
        let crc = w.bytes.withUnsafeBytes { all in
            let lengthCRC = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: all[start..<start + 4]))
            return CRC32C.checksum(
                UnsafeRawBufferPointer(rebasing: all[(start + frameOverhead)...]), continuing: lengthCRC)
        }
        w.patch(u32: crc, at: start + 4)
    }

    /// The records from `start` on: their payload ranges, where the last valid one ends, and why the scan stopped
    /// before the end of `file`, if it did.
    package static func scan(_ file: UnsafeRawBufferPointer, from start: Int = headerSize) -> RecordScan {
        var scan = RecordScan(payloads: [], end: start, problem: nil)
        var offset = start
        while offset < file.count {
            switch frame(in: file, at: offset) {
            case .success(let payload):
                scan.payloads.append(payload)
                offset = payload.upperBound
                scan.end = offset
            case .failure(let problem):
                scan.problem = problem
                scan.isTorn = !hasValidRecord(in: file, after: offset)
                return scan
            }
        }
        return scan
    }

    // MARK: Private

    /// The payload range of the record at `offset`, or why there is none.
    private static func frame(in file: UnsafeRawBufferPointer, at offset: Int) -> Result<Range<Int>, FormatError> {
        guard file.count - offset >= frameOverhead else { return .failure(.truncated(offset: offset)) }
        let length = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        let stored = UInt32(littleEndian: file.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
        guard length > 0 else { return .failure(.malformed(offset: offset, what: "record length 0")) }
        let payload = offset + frameOverhead..<offset + frameOverhead + length
        guard payload.upperBound <= file.count else { return .failure(.truncated(offset: offset)) }
        let lengthCRC = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: file[offset..<offset + 4]))
        let crc = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: file[payload]), continuing: lengthCRC)
        guard crc == stored else { return .failure(.checksum(offset: offset)) }
        return .success(payload)
    }

    /// Whether a valid record starts anywhere after `offset`: if one does, the bad record is damage in the middle
    /// of the file, not the torn end of its last write.
    ///
    /// At most 64 MB of candidates are checksummed; past that the answer is yes, so that a file too big to search
    /// is refused (and left to `repair`) rather than cut.
    private static func hasValidRecord(in file: UnsafeRawBufferPointer, after offset: Int) -> Bool {
        var budget = 64 << 20
        var candidate = offset + 1
        while candidate + frameOverhead < file.count {
            let length = Int(UInt32(littleEndian: file.loadUnaligned(fromByteOffset: candidate, as: UInt32.self)))
            if length > 0, length <= file.count - candidate - frameOverhead {
                budget -= length
                if budget < 0 { return true }
                if case .success = frame(in: file, at: candidate) { return true }
            }
            candidate += 1
        }
        return false
    }
}

/// What `RecordFile.scan` found.
package struct RecordScan: Sendable {
    /// The byte ranges of the valid payloads, in order.
    package var payloads: [Range<Int>]
    /// Where the last valid record ends: the length of the longest valid prefix.
    package var end: Int
    /// Why the scan stopped before the end of the file; nil when every byte was read.
    package var problem: FormatError?
    /// With a problem: whether nothing valid follows it, so it is a torn last write to cut off rather than damage.
    package var isTorn = false
}
