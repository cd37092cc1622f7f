/// One parsed JSON value: a private copy of the input plus a flat tape of nodes over it; read it via ``root``.
///
/// Strings and numbers stay as bytes until asked for. A document is an immutable value; copies share storage.
@usableFromInline
package struct JSONDocument: Sendable {
    // MARK: Lifecycle

    /// Parses `bytes` with a throwaway reader; prefer a long-lived ``JSONReader`` on hot paths.
    package init(parsing bytes: ArraySlice<UInt8>, maximumDepth: Int = 64) throws(JSONError) {
        var reader = JSONReader(maximumDepth: maximumDepth)
        self = try reader.parse(bytes)
    }

    /// Parses the UTF-8 bytes of `text` with a throwaway reader.
    package init(parsing text: String, maximumDepth: Int = 64) throws(JSONError) {
        try self.init(parsing: Array(text.utf8)[...], maximumDepth: maximumDepth)
    }

    /// A document over storage that a scanner has just filled.
    @usableFromInline
    internal init(storage: JSONStorage) {
        self.storage = storage
    }

    // MARK: Package

    /// The parsed input, as passed to the reader; node byte offsets count from its `startIndex`.
    @inlinable
    package var bytes: ArraySlice<UInt8> { storage.input }

    /// The top-level value.
    @inlinable
    package var root: JSONNode { JSONNode(storage: storage, index: 0) }

    /// How many values (including keys) the document holds.
    @inlinable
    package var nodeCount: Int { storage.nodeCount }

    /// Whether an array of the document is kept as its heights (``JSONReader/readsHeightRuns``).
    package var hasHeightRuns: Bool { storage.hasHeightRuns }

    // MARK: Internal

    /// The bytes and the tape.
    @usableFromInline
    internal let storage: JSONStorage
}
