import WaterfallJSON

/// Typed, strict access to one JSON object of a request: every read names the field's full path in its error, and
/// `finish()` rejects any member nobody read, so a typo never passes silently.
///
/// It copies nothing out of the document and builds no string unless a request fails: a million-item insert reads
/// a million of these, and a path string per item would cost more than the parse.
public struct Params {
    private let object: JSONNode?
    /// Bit k is set once member k has been read; objects of more than 64 members are refused by `finish()`.
    private var used: UInt64 = 0
    private let parent: String
    private let index: Int

    // MARK: Lifecycle

    /// Wraps `node`, which must be an object (nil stands for an absent params object: empty).
    public init(_ node: JSONNode?, path: String) throws(ProtocolError) {
        try self.init(node, parent: path, index: -1)
    }

    /// Wraps element `index` of the array at `parent`, e.g. `params.items` and 3 for `params.items[3]`.
    public init(_ node: JSONNode?, in parent: String, at index: Int) throws(ProtocolError) {
        try self.init(node, parent: parent, index: index)
    }

    private init(_ node: JSONNode?, parent: String, index: Int) throws(ProtocolError) {
        self.parent = parent
        self.index = index
        object = node
        if let node, node.kind != .object {
            throw .badParams(path, "must be an object, not \(node.kind)")
        }
    }

    // MARK: Public

    /// The object's path in the request, e.g. `params` or `params.items[3]`.
    public var path: String { index < 0 ? parent : "\(parent)[\(index)]" }

    /// Whether the object has `key` (even as null).
    public func contains(_ key: StaticString) -> Bool {
        object?[key] != nil
    }

    /// The raw node of `key`, marking it read; nil when absent.
    public mutating func node(_ key: StaticString) -> JSONNode? {
        guard let (position, value) = object?.positionedMember(key) else { return nil }
        if position < 64 { used |= 1 << UInt64(position) }
        return value
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
        return try Self.int(node, self.field(key))
    }

    public mutating func double(_ key: StaticString) throws(ProtocolError) -> Double {
        guard let value = try optionalDouble(key) else { throw .badParams(field(key), "missing") }
        return value
    }

    public mutating func optionalDouble(_ key: StaticString) throws(ProtocolError) -> Double? {
        guard let node = node(key), !node.isNull else { return nil }
        return try Self.double(node, self.field(key))
    }

    public mutating func optionalBool(_ key: StaticString) throws(ProtocolError) -> Bool? {
        guard let node = node(key), !node.isNull else { return nil }
        guard node.kind == .bool, let value = node.bool else { throw wrongType(key, node, "true or false") }
        return value
    }

    /// The elements of array `key`, read in place (no array of nodes is built).
    public mutating func array(_ key: StaticString) throws(ProtocolError) -> JSONNode.Elements {
        guard let node = node(key), !node.isNull else { throw .badParams(field(key), "missing") }
        guard node.kind == .array else { throw wrongType(key, node, "an array") }
        return node.elements
    }

    /// Rejects the first member that no accessor read.
    public func finish() throws(ProtocolError) {
        guard let object else { return }
        let count = object.count
        if count < 64 && used == (UInt64(1) << UInt64(count)) - 1 { return }
        var k = 0
        for (name, _) in object.members {
            if k >= 64 || used & (1 << UInt64(k)) == 0 {
                throw .badParams("\(path).\(name.string ?? "?")", "unknown field")
            }
            k += 1
        }
    }

    // MARK: Internal

    static func int(_ node: JSONNode, _ field: @autoclosure () -> String) throws(ProtocolError) -> Int {
        guard node.kind == .number else {
            throw .badParams(field(), "must be an integer, not \(node.kind) \(Request.text(node))")
        }
        guard let value = node.int64 else {
            throw .badParams(field(), "\(Request.text(node)) is not an integer in range")
        }
        return Int(value)
    }

    static func double(_ node: JSONNode, _ field: @autoclosure () -> String) throws(ProtocolError) -> Double {
        guard node.kind == .number, let value = node.double else {
            throw .badParams(field(), "must be a number, not \(node.kind) \(Request.text(node))")
        }
        return value
    }

    private func wrongType(_ key: StaticString, _ node: JSONNode, _ expected: String) -> ProtocolError {
        .badParams(field(key), "must be \(expected), not \(node.kind) \(Request.text(node))")
    }
}
