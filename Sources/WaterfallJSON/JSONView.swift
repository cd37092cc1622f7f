/// A non-owning cursor on one value of a ``JSONDocument``: the same typed access as ``JSONNode``, through two raw
/// pointers and a tape index, so reading a request never touches a reference count.
///
/// A view does not keep its document alive. Use one inside ``JSONNode/withView(_:)`` or
/// ``JSONDocument/withRoot(_:)``, or keep it beside a ``JSONNode`` of the same document that a type stores for as
/// long as it stores the view (``JSONNode/unsafeView``); turn a view back into a node with ``JSONNode/node(for:)``.
///
/// Why a second handle: a ``JSONNode`` retains the document's storage, and every node made while reading a request
/// (a member, an element, an optional, a return value) costs a retain and a release. A view costs neither, so
/// decoding a request through views retains only the document, the request's copy of it, the params node and the
/// input slice.
@usableFromInline
package struct JSONView {
    // MARK: Lifecycle

    /// The value at tape index `index` of a document whose tape and bytes are `nodes` and `bytes`.
    @inlinable
    internal init(nodes: UnsafePointer<TapeNode>, bytes: UnsafePointer<UInt8>, index: Int) {
        self.nodes = nodes
        self.bytes = bytes
        self.index = index
    }

    // MARK: Package

    /// What kind of value this is.
    @inlinable
    package var kind: JSONKind { node.kind }

    /// Whether the value is `null`.
    @inlinable
    package var isNull: Bool { node.kind == .null }

    /// The value of `true` or `false`; nil for other kinds.
    @inlinable
    package var bool: Bool? {
        let node = self.node
        return node.kind == .bool ? node.flags & TapeNode.isTrue != 0 : nil
    }

    /// The exact value of an integer (no fraction or exponent) within Int64 range; nil otherwise, as
    /// ``JSONNode/int64``.
    @inlinable
    package var int64: Int64? {
        let node = self.node
        guard node.kind == .number && node.flags & TapeNode.isInteger != 0 else { return nil }
        let length = Int(node.end &- node.start)
        let p = bytes + Int(node.start)
        // Request integers are short: inline those, call out for the rest (range checks near Int64's limits).
        if length <= JSONNumber.shortIntegerLength { return JSONNumber.shortInteger(p, length: length) }
        return JSONNumber.int64(UnsafeBufferPointer(start: p, count: length))
    }

    /// `int64` as an `Int`.
    @inlinable
    package var int: Int? { int64.map { Int($0) } }

    /// The correctly rounded value of any number; nil for other kinds, as ``JSONNode/double``.
    @inlinable
    package var double: Double? {
        let node = self.node
        guard node.kind == .number else { return nil }
        if node.flags & TapeNode.hasValue != 0 { return nodes[index &+ 1].payload }
        let length = Int(node.end &- node.start)
        let p = bytes + Int(node.start)
        // A short integer converts exactly (its magnitude is below 2^53); keep the sign, so `-0` stays -0.0.
        if node.flags & TapeNode.isInteger != 0 && length <= JSONNumber.exactIntegerLength {
            let value = JSONNumber.shortInteger(p, length: length)
            return value == 0 && p[0] == UInt8(ascii: "-") ? -0.0 : Double(value)
        }
        return JSONNumber.double(UnsafeBufferPointer(start: p, count: length))
    }

    /// The decoded value of a string; nil for other kinds.
    @inlinable
    package var string: String? {
        let node = self.node
        guard node.kind == .string else { return nil }
        let content = UnsafeBufferPointer(start: bytes + Int(node.start) + 1, count: Int(node.end &- node.start) - 2)
        return JSONText.decode(content, hasEscapes: node.flags & TapeNode.hasEscapes != 0)
    }

    /// The number of elements of an array or members of an object; 0 for other kinds.
    @inlinable
    package var count: Int { Int(node.count) }

    /// The value's exact input bytes (a string includes its quotes), valid as long as the view.
    @inlinable
    package var rawBytes: UnsafeBufferPointer<UInt8> {
        let node = self.node
        return UnsafeBufferPointer(start: bytes + Int(node.start), count: Int(node.end &- node.start))
    }

    /// Where the value starts, in bytes from the start of the parsed input, for error messages.
    @inlinable
    package var byteOffset: Int { Int(node.start) }

    // MARK: Internal

    /// The document's tape.
    @usableFromInline
    internal let nodes: UnsafePointer<TapeNode>

    /// The document's copy of its input.
    @usableFromInline
    internal let bytes: UnsafePointer<UInt8>

    /// This value's tape index.
    @usableFromInline
    internal let index: Int

    /// This value's tape node.
    @inlinable
    internal var node: TapeNode { nodes[index] }
}

// MARK: Handles

extension JSONNode {
    /// A view of this value that does not keep the document alive: valid only while this node, or another handle
    /// on its document, is. Prefer ``withView(_:)``; this is for a type that stores the node beside the view.
    @inlinable
    package var unsafeView: JSONView {
        JSONView(nodes: storage.nodes, bytes: storage.bytes, index: index)
    }

    /// Calls `body` with a view of this value, keeping the document alive until it returns.
    @inlinable
    package func withView<Result, Failure: Error>(
        _ body: (JSONView) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withExtendedLifetime(storage) { () throws(Failure) -> Result in try body(unsafeView) }
    }

    /// The node of `view`, a view of the same document as this node.
    @inlinable
    package func node(for view: JSONView) -> JSONNode {
        assert(view.nodes == UnsafePointer(storage.nodes), "a view of another document")
        return JSONNode(storage: storage, index: view.index)
    }
}

extension JSONDocument {
    /// Calls `body` with a view of the top-level value, keeping the document alive until it returns.
    @inlinable
    package func withRoot<Result, Failure: Error>(
        _ body: (JSONView) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withExtendedLifetime(storage) { () throws(Failure) -> Result in
            try body(JSONView(nodes: storage.nodes, bytes: storage.bytes, index: 0))
        }
    }

    /// A view of the top-level value that does not keep the document alive: valid only while the document is.
    /// Prefer ``withRoot(_:)``; this is for an initializer that holds the document for the whole of its body.
    @inlinable
    package var unsafeRoot: JSONView {
        JSONView(nodes: storage.nodes, bytes: storage.bytes, index: 0)
    }

    /// The node of `view`, a view of this document.
    @inlinable
    package func node(for view: JSONView) -> JSONNode {
        assert(view.nodes == UnsafePointer(storage.nodes), "a view of another document")
        return JSONNode(storage: storage, index: view.index)
    }
}
