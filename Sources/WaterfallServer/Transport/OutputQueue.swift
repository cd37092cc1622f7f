/// A connection's unsent output: whole chunks in order, handed out for writing without copying them again.
///
/// It does no I/O: `nextWrite` hands out the bytes the socket is to be given next, and `wrote` takes back how many
/// it took, so that the connection's state machine that owns it stays a value tested without sockets.
struct OutputQueue: Sendable {
    // MARK: Internal

    /// What one write call achieved.
    enum WriteOutcome: Equatable, Sendable {
        /// This many bytes (at least one) were taken.
        case wrote(Int)
        /// The socket buffer is full.
        case wouldBlock
        /// The peer is gone or the socket failed (the errno).
        case failed(Int32)
    }

    /// Bytes to give the socket: the head chunk from the offset written so far. Holding it keeps the chunk alive
    /// (an array shares its storage), so the queue may drop it meanwhile, as a close does.
    struct PendingWrite: Sendable {
        let chunk: [UInt8]
        let offset: Int

        var count: Int { chunk.count - offset }

        /// Calls `body` with the bytes to write.
        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            chunk.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
        }
    }

    /// Bytes queued and not yet written.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Queues bytes behind what is queued; small chunks are merged so a burst of events costs one write, and large
    /// ones (a reply's chunks) are kept as they are, so they go to the socket from the buffer they were written in.
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        count += bytes.count
        // Never into a chunk handed out: it would be copied, its storage being shared with the writer.
        let last = chunks.count - 1
        if bytes.count <= Self.mergeBytes, head <= last, !(handedOut && last == head),
            chunks[last].count + bytes.count <= Self.mergeLimit
        {
            chunks[last].append(contentsOf: bytes)
        } else {
            chunks.append(bytes)
        }
    }

    /// The bytes to write next, nil when nothing is queued; `wrote` must follow before the next call.
    mutating func nextWrite() -> PendingWrite? {
        guard head < chunks.count else { return nil }
        handedOut = true
        return PendingWrite(chunk: chunks[head], offset: offset)
    }

    /// The socket took `written` bytes (maybe none) of what `nextWrite` handed out.
    mutating func wrote(_ written: Int) {
        handedOut = false
        guard written > 0 else { return }
        count -= written
        offset += written
        guard offset == chunks[head].count else { return }
        // Release a written chunk now: a client that never drains fully must not keep them all.
        chunks[head] = []
        head += 1
        offset = 0
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: chunks.count <= 64)
            head = 0
        } else if head >= 64 {
            chunks.removeFirst(head)
            head = 0
        }
    }

    /// Forgets everything queued, as when the connection is torn down.
    mutating func removeAll() {
        self = OutputQueue()
    }

    // MARK: Private

    /// Chunks up to this size are merged; bigger replies are kept as they are to avoid copying them.
    private static let mergeLimit = 65_536
    /// Only chunks up to this size are copied into the one before.
    private static let mergeBytes = 16_384

    private var chunks: [[UInt8]] = []
    private var head = 0
    private var offset = 0
    /// Whether the head chunk is handed out (`nextWrite`) and not yet reported (`wrote`).
    private var handedOut = false
}
