/// A reusable, strict RFC 8259 parser that turns one line of bytes into a ``JSONDocument``.
///
/// The reader keeps its buffers between calls, so parsing a line allocates nothing once they have grown,
/// provided the previous document has been released (a document still alive keeps its buffers, and the
/// next parse then allocates fresh ones).
///
/// Decisions beyond the RFC's grammar, each because the wire protocol cannot give the input a meaning:
/// - an object with the same key twice is rejected (`duplicateKey`), keys compared after unescaping;
/// - a `\u` escape of a lone surrogate is rejected (`loneSurrogate`), so every string is valid Unicode;
/// - a number too large for a `Double` (`1e400`) is rejected (`numberOutOfRange`); one too small becomes 0;
/// - a byte order mark is rejected like any other unexpected byte.
///
/// The parser is a loop over an explicit stack, never recursive, and refuses nesting deeper than
/// `maximumDepth` arrays and objects.
package struct JSONReader: Sendable {
    // MARK: Lifecycle

    /// A reader that accepts at most `maximumDepth` nested arrays and objects (0 allows scalars only).
    package init(maximumDepth: Int = 64) {
        self.maximumDepth = max(0, maximumDepth)
    }

    // MARK: Package

    /// The deepest nesting of arrays and objects accepted; deeper input throws `nestingTooDeep`.
    package var maximumDepth: Int

    /// Whether the `items` member of the `params` of a top-level object, when it is an array of objects that
    /// are each only a number `h` (a bulk `items.insert`'s), is kept as its heights: one tape node per item
    /// instead of four, read with ``JSONView/appendHeightRun(to:)``. Such an array then has no elements for any
    /// other reader (its `count` is 0): only a decoder that reads runs should ask for them, and it should parse
    /// again without them (``JSONDocument/hasHeightRuns``) where it reads that member otherwise. Off by default.
    package var readsHeightRuns = false

    /// Parses exactly one JSON value surrounded only by whitespace.
    ///
    /// Error offsets count from `bytes.startIndex`, and so do the node byte ranges of the document.
    /// - Complexity: O(n) in the length of the input, plus O(k²) key comparisons for objects of k ≤ 16 keys.
    package mutating func parse(_ bytes: ArraySlice<UInt8>) throws(JSONError) -> JSONDocument {
        guard bytes.count < Int(UInt32.max) else { throw JSONError(.tooLarge, at: 0) }
        if !isKnownUniquelyReferenced(&storage) {
            // The previous document is still alive and owns this storage: leave it alone.
            storage = JSONStorage()
        }
        storage.load(bytes)
        var scanner = JSONScanner(storage: storage, maximumDepth: maximumDepth, readsHeightRuns: readsHeightRuns)
        let failure = scanner.scan(storage.bytes, count: bytes.count)
        scanner.finish(into: storage)
        if let failure {
            storage.nodeCount = 0
            throw failure
        }
        return JSONDocument(storage: storage)
    }

    /// Parses a whole byte array; see ``parse(_:)-(ArraySlice<UInt8>)``.
    package mutating func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONDocument {
        try parse(bytes[...])
    }

    /// Parses the UTF-8 bytes of a string (tests, configuration files).
    package mutating func parse(_ text: String) throws(JSONError) -> JSONDocument {
        try parse(Array(text.utf8)[...])
    }

    /// The bytes of the buffers kept for the next parse.
    package var retainedBytes: Int {
        storage.nodeCapacity * MemoryLayout<TapeNode>.stride + storage.byteCapacity
            + storage.stackCapacity * MemoryLayout<UInt32>.stride
    }

    /// Lets go of the buffers if they hold more than `limit` bytes (they grew for a long line), keeping small ones
    /// for the next parse: a connection idle after a bulk load would hold the tape of its longest line.
    package mutating func releaseBuffers(above limit: Int) {
        if retainedBytes > limit { storage = JSONStorage() }
    }

    // MARK: Private

    /// The buffers of the last document, reused while no document holds them.
    private var storage = JSONStorage()
}
