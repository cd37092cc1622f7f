import Dispatch
import Glibc
import WaterfallProtocol
import WaterfallWire

extension Server {
    // MARK: Internal

    /// Accepts what is pending (a bounded number, to stay fair to connections sharing the CPU).
    func acceptConnections() {
        guard let listenFD = state.withLock({ $0.phase == .running ? $0.listener?.fd : nil }) else { return }
        for _ in 0..<Self.acceptsPerEvent {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                case EAGAIN, EWOULDBLOCK: return
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    backOffAccepting(errno)
                    return
                default:
                    logger.error("accept failed: \(describeErrno())")
                    return
                }
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
            counters.connectionsAccepted.add(1)
            admit(fd)
        }
    }

    // MARK: Private

    private static let acceptsPerEvent = 64
    private static let acceptBackoff = DispatchTimeInterval.milliseconds(100)

    /// Checks the peer and the connection limit, then starts a session.
    private func admit(_ fd: Int32) {
        guard let peer = PeerCredentials(socket: fd) else {
            logger.warning("closing a connection whose credentials cannot be read: \(describeErrno())")
            Glibc.close(fd)
            return
        }
        let policy = state.withLock { $0.policy }
        let limits = context.limits
        let allowed = policy.allows(peer) { PeerCredentials.supplementaryGroups(socket: fd) }
        guard allowed else {
            counters.connectionsForbidden.add(1)
            logger.warning("refused \(peer): not allowed to connect")
            refuse(fd, ProtocolError(.forbidden, "uid \(peer.uid) is not allowed to connect"))
            return
        }
        guard context.openCount < limits.maxConnections else {
            counters.connectionsOverLimit.add(1)
            let bound =
                limits.connectionsLimitedByDescriptors
                ? "the open-file limit allows \(limits.maxConnections)" : "maxConnections is \(limits.maxConnections)"
            logger.warning("refused \(peer): \(limits.maxConnections) connections are open (\(bound))")
            refuse(fd, ProtocolError(.limit, "too many connections (\(bound))"))
            return
        }
        let connection = Connection(fd: fd, peer: peer, context: context)
        context.register(connection)
        logger.debug("connection \(connection.id) opened by \(peer)")
        connection.start(session: handler.openSession(peer: peer, output: connection))
    }

    /// Sends one error line and closes; the line fits the empty socket buffer, so one non-blocking send does.
    private func refuse(_ fd: Int32, _ error: ProtocolError) {
        let bytes = ReplyEncoding.refusal(error)
        let sent = bytes.withUnsafeBytes {
            Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        if sent > 0 { counters.bytesWritten.add(sent) }
        Glibc.close(fd)
    }

    /// Out of descriptors: a level-triggered listener would spin, so stop accepting for a moment.
    private func backOffAccepting(_ error: Int32) {
        let suspended = state.withLock { state -> Bool in
            guard let source = state.acceptSource, !state.acceptSuspended, state.phase == .running else { return false }
            state.acceptSuspended = true
            source.suspend()
            return true
        }
        guard suspended else { return }
        logger.error("accept failed: \(describeErrno(error)); pausing accepts for 100 ms")
        acceptQueue.asyncAfter(deadline: .now() + Self.acceptBackoff) { [self] in
            state.withLock { state in
                guard state.acceptSuspended, let source = state.acceptSource else { return }
                state.acceptSuspended = false
                source.resume()
            }
        }
    }
}
