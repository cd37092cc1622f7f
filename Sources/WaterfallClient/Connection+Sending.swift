import Dispatch
@_spi(Package) import WaterfallJSON

/// How request lines reach the socket: written into `State.outgoing` under the connection's lock, then sent by one
/// sender at a time, which holds `sending` (`State.isSending`) and sends whatever has gathered, in wire order.
extension Connection {
    /// The bytes being sent: used only by the sender that holds them (`State.isSending`), between taking them from
    /// `State.outgoing` and giving the emptied buffer back for the next requests. The two buffers change places, so
    /// that neither is allocated again.
    final class SendBuffer: @unchecked Sendable {
        var bytes = JSONWriter(capacity: 4_096)
    }

    /// Appends a request line and its newline to `w`: the envelope, then what `params` writes.
    static func writeRequest(
        id: Int64, method: String, params: (inout JSONWriter) -> Void, into w: inout JSONWriter
    ) {
        w.beginObject()
        // The envelope in one run, with one check for room, not a writer call with its bookkeeping per member.
        w.fragment(maximumLength: 32 + JSONFragment.numberLength + JSONFragment.stringLength(method)) { f in
            f.text(#""jsonrpc":"2.0","id":"#)
            f.integer(Int(id))
            f.text(#","method":"#)
            f.string(method)
        }
        params(&w)
        w.endObject()
        w.newline()
    }

    /// Sends the requests queued, on the calling thread, as far as the socket takes them without blocking, unless
    /// another sender holds the buffer (it then sends them too, before it lets go). The reading thread calls this
    /// after each read; a call or a pipeline that no reply on its way would send calls it after queueing its
    /// requests, so that they leave at once, in one write, with no hop to another thread. A send that does not
    /// block is no blocking call on the cooperative pool: what the socket does not take (the daemon is behind)
    /// goes to the writer's queue, whose job blocking is, with the buffer, and everything queued after it.
    func sendQueued() {
        let holds = state.withLock { state -> Bool in
            guard !state.isSending, state.takeOutgoing(into: &sending.bytes) else { return false }
            state.isSending = true
            return true
        }
        guard holds else { return }
        while true {
            switch sending.bytes.withUnsafeBytes({ Socket.sendAvailable(fd, $0) }) {
            case .failure(let failure):
                sending.bytes.reset()
                state.withLock { $0.stopSending(fd) }
                return failed(failure)
            case .success(let sent) where sent < sending.bytes.byteCount:
                let rest = Array(sending.bytes.bytes.dropFirst(sent))
                sending.bytes.reset()
                writer.async {
                    if let failure = rest.withUnsafeBytes({ Socket.sendAll(self.fd, $0) }) {
                        self.state.withLock { $0.stopSending(self.fd) }
                        return self.failed(failure)
                    }
                    self.flush()
                }
                return
            case .success:
                sending.bytes.reset()
                guard takeMore() else { return }
            }
        }
    }

    /// On `writer`, holding the buffer: sends every request queued, blocking while the socket is full, until none
    /// is left, then lets go of the buffer.
    func flush() {
        while takeMore() {
            let failure = sending.bytes.withUnsafeBytes { Socket.sendAll(fd, $0) }
            sending.bytes.reset()
            if let failure {
                state.withLock { $0.stopSending(fd) }
                return failed(failure)
            }
        }
    }

    // MARK: Private

    /// For the sender holding the buffer: takes the requests queued since into it, or lets go of it when there are
    /// none (in the same locked step, so that a request queued meanwhile is never left without a sender).
    private func takeMore() -> Bool {
        state.withLock { state in
            guard state.takeOutgoing(into: &sending.bytes) else {
                state.stopSending(fd)
                return false
            }
            return true
        }
    }
}
