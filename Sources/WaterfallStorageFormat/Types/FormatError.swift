/// Why stored bytes cannot be read; each case names the byte offset at fault, from the start of the file.
package enum FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file does not start with this format's magic (it is not one of our files, or not of this kind).
    case badMagic(expected: String, offset: Int)
    /// The file was written in a format version this build does not read.
    case unsupportedVersion(found: UInt16, supported: UInt16)
    /// The bytes end inside a record (the last write was torn, or the file was cut).
    case truncated(offset: Int)
    /// A record's checksum does not match its bytes.
    case checksum(offset: Int)
    /// A record's contents are not a valid encoding: `what` says which field.
    case malformed(offset: Int, what: String)

    package var description: String {
        switch self {
        case .badMagic(let expected, let offset):
            return "at byte \(offset): not a \(expected) file (bad magic)"
        case .unsupportedVersion(let found, let supported):
            return "format version \(found) is not supported (this build reads version \(supported))"
        case .truncated(let offset):
            return "at byte \(offset): the file ends inside a record"
        case .checksum(let offset):
            return "at byte \(offset): the record's checksum does not match"
        case .malformed(let offset, let what):
            return "at byte \(offset): malformed record (\(what))"
        }
    }

    /// The offset the error names, if any.
    package var offset: Int? {
        switch self {
        case .badMagic(_, let offset), .truncated(let offset), .checksum(let offset), .malformed(let offset, _):
            return offset
        case .unsupportedVersion:
            return 0
        }
    }
}
