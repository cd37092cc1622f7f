@_spi(Package) import WaterfallJSON

/// Typed, strict access to one JSON object of a request: every read names the field's full path in its error, and
/// `finish()` rejects any member nobody read, so a typo never passes silently.
///
/// It copies nothing out of the document and builds no string unless a request fails: a million-item insert reads
/// a million of these, and a path string per item would cost more than the parse. Reads go through a `JSONView`
/// (raw pointers) while `owner` keeps the document alive, so a read costs no reference counting.
///
/// The readers the server calls per request are `@inlinable`, with the stored properties they touch
/// `@usableFromInline`: called across the module boundary, each would pay a call chain and, for the initializer, a
/// thunk that copies the 80-byte value through memory. Error paths stay out of line.
@usableFromInline
package struct Params {
    // The initializers live in an extension and values are made with the synthesized memberwise initializer: with
    // an initializer written here, the optimizer built each value in a temporary and copied it out (see `Request`).

    /// Any node of the document, held so that `object` stays valid as long as this value; nil when absent.
    @usableFromInline let owner: JSONNode?
    /// The object itself; nil stands for an absent params object (empty).
    @usableFromInline let object: JSONView?
    /// Bit k is set once member k has been read; objects of more than 64 members are refused by `finish()`.
    @usableFromInline var used: UInt64 = 0
    @usableFromInline let parent: String
    @usableFromInline let index: Int
}

extension Params {
    // MARK: Lifecycle

    /// Wraps `node`, which must be an object (nil stands for an absent params object: empty).
    @inlinable @inline(__always)
    package init(_ node: JSONNode?, path: String) throws(ProtocolError) {
        self = try makeParams(node?.unsafeView, owner: node, parent: path, index: -1)
    }

    /// Wraps element `index` of the array at `parent`, e.g. `params.items` and 3 for `params.items[3]`.
    @inlinable @inline(__always)
    package init(_ node: JSONNode?, in parent: String, at index: Int) throws(ProtocolError) {
        self = try makeParams(node?.unsafeView, owner: node, parent: parent, index: index)
    }

    // MARK: Package

    /// The object's path in the request, e.g. `params` or `params.items[3]`.
    package var path: String { index < 0 ? parent : "\(parent)[\(index)]" }

    /// Whether the object has `key` (even as null).
    package func contains(_ key: StaticString) -> Bool {
        object?[key] != nil
    }

    /// The raw node of `key`, marking it read; nil when absent.
    package mutating func node(_ key: StaticString) -> JSONNode? {
        guard let value = view(key) else { return nil }
        return owner?.node(for: value)
    }

    /// The path of member `key`.
    @usableFromInline package func field(_ key: StaticString) -> String { "\(path).\(key)" }

    @inlinable @inline(__always)
    package mutating func string(_ key: StaticString) throws(ProtocolError) -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    @inlinable @inline(__always)
    package mutating func optionalString(_ key: StaticString) throws(ProtocolError) -> String? {
        guard let node = view(key), !node.isNull else { return nil }
        guard let value = node.string else { throw wrongType(key, node, "a string") }
        return value
    }

    @inlinable @inline(__always)
    package mutating func int(_ key: StaticString) throws(ProtocolError) -> Int {
        guard let value = try optionalInt(key) else { throw missing(key) }
        return value
    }

    @inlinable @inline(__always)
    package mutating func optionalInt(_ key: StaticString) throws(ProtocolError) -> Int? {
        guard let node = view(key), !node.isNull else { return nil }
        guard node.kind == .number, let value = node.int else { throw Self.notAnInteger(node, field(key)) }
        return value
    }

    /// An index or position (`WireRange.index`).
    @inlinable @inline(__always)
    package mutating func index(_ key: StaticString) throws(ProtocolError) -> Int {
        try WireRange.check(int(key), in: WireRange.index, field(key))
    }

    @inlinable @inline(__always)
    package mutating func double(_ key: StaticString) throws(ProtocolError) -> Double {
        guard let value = try optionalDouble(key) else { throw missing(key) }
        return value
    }

    @inlinable @inline(__always)
    package mutating func optionalDouble(_ key: StaticString) throws(ProtocolError) -> Double? {
        guard let node = view(key), !node.isNull else { return nil }
        guard let value = node.double else { throw Self.notANumber(node, field(key)) }
        return value
    }

    @inlinable @inline(__always)
    package mutating func optionalBool(_ key: StaticString) throws(ProtocolError) -> Bool? {
        guard let node = view(key), !node.isNull else { return nil }
        guard let value = node.bool else { throw wrongType(key, node, "true or false") }
        return value
    }

    /// The elements of array `key`, read in place (no array of nodes is built).
    package mutating func array(_ key: StaticString) throws(ProtocolError) -> JSONNode.Elements {
        let array = try arrayView(key)
        // Unreachable without an owner (an absent object has no arrays), but kept as a safe fallback.
        guard let owner else { throw missing(key) }
        return owner.node(for: array).elements
    }

    /// Rejects the first member that no accessor read.
    @inlinable @inline(__always)
    package func finish() throws(ProtocolError) {
        guard let object else { return }
        let count = object.count
        if count < 64 && used == (UInt64(1) << UInt64(count)) - 1 { return }
        throw unread(object)
    }

    // MARK: Internal

    /// The value of `key`, marking it read; nil when absent. Valid as long as this value.
    @inlinable @inline(__always)
    mutating func view(_ key: StaticString) -> JSONView? {
        guard let (position, value) = object?.positionedMember(key) else { return nil }
        if position < 64 { used |= 1 << UInt64(position) }
        return value
    }

    /// The array `key`, marking it read; valid as long as this value.
    mutating func arrayView(_ key: StaticString) throws(ProtocolError) -> JSONView {
        guard let node = view(key), !node.isNull else { throw missing(key) }
        guard node.kind == .array else { throw wrongType(key, node, "an array") }
        return node
    }

    /// The object `view` of the same document, at `path` (nil: absent, empty); valid as long as this value.
    func nested(_ view: JSONView?, path: String) throws(ProtocolError) -> Params {
        try makeParams(view, owner: owner, parent: path, index: -1)
    }

    @usableFromInline
    static func int(_ node: JSONView, _ field: @autoclosure () -> String) throws(ProtocolError) -> Int {
        guard node.kind == .number, let value = node.int else { throw notAnInteger(node, field()) }
        return value
    }

    /// The index `node` holds (`WireRange.index`).
    @usableFromInline
    static func index(_ node: JSONView, _ field: @autoclosure () -> String) throws(ProtocolError) -> Int {
        try WireRange.check(int(node, field()), in: WireRange.index, field())
    }

    static func double(_ node: JSONView, _ field: @autoclosure () -> String) throws(ProtocolError) -> Double {
        guard let value = node.double else { throw notANumber(node, field()) }
        return value
    }

    // MARK: Errors

    @usableFromInline
    func missing(_ key: StaticString) -> ProtocolError {
        .badParams(field(key), "missing")
    }

    @usableFromInline
    func wrongType(_ key: StaticString, _ node: JSONView, _ expected: StaticString) -> ProtocolError {
        .badParams(field(key), "must be \(expected), not \(node.kind) \(Request.text(node))")
    }

    /// The error for `node`, at `field`, that is not an integer in Int64 range.
    @usableFromInline
    static func notAnInteger(_ node: JSONView, _ field: String) -> ProtocolError {
        guard node.kind == .number else {
            return .badParams(field, "must be an integer, not \(node.kind) \(Request.text(node))")
        }
        return .badParams(field, "\(Request.text(node)) is not an integer in range")
    }

    @usableFromInline
    static func notANumber(_ node: JSONView, _ field: String) -> ProtocolError {
        .badParams(field, "must be a number, not \(node.kind) \(Request.text(node))")
    }

    @usableFromInline
    static func notAnObject(_ node: JSONView, parent: String, index: Int) -> ProtocolError {
        .badParams(index < 0 ? parent : "\(parent)[\(index)]", "must be an object, not \(node.kind)")
    }

    /// The error for the first member of `object` that no accessor read.
    @usableFromInline
    func unread(_ object: JSONView) -> ProtocolError {
        var k = 0
        for (name, _) in object.members {
            if k >= 64 || used & (1 << UInt64(k)) == 0 {
                return .unknownField("\(path).\(name.string ?? "?")")
            }
            k += 1
        }
        assertionFailure("finish() found no unread member")
        return .unknownField(path)
    }
}

/// Wraps `view`, an object of the same document as `owner` (nil: absent, empty), at `index` of `parent` (-1: at
/// `parent` itself).
///
/// A free function, for the reason given at `decodeCommand`; it consumes `owner` and `parent`, which the params value
/// keeps, so that storing them costs no retain.
@usableFromInline
func makeParams(
    _ view: JSONView?, owner: consuming JSONNode?, parent: consuming String, index: Int
) throws(ProtocolError) -> Params {
    if let view, view.kind != .object { throw Params.notAnObject(view, parent: parent, index: index) }
    return Params(owner: owner, object: view, parent: parent, index: index)
}
