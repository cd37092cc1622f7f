/// The kind of one JSON value, as stored on a document's tape.
public enum JSONKind: UInt8, Sendable, Hashable, CustomStringConvertible {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool
    /// A number in the RFC 8259 grammar; read it with `int64` or `double`.
    case number
    /// A string; its bytes are validated UTF-8 and its escapes are well formed.
    case string
    /// An array of values.
    case array
    /// An object of string keys and values, in input order, without duplicate keys.
    case object

    /// The JSON name of the kind, for error messages ("expected object, got array").
    public var description: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
