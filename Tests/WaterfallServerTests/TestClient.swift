import Foundation
import Glibc
import WaterfallTestSupport

/// A blocking Unix-socket client whose calls run on its own thread, never on the test's cooperative pool
/// (which the server's session tasks need).
final class TestClient: @unchecked Sendable {
    // MARK: Lifecycle

    /// Connects to `path`; reads give up after `timeout` seconds so a broken server fails a test, not hangs it.
    init(path: String, timeout: Int = 30) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard status == 0 else {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            throw TestFailure("connect \(path): \(message)")
        }
    }

    deinit { closeNow() }

    // MARK: Internal

    let fd: Int32

    /// Sends all of `text`.
    func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) async throws {
        try await onThread { [fd] in
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes {
                    Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
                }
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { throw TestFailure("send: \(String(cString: strerror(errno)))") }
                offset += sent
            }
        }
    }

    /// Reads until `count` lines have arrived, or EOF, or the timeout; returns the lines read.
    func readLines(_ count: Int) async throws -> [String] {
        try await onThread { [self] in
            while lines.count < count {
                guard try fill() else { break }
            }
            let taken = Array(lines.prefix(count))
            lines.removeFirst(taken.count)
            return taken
        }
    }

    /// Reads everything until the server closes; returns the lines.
    func readToEnd() async throws -> [String] {
        try await onThread { [self] in
            while try fill() {}
            defer { lines = [] }
            return lines
        }
    }

    /// Half-closes: the server sees end of input and still replies.
    func shutdownWrite() {
        Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    /// Closes the socket; a later close does nothing.
    func closeNow() {
        if !closed {
            closed = true
            Glibc.close(fd)
        }
    }

    // MARK: Private

    private var partial: [UInt8] = []
    private var lines: [String] = []
    private var closed = false

    /// One read; false at EOF. A timeout throws.
    private func fill() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        // A signal delivered to this thread (a test's child exiting, a server test's handlers) interrupts the read:
        // read again, or the test reports a reply as missing ("read: Interrupted system call", seen in
        // DocumentationExampleTests).
        while count < 0 && errno == EINTR {
            count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        }
        if count < 0 {
            if errno == ECONNRESET { return false }
            throw TestFailure("read: \(String(cString: strerror(errno)))")
        }
        if count == 0 { return false }
        // Split with `firstIndex(of:)` rather than byte by byte: megabyte replies are slow to loop over in debug.
        var start = 0
        while let newline = buffer[start..<count].firstIndex(of: 0x0A) {
            partial += buffer[start..<newline]
            lines.append(String(decoding: partial, as: UTF8.self))
            partial = []
            start = newline + 1
        }
        partial += buffer[start..<count]
        return true
    }

    /// Runs a blocking call on a thread of its own: on dispatch's pool, 64 clients blocked in `read` would take
    /// the threads the server's own queues need (the pool does not grow for threads blocked in syscalls).
    private func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
