import Foundation
import WaterfallTestSupport

/// The tests' async face of `LineSocket`: each call runs on a thread of its own, never on the test's cooperative
/// pool (which the server's session tasks need).
final class TestClient: @unchecked Sendable {
    // MARK: Lifecycle

    /// Connects to `path`; reads give up after `timeout` seconds so a broken server fails a test, not hangs it.
    init(path: String, timeout: Int = 30) throws {
        do {
            socket = try LineSocket(path: path, timeout: timeout)
        } catch {
            throw TestFailure(error.description)
        }
    }

    // MARK: Internal

    var fd: Int32 { socket.fd }

    /// Sends all of `text`.
    func write(_ text: String) async throws {
        try await write(Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) async throws {
        try await onThread { [self] in try socket.send(bytes) }
    }

    /// Reads until `count` lines have arrived, or EOF, or the timeout; returns the lines read.
    func readLines(_ count: Int) async throws -> [String] {
        try await onThread { [self] in try socket.readLines(count) }
    }

    /// Reads everything until the server closes; returns the lines.
    func readToEnd() async throws -> [String] {
        try await onThread { [self] in try socket.readToEnd() }
    }

    /// Half-closes: the server sees end of input and still replies.
    func shutdownWrite() { socket.shutdownWrite() }

    /// Closes the socket; a later close does nothing.
    func closeNow() { socket.close() }

    // MARK: Private

    private let socket: LineSocket

    /// Runs a blocking call on a thread of its own: on dispatch's pool, 64 clients blocked in `read` would take
    /// the threads the server's own queues need (the pool does not grow for threads blocked in syscalls).
    private func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        do {
                            return try body()
                        } catch let failure as LineSocket.Failure {
                            throw TestFailure(failure.description)
                        }
                    })
            }.start()
        }
    }
}

extension TestClient {
    /// `layout.create` of one two-column section of `items` items of assorted heights, without a diff.
    func createLayout(_ name: String, items: Int) async throws {
        var text = #"{"id":"create","method":"layout.create","params":{"layout":""# + name
        text += #"","width":375,"diff":false,"defaults":{"columns":2},"sections":[{"items":["#
        text.reserveCapacity(text.utf8.count + items * 9)
        for i in 0..<items {
            if i > 0 { text += "," }
            text += #"{"h":"# + String(40 + i % 97) + "}"
        }
        text += "]}]}}\n"
        try await write(text)
        guard let reply = try await readLines(1).first, reply.contains(#""seq":1"#) else {
            throw TestFailure("layout.create of \(items) items failed")
        }
    }
}
