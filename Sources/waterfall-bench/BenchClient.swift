import Foundation
import WaterfallTestSupport

/// The benchmark's client: `LineSocket` with the benchmark's read size, its failures as nil or false (a figure
/// that cannot be taken is reported, never fatal), for threads the benchmark owns.
final class BenchClient: @unchecked Sendable {
    /// The size of a reply's reads (`WATERFALL_BENCH_READ_BYTES` overrides it, 4096 for a client with
    /// small reads).
    static let readBytes =
        ProcessInfo.processInfo.environment["WATERFALL_BENCH_READ_BYTES"].flatMap { Int($0) }
        .map { max(1, $0) } ?? 65_536

    // MARK: Lifecycle

    /// Reads of 64 KB by default, as a client that expects large replies makes them: with 4 KB ones a large reply
    /// takes thousands of reads, and the daemon's writer finds the socket full at every chunk (so the bench would
    /// time its own reads). No timeout: a bulk load may take long.
    init?(path: String) {
        guard let socket = try? LineSocket(path: path, timeout: nil, readSize: Self.readBytes) else { return nil }
        self.socket = socket
    }

    // MARK: Internal

    /// Writes all of `bytes`; false if the connection failed.
    @discardableResult
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool { (try? socket.send(bytes)) != nil }

    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool { (try? socket.send(bytes)) != nil }

    /// Reads until `lines` newlines have arrived; the first line (to check for errors) and the bytes read.
    func readLines(_ lines: Int) -> (first: String, bytes: Int)? { try? socket.skipLines(lines) }

    /// `call(line)` timed: its reply, the wall seconds it took and the CPU seconds `daemon` spent meanwhile.
    func timedCall(_ line: [UInt8], on daemon: DaemonProcess) -> (reply: [UInt8], seconds: Double, cpuSeconds: Double)?
    {
        let startCPU = daemon.cpuSeconds
        let start = nanoseconds()
        guard let reply = call(line) else { return nil }
        return (reply, Double(nanoseconds() - start) / 1e9, daemon.cpuSeconds - startCPU)
    }

    /// Sends one line (a newline is added) and returns its one reply line, without the newline.
    func call(_ line: [UInt8]) -> [UInt8]? {
        guard write(line + [0x0A]) else { return nil }
        return (try? socket.readLineBytes()).map(Array.init)
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

    // MARK: Private

    private let socket: LineSocket
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
