/// A plain tree of JSON values, for tests, configuration and rare paths; hot paths use ``JSONNode``.
///
/// Objects keep their members in order. Numbers are `.int` when the input was an integer in Int64 range and
/// `.double` otherwise; equality compares numbers by mathematical value, so `.int(120) == .double(120)` (the
/// writer prints an integral double as an integer, and a round trip must compare equal).
public enum JSONValue: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in Int64.
    case int(Int64)
    /// Any other number; never NaN or infinite when it comes from the reader.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object's members in order.
    case object([(key: String, value: JSONValue)])

    // MARK: Lifecycle

    /// Parses `text` into a tree.
    public init(parsing text: String, maximumDepth: Int = 64) throws(JSONError) {
        self = try JSONDocument(parsing: text, maximumDepth: maximumDepth).root.value
    }

    /// Parses `bytes` into a tree.
    public init(parsing bytes: ArraySlice<UInt8>, maximumDepth: Int = 64) throws(JSONError) {
        self = try JSONDocument(parsing: bytes, maximumDepth: maximumDepth).root.value
    }

    // MARK: Public

    /// The value of the first member named `key`, if this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The JSON text of the value, without whitespace.
    public var jsonText: String {
        var writer = JSONWriter()
        writer.write(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

// MARK: Equatable

extension JSONValue: Equatable {
    /// Structural equality; numbers compare by value across `.int` and `.double`, object members in order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): return Int64(exactly: b) == a
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }
}

// MARK: CustomStringConvertible

extension JSONValue: CustomStringConvertible {
    /// The JSON text, so test failures print readable values.
    public var description: String { jsonText }
}
