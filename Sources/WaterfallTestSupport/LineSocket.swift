import Glibc

/// The blocking Unix-socket line client of the tests, the fuzzer and the benchmark, for threads they own (never the
/// cooperative pool): whole lines out, whole lines in.
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

    /// Connects to `path`; a read or a send that waits longer than `timeout` seconds throws (nil: they wait as long
    /// as it takes). Reads take up to `readSize` bytes at a time.
    package init(path: String, timeout: Int? = 30, readSize: Int = 65_536) throws(Failure) {
        chunk = [UInt8](repeating: 0, count: max(1, readSize))
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(Self.lastError())", closed: false) }
        if let timeout {
            var time = timeval(tv_sec: timeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close()
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
            close()
            throw Failure(description: "connect \(path): \(message)", closed: false)
        }
    }

    deinit { close() }

    // MARK: Sending

    /// Sends all of `text`.
    package func send(_ text: String) throws(Failure) {
        try send(Array(text.utf8))
    }

    /// Sends all of `bytes`.
    package func send(_ bytes: [UInt8]) throws(Failure) {
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

    /// Half-closes the connection: the daemon sees the end of input and still answers.
    package func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Closes the socket; a later close does nothing.
    package func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }

    // MARK: Reading

    /// The next line, without its newline; throws at EOF, on an error or after the timeout.
    package func readLine() throws(Failure) -> String {
        String(decoding: try readLineBytes(), as: UTF8.self)
    }

    /// The next line's bytes, without its newline; throws as `readLine` does.
    package func readLineBytes() throws(Failure) -> ArraySlice<UInt8> {
        while true {
            if let newline = pending[scanned...].firstIndex(of: 0x0A) {
                let line = pending[start..<newline]
                start = newline + 1
                scanned = start
                return line
            }
            scanned = pending.count
            try fill()
        }
    }

    /// Up to `count` lines: fewer when the connection ends first; throws on an error or after the timeout.
    package func readLines(_ count: Int) throws(Failure) -> [String] {
        var lines: [String] = []
        while lines.count < count {
            do throws(Failure) {
                lines.append(try readLine())
            } catch {
                guard error.closed else { throw error }
                break
            }
        }
        return lines
    }

    /// Every whole line until the connection ends.
    package func readToEnd() throws(Failure) -> [String] {
        try readLines(.max)
    }

    /// Reads past `count` lines without keeping them, as a load client counts its replies: the first line's start
    /// (to check it for an error) and the bytes read; throws when the connection ends first.
    package func skipLines(_ count: Int) throws(Failure) -> (first: String, bytes: Int) {
        var seen = 0
        var bytes = 0
        var first: [UInt8] = []
        while seen < count {
            if start == pending.count { try fill() }
            let window = pending[start...]
            if first.count < 300 { first += window.prefix(300 - first.count) }
            var end = start
            // Count the newlines of what is buffered, up to the `count`th; what follows it stays for the next read.
            window.withUnsafeBytes { raw in
                var cursor = raw.baseAddress!
                let limit = raw.baseAddress! + raw.count
                while seen < count, cursor < limit, let hit = memchr(cursor, 0x0A, limit - cursor) {
                    seen += 1
                    cursor = UnsafeRawPointer(hit) + 1
                }
                end = start + (seen < count ? raw.count : cursor - raw.baseAddress!)
            }
            bytes += end - start
            start = end
            scanned = start
        }
        let line = first.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false).first
        return (line.map { String(decoding: $0, as: UTF8.self) } ?? "", bytes)
    }

    // MARK: Private

    private var pending: [UInt8] = []
    /// Where the next line starts, and how far `pending` has been searched for a newline.
    private var start = 0
    private var scanned = 0
    private var chunk: [UInt8]
    private var closed = false

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
