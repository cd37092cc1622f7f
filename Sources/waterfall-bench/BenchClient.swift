import Foundation
import Glibc
import WaterfallTestSupport

/// A blocking Unix-socket client on raw Glibc calls, for threads the benchmark owns (never the cooperative pool).
final class BenchClient: @unchecked Sendable {
    /// The size of a reply's reads (`WATERFALL_BENCH_READ_BYTES` overrides it, 4096 for a client with
    /// small reads).
    static let readBytes =
        ProcessInfo.processInfo.environment["WATERFALL_BENCH_READ_BYTES"].flatMap { Int($0) }
        .map { max(1, $0) } ?? 65_536

    let fd: Int32

    // MARK: Lifecycle

    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // A class's failable init that fails after `fd` is set runs `deinit`, which closes it: closing it here too
        // would close a descriptor number another thread may have been given meanwhile.
        guard connected == 0 else { return nil }
    }

    deinit { close(fd) }

    // MARK: Internal

    /// Writes all of `bytes`; false if the connection failed.
    @discardableResult
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { write($0) } }

    /// Reads until `lines` newlines have arrived; the first line (to check for errors) and the bytes read.
    func readLines(_ lines: Int) -> (first: String, bytes: Int)? {
        let size = 1 << 18
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var seen = 0
        var total = 0
        var first: [UInt8] = []
        while seen < lines {
            let n = read(fd, buffer, size)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            if first.count < 300 { first += UnsafeRawBufferPointer(start: buffer, count: min(n, 300)) }
            total += n
            var cursor = buffer
            let end = buffer + n
            while cursor < end, let hit = memchr(cursor, 0x0A, end - cursor) {
                seen += 1
                cursor = hit + 1
            }
        }
        let line = first.split(separator: 0x0A, maxSplits: 1).first.map { String(decoding: $0, as: UTF8.self) }
        return (line ?? "", total)
    }

    /// `call(line)` timed: its reply, the wall seconds it took and the CPU seconds `daemon` spent meanwhile.
    func timedCall(_ line: [UInt8], on daemon: BenchDaemon) -> (reply: [UInt8], seconds: Double, cpuSeconds: Double)? {
        let startCPU = daemon.cpuSeconds
        let start = nanoseconds()
        guard let reply = call(line) else { return nil }
        return (reply, Double(nanoseconds() - start) / 1e9, daemon.cpuSeconds - startCPU)
    }

    /// Sends one line (a newline is added) and returns its one reply line, without the newline.
    func call(_ line: [UInt8]) -> [UInt8]? {
        guard write(line + [0x0A]) else { return nil }
        var reply: [UInt8] = []
        // Reads of 64 KB, as a client that expects large replies makes them: with 4 KB ones a large reply takes
        // thousands of reads, and the daemon's writer finds the socket full at every chunk (so the bench would time
        // its own reads).
        var chunk = [UInt8](repeating: 0, count: Self.readBytes)
        while reply.last != 0x0A {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            reply += chunk[..<n]
        }
        reply.removeLast()
        return reply
    }

    /// Sends `line` and fails loudly (in the output, never the process) if the reply is an error.
    @discardableResult
    func expectResult(_ line: String) -> Bool {
        guard let reply = call(Array(line.utf8)) else {
            print("  no reply to \(line.prefix(80))")
            return false
        }
        let text = String(decoding: reply, as: UTF8.self)
        guard text.contains("\"result\"") else {
            print("  error reply to \(line.prefix(80)): \(text.prefix(300))")
            return false
        }
        return true
    }

    /// Makes layout `bulk` afresh (`BulkFeed.createLine`) and sends it `lines` (its inserts), one at a time.
    func load(_ lines: [String]) {
        expectResult(BulkFeed.createLine)
        for line in lines { expectResult(line) }
    }
}

/// Runs each body on a thread of its own and returns when all have finished.
func runOnThreads(_ bodies: [@Sendable () -> Void]) {
    let group = DispatchGroup()
    for body in bodies {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
}
