import Synchronization
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// One connection's requests: parses each line, runs its method, and writes the replies of one read together.
///
/// An actor so that its subscriptions need no lock; the transport never runs two reads' work at once, so no request
/// ever waits on another of the same connection here. `prepare` is not isolated: it runs on the connection's thread,
/// one read after the other, with a parser of its own.
actor ClientSession: Session {
    let service: LayoutService
    let output: any OutputSink
    let peer: PeerCredentials
    /// Layouts this connection subscribed to (a superset after an overflow: the entry's list is the truth).
    var subscriptions: Set<String> = []
    /// The current read's requests, errors and latency by method, added into the service's once per read.
    var tally = RequestTally()
    /// When the current read's lines arrived, on the monotonic clock: latency runs from there to each reply.
    var readAt = 0.0
    /// Chunks of replies sent on before the end of a read's work (`sendChunk`), for a reply's latency to see one.
    var chunksSent = 0
    /// Whether a batch array's reply line is begun and not ended: a chunk sent meanwhile ends inside a reply.
    var arrayOpen = false
    /// The last method counted and its tally row.
    private var lastCounted: (method: Method?, row: Int) = (nil, RequestTally.row(of: nil))
    /// The parser of `prepare`, which keeps its buffers from one line to the next (locked once per read, by one
    /// thread at a time).
    private let reader = Mutex(JSONReader.forRequests())
    /// The texts of numbers this connection's replies wrote lately, kept from one read's replies to the next (used
    /// by `handle`, one read at a time, on this actor).
    private let numberTexts = LastingNumberTextCache()

    init(service: LayoutService, output: any OutputSink, peer: PeerCredentials) {
        self.service = service
        self.output = output
        self.peer = peer
    }

    // MARK: Session

    nonisolated func prepare(_ lines: [InputLine]) -> SessionWork {
        let maxBatchOps = service.limits.maxBatchOps
        let readAt = MonotonicClock.now
        let steps = reader.withLock { reader in
            var plan = ReadPlan(requests: lines.count)
            for line in lines { plan.append(line, reader: &reader, maxBatchOps: maxBatchOps) }
            return plan.finished()
        }
        let count = lines.count
        return { await self.handle(steps, requests: count, readAt: readAt) }
    }

    /// The bytes of this connection's parse buffers.
    nonisolated var parseBufferBytes: Int { reader.withLock { $0.retainedBytes } }

    /// Lets go of what a bulk load's lines grew: the decoder's pool of item arrays (which the lines just decoded
    /// refilled) and this connection's parse buffers beyond `keptParseBytes`, unless a prepare is using them (the
    /// client is not idle then, and this pool thread must not wait for it).
    nonisolated func clientPaused() {
        ItemBuffers.release()
        reader.withLockIfAvailable { $0.releaseBuffers(above: Self.keptParseBytes) }
    }

    func close() async {
        for name in subscriptions {
            service.registry.entry(name)?.subscribers.remove(ObjectIdentifier(self))
        }
        subscriptions.removeAll()
    }

    // MARK: Internal

    /// Replies are sent on in chunks of about this many bytes, each written in a buffer under glibc's mmap threshold
    /// (64 KiB, see `MemoryTuning`): a buffer above it would be mapped fresh for each read, paying page faults on
    /// every request of a pipelining client. Replies of one read stay in order; events may come between chunks,
    /// as between any two replies (the Wire protocol article).
    static let replyChunkBytes = 48 * 1024
    /// Replies of a visit are sent on before the read's next requests run once they reach this size (a few dozen
    /// one-item updates): a send per visit at most.
    static let earlyChunkBytes = 4 * 1024

    /// Sends what `out` holds (whole replies, or the first part of one being produced) and goes on in a new buffer,
    /// inside the same open containers; waits while the client has too much unsent. False once the connection is
    /// closed: the work stops, and nothing after is produced.
    func sendChunk(_ out: inout JSONWriter, endingInsideAReply: Bool = false) async -> Bool {
        let chunk = out.takeChunk(capacity: Self.replyBufferBytes)
        chunksSent &+= 1
        guard output.sendReplies(chunk, endingInsideAReply: endingInsideAReply || arrayOpen) else { return false }
        return output.hasRoom ? true : await output.waitForRoom()
    }

    /// Counts one request of `method` answered at `now` (for the metrics; by default, now), with its error if it
    /// failed.
    func count(_ method: Method?, error: ErrorCode? = nil, at now: Double = MonotonicClock.now) {
        // A pipelining client sends runs of one method: its row is looked up (a hash) once per run.
        if method != lastCounted.method { lastCounted = (method, RequestTally.row(of: method)) }
        tally.record(lastCounted.row, error: error, seconds: now - readAt)
    }

    /// Counts a failed request and writes its error reply, unless it is a notification (`id` nil).
    func fail(_ error: ProtocolError, id: RequestID?, _ out: inout JSONWriter) {
        service.errors.add(1, ordering: .relaxed)
        if error.code == .internalError { service.logger.error("internal error: \(error.message)") }
        if let id { ReplyEncoding.error(&out, id: id, error) }
    }

    // MARK: Private

    /// Parse buffers a paused connection keeps: those of a line of a few thousand items (a 16 KiB line's tape is
    /// about 40 KiB). A 10,000-item insert grows them to a megabyte, which an idle connection would hold until it
    /// closed; the next long line grows them again, a few page faults per kilobyte of line.
    private static let keptParseBytes = 256 * 1024

    /// A reply buffer's room: a chunk and the reply that passes it, unless that one is large.
    private static let replyBufferBytes = 56 * 1024

    /// Runs a read's `steps`, made of its `requests` lines, and returns the replies not yet sent.
    private func handle(_ steps: [ReadPlan.Step], requests: Int, readAt: Double) async -> [UInt8] {
        self.readAt = readAt
        defer { flushTally() }
        // Sized by requests, not steps: a visit's run of changes is one step and a reply each.
        var out = JSONWriter(capacity: min(Self.replyBufferBytes, 256 * requests))
        out.numberTexts = numberTexts
        var next = steps.startIndex
        while next < steps.endIndex {
            // Work ends with its client: what it sent and was not started is dropped.
            if output.isClosed { return [] }
            if out.byteCount >= Self.replyChunkBytes, !(await sendChunk(&out)) { return [] }
            let step = steps[next]
            next += 1
            let request: DecodedRequest
            switch step {
            case .changes(let changes):
                // A visit to the layout for the run (see `ReadPlan`).
                service.requests.add(changes.count, ordering: .relaxed)
                await answer(changesTo: changes[0].layout, changes, &out)
                // A pipelining client sends more once it has replies: sending a visit's worth now lets it, so that
                // this connection's thread reads and decodes its next requests while the rest of these run.
                if next < steps.endIndex, out.byteCount >= Self.earlyChunkBytes, !(await sendChunk(&out)) {
                    return []
                }
                continue
            case .single(let single):
                request = single
            }
            // A line over the limit is no request: it counts as an error only.
            if case .tooLarge = request {} else { service.requests.add(request.requestCount, ordering: .relaxed) }
            await answer(request, &out)
        }
        return out.takeBytes()
    }

    /// Adds the read's counts into the service's, under its lock once per read.
    private func flushTally() {
        guard !tally.isEmpty else { return }
        service.tally.withLock { $0.add(tally) }
        tally.clear()
    }
}
