/// One complete input line, or the marker of a line that was over the limit and discarded.
package enum InputLine: Sendable, Equatable {
    /// The bytes of a line, without its `\n` and without a `\r` right before it; never empty.
    case line(ArraySlice<UInt8>)
    /// A line longer than the limit: its bytes were dropped as they arrived.
    case tooLarge
}

/// Splits a byte stream into newline-terminated lines, holding at most one partial line of bounded size.
///
/// `\n` ends a line and a `\r` right before it is dropped; empty lines, and lines of only spaces and tabs, are
/// skipped. A line whose content is longer than `maxLineBytes` is discarded as it streams in and reported once, as
/// `.tooLarge`, when its `\n` arrives. Lines that lie wholly inside one chunk are returned as slices of that chunk, without a copy.
package struct LineFramer: Sendable {
    // MARK: Lifecycle

    /// Creates a framer that accepts lines of up to `maxLineBytes` bytes (not counting `\r\n`).
    package init(maxLineBytes: Int) {
        precondition(maxLineBytes > 0, "maxLineBytes must be positive")
        self.maxLineBytes = maxLineBytes
    }

    // MARK: Internal

    /// The longest line content accepted; a change applies from the next line on.
    package var maxLineBytes: Int {
        didSet { maxLineBytes = max(1, maxLineBytes) }
    }

    /// The bytes of the unfinished line held since the last chunk (0 while discarding).
    package var bufferedByteCount: Int { partial.count }

    /// Calls `body` with the bytes of the unfinished line held since the last chunk (none while discarding).
    package func withUnfinishedLine<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        partial.withUnsafeBufferPointer(body)
    }

    /// The bytes of the buffers kept for the next long lines (see `spares`).
    var spareCapacity: Int { spares.reduce(0) { $0 + $1.capacity } }

    /// Whether the unfinished line is already over the limit and being discarded.
    package var isDiscarding: Bool { discarding }

    /// Consumes one chunk and returns the lines it completes, in order.
    ///
    /// - Complexity: O(n) in the chunk's length; bytes of a partial line are copied once.
    package mutating func append(_ chunk: [UInt8]) -> [InputLine] {
        var lines: [InputLine] = []
        var start = chunk.startIndex
        chunk.withUnsafeBufferPointer { bytes in
            var index = 0
            while index < bytes.count {
                guard let newline = Self.firstNewline(in: bytes, from: index) else { break }
                if partial.isEmpty && !discarding {
                    emit(chunk[start..<newline], into: &lines)
                } else {
                    carry(chunk[start..<newline])
                    finishCarriedLine(into: &lines)
                }
                index = newline + 1
                start = index
            }
        }
        if start < chunk.endIndex { carry(chunk[start...]) }
        return lines
    }

    /// Lets go of the spare buffers unless a line is partly carried: the connection has nothing left to do, and an
    /// idle connection holds no more than its partial line. Returns the buffers, for the caller to free outside the
    /// lock it holds the framer under (the read handler's), and whether lines long enough for their items to come
    /// from the decoder's pool (`ItemBuffers.shortestLine`) came since the last release, so that the pool can go too
    /// (`ItemBuffers.release`); none and false while a line is carried.
    ///
    /// Not at every chunk that ends with a line: a client that writes a bulk load line by line has its reads end so
    /// about every other time while the daemon is still busy with the lines before, and each line was then carried
    /// in fresh pages (38,500 page faults per million-item load against 17,000 for the same lines in one write).
    package mutating func releaseSpares() -> (buffers: [[UInt8]], pooledLines: Bool) {
        guard partial.isEmpty && !discarding else { return ([], false) }
        defer {
            spares = []
            sentPooledLines = false
        }
        return (spares, sentPooledLines)
    }

    /// Convenience for chunks that are slices of a larger buffer.
    package mutating func append(_ chunk: ArraySlice<UInt8>) -> [InputLine] {
        append(Array(chunk))
    }

    /// Forgets any partial line, as when the connection is closed mid-line.
    package mutating func reset() {
        partial = []
        spares = []
        discarding = false
    }

    // MARK: Private

    private var partial: [UInt8] = []
    /// Buffers of the last carried lines, oldest first, refilled by the lines carried after them.
    ///
    /// A line of a bulk insert (~250 KB) arrives over several reads. Carried in a fresh array it doubled through
    /// 120, 240 and 480 KB, each above glibc's mmap threshold (`MemoryTuning`): fresh pages, faulted in and copied
    /// for every line. A line handed out is still referenced while its request is decoded and applied (its params
    /// go on as the applied ops), which a pipelining client overlaps with the next lines: a read's work runs while
    /// the next read's waits, each of a line or two of ~100 KB integer heights, and a line is being carried, so up
    /// to five are alive. Six buffers take turns, so the oldest is free again by the time it is refilled (fewer
    /// would often still be held; the same pool size as `ItemBuffers.spares` for the same reason). One still in use is not touched: emptying it
    /// copies on write, into a new buffer of the same capacity. They are let go when the connection has nothing left
    /// to do (`releaseSpares`).
    private var spares: [[UInt8]] = []
    private var discarding = false
    /// Whether a line since the last `releaseSpares` was long enough for its items to come from `ItemBuffers`.
    private var sentPooledLines = false

    /// Finds the next `\n`, eight bytes at a time; `memchr` is not available without Glibc.
    ///
    /// Eight bytes at a time because a bulk load's line (a few hundred KB) is searched whole.
    private static func firstNewline(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        var i = index
        if let base = bytes.baseAddress {
            while i + 8 <= bytes.count {
                // The high bit of each byte that is zero after the xor, that is each `\n`; the borrow can only
                // flag bytes above the first true one, so the lowest flag is exact.
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let x = word ^ 0x0A0A_0A0A_0A0A_0A0A
                let found = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                if found != 0 { return i + found.trailingZeroBitCount >> 3 }
                i += 8
            }
        }
        while i < bytes.count {
            if bytes[i] == 0x0A { return i }
            i += 1
        }
        return nil
    }

    /// Appends bytes of the unfinished line, switching to discarding once it cannot fit any more.
    private mutating func carry(_ bytes: ArraySlice<UInt8>) {
        guard !discarding else { return }
        // One byte of slack: the line may still end in a `\r` that does not count against the limit.
        if partial.count + bytes.count > maxLineBytes + 1 {
            partial = []
            discarding = true
        } else {
            if partial.isEmpty { partial = takeSpare() }
            partial.append(contentsOf: bytes)
        }
    }

    /// An empty buffer for a line that starts to be carried: the older spare once two are kept, else a new one.
    private mutating func takeSpare() -> [UInt8] {
        guard spares.count >= Self.spareCount else { return [] }
        var buffer = spares.removeFirst()
        buffer.removeAll(keepingCapacity: true)
        return buffer
    }

    /// Keeps the buffer of a line just handed out, if it is worth keeping: one that carried a line larger than a
    /// read and is not over twice the limit (it grew by doubling), at most `spareCount` of them. Only the pages a
    /// line touched are resident.
    private mutating func keepSpare(_ buffer: [UInt8]) {
        guard buffer.capacity >= Self.spareMinimumBytes, buffer.capacity <= 2 * (maxLineBytes + 1) else { return }
        if spares.count >= Self.spareCount { spares.removeFirst() }
        spares.append(buffer)
    }

    private static let spareCount = 6
    /// Smaller lines' buffers come from the heap, which reuses their memory anyway.
    private static let spareMinimumBytes = 64 * 1024

    /// Emits the carried line once its `\n` has arrived.
    private mutating func finishCarriedLine(into lines: inout [InputLine]) {
        if discarding {
            lines.append(.tooLarge)
        } else {
            emit(partial[...], into: &lines)
            keepSpare(partial)
        }
        partial = []
        discarding = false
    }

    /// Drops a trailing `\r`, skips empty lines and lines of only spaces and tabs (the Wire protocol article), and applies the
    /// limit.
    private mutating func emit(_ raw: ArraySlice<UInt8>, into lines: inout [InputLine]) {
        if raw.count >= ItemBuffers.shortestLine { sentPooledLines = true }
        var line = raw
        if line.last == 0x0D { line = line.dropLast() }
        if line.isEmpty { return }
        // A request starts with `{`: only a line that starts blank is looked at whole.
        if line.first == 0x20 || line.first == 0x09, line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
        lines.append(line.count > maxLineBytes ? .tooLarge : .line(line))
    }
}
