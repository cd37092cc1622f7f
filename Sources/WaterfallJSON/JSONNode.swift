/// A cursor on one value of a ``JSONDocument``: typed, allocation-free access to scalars, keys and members.
///
/// Accessors return nil when the value has another kind, so a request decoder reads
/// `guard let id = node["id"]?.int64 else { ... }` and reports the field by name.
public struct JSONNode: Sendable {
    // MARK: Lifecycle

    /// The value at tape index `index` of `storage`.
    @inlinable
    internal init(storage: JSONStorage, index: Int) {
        self.storage = storage
        self.index = index
    }

    // MARK: Public

    /// What kind of value this is.
    @inlinable
    public var kind: JSONKind { node.kind }

    /// Whether the value is `null`.
    @inlinable
    public var isNull: Bool { node.kind == .null }

    /// The value of `true` or `false`; nil for other kinds.
    @inlinable
    public var bool: Bool? { withView { $0.bool } }

    /// The exact value of an integer (no fraction or exponent) within Int64 range; nil otherwise, including
    /// for `1.0` and `1e2`, so a field documented as an integer never silently truncates.
    @inlinable
    public var int64: Int64? { withView { $0.int64 } }

    /// `int64` as an `Int`.
    @inlinable
    public var int: Int? { int64.map { Int($0) } }

    /// The correctly rounded value of any number; nil for other kinds. Never infinite (the reader rejects those).
    @inlinable
    public var double: Double? { withView { $0.double } }

    /// The decoded value of a string; nil for other kinds.
    @inlinable
    public var string: String? { withView { $0.string } }

    /// The number of elements of an array or members of an object; 0 for other kinds.
    @inlinable
    public var count: Int { Int(node.count) }

    // MARK: Package

    /// The document this value belongs to.
    @inlinable
    package var document: JSONDocument { JSONDocument(storage: storage) }

    /// The value's exact input bytes (a string includes its quotes), to copy a sub-value verbatim.
    @inlinable
    package var rawBytes: ArraySlice<UInt8> {
        let node = self.node
        let input = storage.input
        return input[(input.startIndex + Int(node.start))..<(input.startIndex + Int(node.end))]
    }

    /// Where the value starts, in bytes from the start of the parsed input, for error messages.
    @inlinable
    package var byteOffset: Int { Int(node.start) }

    // MARK: Internal

    /// The bytes and tape of the document.
    @usableFromInline
    internal let storage: JSONStorage

    /// This value's tape index.
    @usableFromInline
    internal let index: Int

    /// This value's tape node.
    @inlinable
    internal var node: TapeNode { storage.nodes[index] }
}
