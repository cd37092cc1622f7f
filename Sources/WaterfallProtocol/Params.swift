import WaterfallJSON

/// Typed, strict access to one JSON object of a request: every read names the field's full path in its error, and
/// `finish()` rejects any member nobody read, so a typo never passes silently.
public struct Params {
    private var members: [(key: JSONNode, value: JSONNode, used: Bool)]
    /// The object's path in the request, e.g. `params` or `params.items[3]`.
    public let path: String

    // MARK: Lifecycle

    /// Wraps `node`, which must be an object (nil stands for an absent params object: empty).
    public init(_ node: JSONNode?, path: String) throws(ProtocolError) {
        self.path = path
        guard let node else {
            members = []
            return
        }
        guard node.kind == .object else { throw .badParams(path, "must be an object, not \(node.kind)") }
        members = node.members.map { ($0.key, $0.value, false) }
    }

    // MARK: Public

    /// Whether the object has `key` (even as null).
    public func contains(_ key: StaticString) -> Bool {
        members.contains { $0.key.isEqual(toKey: key) }
    }

    /// The raw node of `key`, marking it read; nil when absent.
    public mutating func node(_ key: StaticString) -> JSONNode? {
        for k in members.indices where members[k].key.isEqual(toKey: key) {
            members[k].used = true
            return members[k].value
        }
        return nil
    }

    /// The path of member `key`.
    public func field(_ key: StaticString) -> String { "\(path).\(key)" }

    public mutating func string(_ key: StaticString) throws(ProtocolError) -> String {
        guard let value = try optionalString(key) else { throw .badParams(field(key), "missing") }
        return value
    }

    public mutating func optionalString(_ key: StaticString) throws(ProtocolError) -> String? {
        guard let node = node(key), !node.isNull else { return nil }
        guard node.kind == .string, let value = node.string else { throw wrongType(key, node, "a string") }
        return value
    }

    public mutating func int(_ key: StaticString) throws(ProtocolError) -> Int {
        guard let value = try optionalInt(key) else { throw .badParams(field(key), "missing") }
        return value
    }

    public mutating func optionalInt(_ key: StaticString) throws(ProtocolError) -> Int? {
        guard let node = node(key), !node.isNull else { return nil }
        return try Self.int(node, field(key))
    }

    public mutating func double(_ key: StaticString) throws(ProtocolError) -> Double {
        guard let value = try optionalDouble(key) else { throw .badParams(field(key), "missing") }
        return value
    }

    public mutating func optionalDouble(_ key: StaticString) throws(ProtocolError) -> Double? {
        guard let node = node(key), !node.isNull else { return nil }
        return try Self.double(node, field(key))
    }

    public mutating func optionalBool(_ key: StaticString) throws(ProtocolError) -> Bool? {
        guard let node = node(key), !node.isNull else { return nil }
        guard node.kind == .bool, let value = node.bool else { throw wrongType(key, node, "true or false") }
        return value
    }

    /// The elements of array `key`.
    public mutating func array(_ key: StaticString) throws(ProtocolError) -> [JSONNode] {
        guard let node = node(key), !node.isNull else { throw .badParams(field(key), "missing") }
        guard node.kind == .array else { throw wrongType(key, node, "an array") }
        return Array(node.elements)
    }

    /// Rejects the first member that no accessor read.
    public func finish() throws(ProtocolError) {
        for member in members where !member.used {
            throw .badParams("\(path).\(member.key.string ?? "?")", "unknown field")
        }
    }

    // MARK: Internal

    static func int(_ node: JSONNode, _ field: String) throws(ProtocolError) -> Int {
        guard node.kind == .number else {
            throw .badParams(field, "must be an integer, not \(node.kind) \(Request.text(node))")
        }
        guard let value = node.int64 else {
            throw .badParams(field, "\(Request.text(node)) is not an integer in range")
        }
        return Int(value)
    }

    static func double(_ node: JSONNode, _ field: String) throws(ProtocolError) -> Double {
        guard node.kind == .number, let value = node.double else {
            throw .badParams(field, "must be a number, not \(node.kind) \(Request.text(node))")
        }
        return value
    }

    private func wrongType(_ key: StaticString, _ node: JSONNode, _ expected: String) -> ProtocolError {
        .badParams(field(key), "must be \(expected), not \(node.kind) \(Request.text(node))")
    }
}
