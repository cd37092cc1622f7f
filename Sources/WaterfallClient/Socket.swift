import Glibc

/// The few blocking socket calls the client makes, each on a thread of the connection's own.
enum Socket {
    /// A connected Unix stream socket at `path`.
    static func connect(_ path: String) -> Result<Int32, WaterfallClientError> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
            return .failure(.cannotConnect(path, "not a socket path of 1 to \(capacity - 1) bytes"))
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(.cannotConnect(path, errorText())) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        var status: Int32
        repeat {
            status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        } while status != 0 && errno == EINTR
        guard status == 0 else {
            let reason = errorText()
            Glibc.close(fd)
            return .failure(.cannotConnect(path, reason))
        }
        return .success(fd)
    }

    /// One read into `buffer`: the byte count (0 at the end), or the error.
    static func read(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SocketError> {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return .success(n) }
            if errno == EINTR { continue }
            // A reset after the daemon closed is an end like any other.
            if errno == ECONNRESET { return .success(0) }
            return .failure(SocketError(errorText()))
        }
    }

    /// Sends all of `bytes`; the error if the connection failed.
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> SocketError? {
        switch send(fd, bytes, flags: 0) {
        case .failure(let failure): failure
        // A blocking socket does not fill up; one that says it did has failed.
        case .success(let sent): sent < bytes.count ? SocketError(errorText()) : nil
        }
    }

    /// Sends as much of `bytes` as the socket takes without blocking: the byte count sent, or the error.
    static func sendAvailable(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Int, SocketError> {
        send(fd, bytes, flags: Int32(MSG_DONTWAIT))
    }

    /// Sends `bytes` until all are sent or, with `MSG_DONTWAIT`, the socket is full: the byte count sent.
    private static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, flags: Int32) -> Result<Int, SocketError> {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a daemon that went away must not kill the client with SIGPIPE.
            let n = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL) | flags)
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            guard n > 0 else { return .failure(SocketError(errorText())) }
            offset += n
        }
        return .success(offset)
    }

    /// Runs `body` on a new detached thread (a thread of the client's own, never the cooperative pool's); the
    /// error if no thread could be made.
    static func startThread(_ body: @escaping @Sendable () -> Void) -> SocketError? {
        final class Box: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            return SocketError("cannot start a thread: \(String(cString: strerror(status)))")
        }
        pthread_detach(thread)
        return nil
    }

    static func shutdown(_ fd: Int32) { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    static func close(_ fd: Int32) { _ = Glibc.close(fd) }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

/// A failed socket call, as `strerror` says it.
struct SocketError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
