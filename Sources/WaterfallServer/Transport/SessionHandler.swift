import WaterfallProtocol
import WaterfallWire

/// Where a connection's outgoing bytes go. Thread-safe.
///
/// A reply's producer is held back by the client: after queueing a chunk, it waits (`waitForRoom`) while the
/// client has `outputPauseBytes` unsent, so a reply of any size costs a few chunks of memory, and it stops when the
/// connection closes. Events are sent without waiting; their own limit is `subscriberMaxPendingBytes`.
package protocol OutputSink: AnyObject, Sendable {
    /// Queues notification lines behind everything queued before and starts writing them; false if the connection
    /// is closed.
    @discardableResult func send(_ bytes: [UInt8]) -> Bool
    /// Queues a chunk of a session's replies, in order; `endingInsideAReply` when its last reply goes on in the next
    /// chunk, so that notifications sent meanwhile wait until the reply's end is queued (never inside a reply).
    @discardableResult func sendReplies(_ bytes: [UInt8], endingInsideAReply: Bool) -> Bool
    /// Bytes queued and not yet written (a subscriber whose count keeps growing is not keeping up).
    var pendingBytes: Int { get }
    /// Whether the connection is closed: work for it stops, as nobody will read its replies.
    var isClosed: Bool { get }
    /// Whether the client has less than `outputPauseBytes` unsent (a producer need not wait).
    var hasRoom: Bool { get }
    /// Returns true at once if the client has less than `outputPauseBytes` unsent, else once it has read down to
    /// half of that; false once the connection is closed. Suspends, never blocks.
    func waitForRoom() async -> Bool
    /// Closes the connection after flushing what is queued.
    func close()
}

/// Who is on the other end of a connection, as the kernel saw it at `connect()` (SO_PEERCRED).
package struct PeerCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The peer's process id.
    package var pid: Int32
    /// The peer's effective user id.
    package var uid: UInt32
    /// The peer's effective primary group id.
    package var gid: UInt32

    package init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }

    package var description: String { "pid \(pid) uid \(uid) gid \(gid)" }
}

/// What the transport hands input to; the request router implements it.
package protocol SessionHandler: Sendable {
    /// A new connection passed the credential check; `output` also carries notifications (events).
    func openSession(peer: PeerCredentials, output: any OutputSink) -> any Session
    /// SIGHUP loaded a new config (the transport has already applied its own limits).
    func configDidReload(_ config: Config)
}

/// The work that answers one read's lines: it returns the bytes of all their replies, in order.
package typealias SessionWork = @Sendable () async -> [UInt8]

/// One connection's request state.
package protocol Session: AnyObject, Sendable {
    /// Does for the complete lines of one read what needs nothing but the lines (parsing and decoding them), and
    /// returns the work that answers them.
    ///
    /// Called on the connection's own thread, one read after the other, while the work of the read before may
    /// still be running in a task: reading and decoding the next requests overlap with running the last ones.
    /// The transport runs each work after the one before has returned and then sends its result, so replies are
    /// in request order. A work may also send the first of its replies through the `OutputSink` as it goes
    /// (`sendReplies`, a chunk at a time, waiting for room between chunks); notifications sent meanwhile may come
    /// between replies, never inside one. A work should stop once the sink `isClosed`: nobody reads its replies.
    func prepare(_ lines: [InputLine]) -> SessionWork
    /// The connection has nothing left to do after lines long enough for bulk buffers (`LineFramer.releaseSpares`):
    /// the client may be idle, and buffers grown for those lines can go. Called where a work ends (a task of the
    /// cooperative pool, before its reply is written), possibly while the next read is being prepared: it must not
    /// block.
    func clientPaused()
    /// The connection ended (peer closed, error or shutdown): drop subscriptions. Called exactly once, after
    /// the last work has returned.
    func close() async
}

extension Session {
    package func clientPaused() {}
}
