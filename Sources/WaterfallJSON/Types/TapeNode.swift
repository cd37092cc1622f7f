/// One value of a parsed document: its kind, its byte range and the tape index just past its subtree.
///
/// A document is a flat array of these in input order (an object is followed by key, value, key, value, ...),
/// so parsing allocates nothing per string or number and a cursor is just an index. Offsets are `UInt32`
/// (lines over 4 GiB are refused), which keeps a node at 20 bytes.
@usableFromInline
internal struct TapeNode: Sendable {
    // MARK: Flags

    /// A string contains at least one backslash escape, so its raw bytes are not its value.
    @usableFromInline static let hasEscapes: UInt8 = 1
    /// A number has neither fraction nor exponent.
    @usableFromInline static let isInteger: UInt8 = 2
    /// A bool is `true`.
    @usableFromInline static let isTrue: UInt8 = 4
    /// A number's value was computed as it was scanned, and sits in the next node (`payload`), which its `next`
    /// skips (see `JSONScanner.scanNumberMember`).
    @usableFromInline static let hasValue: UInt8 = 8
    /// An array of one-height objects (`[{"h":120},{"h":80.5}]`) held as its heights: `payload` nodes, one per
    /// element, which its `next` skips. Its `count` is 0, so a walk over elements sees none (see
    /// `JSONScanner.scanHeightRun`).
    @usableFromInline static let isHeightRun: UInt8 = 16

    // MARK: Storage

    /// Offset of the value's first byte (a string's opening quote) from the start of the input.
    @usableFromInline var start: UInt32
    /// Offset just past the value's last byte (past a string's closing quote, a container's bracket).
    @usableFromInline var end: UInt32
    /// Tape index of the next sibling: this index plus the size of the subtree.
    @usableFromInline var next: UInt32
    /// Containers: the number of elements or members. Others: 0.
    @usableFromInline var count: UInt32
    /// What the value is.
    @usableFromInline var kind: JSONKind
    /// Combination of the static flags above.
    @usableFromInline var flags: UInt8

    // MARK: Lifecycle

    /// The node after a number with `hasValue`: the bits of its `Double`, low half in `start`, high half in `end`.
    @inlinable
    init(payload value: Double) {
        let bits = value.bitPattern
        self.init(kind: .number, start: Int(bits & 0xFFFF_FFFF), end: Int(bits >> 32), next: 0)
    }

    /// The value a `payload` node holds.
    @inlinable
    var payload: Double { Double(bitPattern: UInt64(end) << 32 | UInt64(start)) }

    @inlinable
    init(kind: JSONKind, flags: UInt8 = 0, start: Int, end: Int, next: Int) {
        self.start = UInt32(truncatingIfNeeded: start)
        self.end = UInt32(truncatingIfNeeded: end)
        self.next = UInt32(truncatingIfNeeded: next)
        self.count = 0
        self.kind = kind
        self.flags = flags
    }
}
