/// The memory behind a document: a private copy of the input bytes and the tape, reused by its reader.
///
/// A reader refills the same storage for every line while it holds the only reference, so steady-state parsing
/// allocates nothing; a document still alive keeps its storage, and the reader then starts a fresh one.
/// Raw pointers rather than arrays keep bounds, uniqueness and exclusivity checks out of the per-node path, which
/// is most of a short line's parse.
@usableFromInline
internal final class JSONStorage: @unchecked Sendable {
    // Sendable: the storage is written only by a reader holding its only reference, before any document
    // shares it, and never again after that.

    // MARK: Lifecycle

    /// Empty storage with room for a typical request line.
    init() {
        nodes = .allocate(capacity: 64)
        nodeCapacity = 64
        bytes = Self.allocateBytes(256)
        byteCapacity = 256
        stack = .allocate(capacity: 16)
        stackCapacity = 16
    }

    deinit {
        nodes.deallocate()
        bytes.deallocate()
        stack.deallocate()
    }

    // MARK: Internal

    /// Bytes allocated after `byteCapacity`: a number's last digits are read eight bytes at a time
    /// (`JSONNumber.accumulateDigitTail`), which may read past the end of the input (never using what it reads there).
    static let padding = 8

    /// The tape: `nodeCount` initialized nodes.
    @exclusivity(unchecked) @usableFromInline var nodes: UnsafeMutablePointer<TapeNode>
    /// How many nodes the last parse produced.
    @exclusivity(unchecked) @usableFromInline var nodeCount = 0
    /// Allocated nodes.
    @exclusivity(unchecked) var nodeCapacity: Int
    /// A copy of the input, so accessors read plain memory the storage owns.
    @exclusivity(unchecked) @usableFromInline var bytes: UnsafeMutablePointer<UInt8>
    /// Allocated bytes.
    @exclusivity(unchecked) var byteCapacity: Int
    /// The caller's input, kept for `rawBytes` so sub-values can be spliced without copying.
    @exclusivity(unchecked) @usableFromInline var input: ArraySlice<UInt8> = []
    /// Whether the tape holds an array kept as its heights (`JSONReader.readsHeightRuns`).
    @exclusivity(unchecked) var hasHeightRuns = false
    /// The scanner's stack of open containers, kept for its capacity.
    @exclusivity(unchecked) var stack: UnsafeMutablePointer<UInt32>
    /// Allocated stack entries.
    @exclusivity(unchecked) var stackCapacity: Int

    /// Room for `count` bytes of input and the padding after them, which is zeroed: nothing reads it as input,
    /// but a read of it is then a read of initialized memory.
    private static func allocateBytes(_ count: Int) -> UnsafeMutablePointer<UInt8> {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: count + padding)
        (bytes + count).initialize(repeating: 0, count: padding)
        return bytes
    }

    /// Copies `input` into `bytes`, growing them if needed, and forgets the previous tape.
    func load(_ input: ArraySlice<UInt8>) {
        self.input = input
        nodeCount = 0
        hasHeightRuns = false
        if input.count > byteCapacity {
            bytes.deallocate()
            byteCapacity = max(input.count, byteCapacity * 2)
            bytes = Self.allocateBytes(byteCapacity)
        }
        input.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            bytes.update(from: base, count: source.count)
        }
    }
}
