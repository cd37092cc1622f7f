import Glibc

/// A blocking Unix-socket client that reads whole lines, for threads a test or the benchmark owns (never the
/// cooperative pool): the fuzzer's and the soak's connection.
///
/// A read may end anywhere in a line, or hold several: the bytes after the last newline wait for the next read,
/// and a read interrupted by a signal is retried, so no line is lost or split.
package final class LineSocket {
    /// Why a socket call failed: the daemon closed the connection, went silent past the timeout, or refused it.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        /// The connection ended (EOF or reset): the daemon closed it or died.
        package var closed: Bool
    }

    package let fd: Int32

    // MARK: Lifecycle

    /// Connects to `path`; a read that waits longer than `timeout` seconds throws.
    package init(path: String, timeout: Int = 30) throws(Failure) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(Self.lastError())", closed: false) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw Failure(description: "socket path too long: \(path)", closed: false)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            let message = Self.lastError()
            close(fd)
            throw Failure(description: "connect \(path): \(message)", closed: false)
        }
    }

    deinit { close(fd) }

    // MARK: Public

    /// Sends all of `text`.
    package func send(_ text: String) throws(Failure) {
        let bytes = Array(text.utf8)
        var failure: Failure?
        bytes.withUnsafeBytes { raw in
            do throws(Failure) { try send(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    package func send(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let closed = errno == EPIPE || errno == ECONNRESET
                throw Failure(description: "send: \(Self.lastError())", closed: closed)
            }
            offset += n
        }
    }

    /// The next line, without its newline; throws at EOF, on an error or after the timeout.
    package func readLine() throws(Failure) -> String {
        while true {
            if let newline = pending[scanned...].firstIndex(of: 0x0A) {
                let line = String(decoding: pending[start..<newline], as: UTF8.self)
                start = newline + 1
                scanned = start
                return line
            }
            scanned = pending.count
            try fill()
        }
    }

    /// Half-closes the connection: the daemon sees the end of input and still answers.
    package func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    // MARK: Private

    private var pending: [UInt8] = []
    /// Where the next line starts, and how far `pending` has been searched for a newline.
    private var start = 0
    private var scanned = 0
    private var chunk = [UInt8](repeating: 0, count: 65_536)

    /// Appends one read's bytes to `pending` (first dropping the lines already taken).
    private func fill() throws(Failure) {
        if start > 0 {
            pending.removeSubrange(..<start)
            scanned -= start
            start = 0
        }
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                pending += chunk[..<n]
                return
            }
            if n < 0 && errno == EINTR { continue }
            if n == 0 { throw Failure(description: "the daemon closed the connection", closed: true) }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                throw Failure(description: "no reply within the timeout", closed: false)
            }
            throw Failure(description: "read: \(Self.lastError())", closed: errno == ECONNRESET)
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
