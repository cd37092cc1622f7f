/// A connection's unsent output: whole chunks in order, written without copying them again.
///
/// It does no I/O itself: `flush` hands its bytes to a write function (`send(2)` in the daemon, a fake socket in
/// tests), so that the connection's state machine that owns it stays testable without sockets.
struct OutputQueue: Sendable {
    // MARK: Internal

    /// What one write call achieved.
    enum WriteOutcome: Equatable {
        /// This many bytes (at least one) were taken.
        case wrote(Int)
        /// The socket buffer is full.
        case wouldBlock
        /// The peer is gone or the socket failed (the errno).
        case failed(Int32)
    }

    /// What one flush achieved.
    enum FlushResult: Equatable {
        /// Everything was written.
        case drained
        /// The socket buffer is full; wait for writability.
        case wouldBlock
        /// The peer is gone or the socket failed (the errno).
        case failed(Int32)
    }

    /// Bytes queued and not yet written.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Queues bytes behind what is queued; small chunks are merged so a burst of events costs one write, and large
    /// ones (a reply's chunks) are kept as they are, so they go to the socket from the buffer they were written in.
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        count += bytes.count
        if bytes.count <= Self.mergeBytes, head < chunks.count,
            chunks[chunks.count - 1].count + bytes.count <= Self.mergeLimit
        {
            chunks[chunks.count - 1].append(contentsOf: bytes)
        } else {
            chunks.append(bytes)
        }
    }

    /// Writes as much as `write` accepts; `written` grows by the bytes written.
    mutating func flush(
        written: inout Int, _ write: (UnsafeRawBufferPointer) -> WriteOutcome
    ) -> FlushResult {
        while head < chunks.count {
            let outcome = chunks[head].withUnsafeBytes { buffer in
                write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            }
            let sent: Int
            switch outcome {
            case .wrote(let count): sent = count
            case .wouldBlock: return .wouldBlock
            case .failed(let error): return .failed(error)
            }
            written += sent
            count -= sent
            offset += sent
            if offset == chunks[head].count {
                // Release a written chunk now: a client that never drains fully must not keep them all.
                chunks[head] = []
                head += 1
                offset = 0
                if head >= 64 {
                    chunks.removeFirst(head)
                    head = 0
                }
            }
        }
        chunks.removeAll(keepingCapacity: chunks.count <= 64)
        head = 0
        return .drained
    }

    /// Forgets everything queued, as when the connection is torn down.
    mutating func removeAll() {
        chunks = []
        head = 0
        offset = 0
        count = 0
    }

    // MARK: Private

    /// Chunks up to this size are merged; bigger replies are kept as they are to avoid copying them.
    private static let mergeLimit = 65_536
    /// Only chunks up to this size are copied into the one before.
    private static let mergeBytes = 16_384

    private var chunks: [[UInt8]] = []
    private var head = 0
    private var offset = 0
}
