import Dispatch
import Foundation
import Glibc
import Synchronization
import WaterfallProtocol
import WaterfallTestSupport
import WaterfallWire

@testable import WaterfallServer

/// A session handler for transport tests: echoes each line, and obeys a few commands.
///
/// `sleep N` waits N ms before answering, `big N` answers N bytes, `TOO_LARGE` stands for an over-limit line.
final class TestHandler: SessionHandler {
    let opened = Atomic<Int>(0)
    let closed = Atomic<Int>(0)
    /// Sessions that saw `handle` called while another `handle` was still running, or after `close`.
    let violations = Atomic<Int>(0)
    let handleStarted = Atomic<Int>(0)
    /// Reads handed to `prepare`, across sessions.
    let prepared = Atomic<Int>(0)
    /// Reads prepared on an event loop's thread, and reads holding a line of `longLineBytes` or more prepared on it
    /// and apart from it.
    let preparedOnLoop = Atomic<Int>(0)
    let longPreparedOnLoop = Atomic<Int>(0)
    let longPreparedApart = Atomic<Int>(0)
    static let longLineBytes = 256 * 1024
    /// Works let go of (what each work captures, standing for a read's requests), across sessions.
    let worksReleased = Atomic<Int>(0)
    /// `clientPaused` calls (the transport letting go of a bulk load's buffers), across sessions.
    let pauses = Atomic<Int>(0)
    let sessions = Mutex<[TestSession]>([])
    let reloads = Mutex<[Config]>([])

    func openSession(peer: PeerCredentials, output: any OutputSink) -> any Session {
        opened.add(1)
        let session = TestSession(handler: self, output: output)
        sessions.withLock { $0.append(session) }
        return session
    }

    func configDidReload(_ config: Config) {
        reloads.withLock { $0.append(config) }
    }
}

/// One connection of `TestHandler`.
final class TestSession: Session {
    let output: any OutputSink
    let closeCount = Atomic<Int>(0)
    private let handler: TestHandler
    private let handling = Atomic<Bool>(false)
    private let preparing = Atomic<Bool>(false)

    init(handler: TestHandler, output: any OutputSink) {
        self.handler = handler
        self.output = output
    }

    func prepare(_ lines: [InputLine]) -> SessionWork {
        // The transport prepares one read at a time, and never after the session closed.
        if preparing.exchange(true, ordering: .relaxed) || closeCount.load(ordering: .relaxed) > 0 {
            handler.violations.add(1)
        }
        defer { preparing.store(false, ordering: .relaxed) }
        handler.prepared.add(1)
        let onLoop = Thread.current.name?.hasPrefix("waterfalld.io.") == true
        let long = lines.contains {
            if case .line(let bytes) = $0 { bytes.count >= TestHandler.longLineBytes } else { false }
        }
        if onLoop { handler.preparedOnLoop.add(1) }
        if long, onLoop { handler.longPreparedOnLoop.add(1) }
        if long, !onLoop { handler.longPreparedApart.add(1) }
        let payload = WorkPayload(handler: handler)
        return {
            withExtendedLifetime(payload) {}
            return await self.handle(lines)
        }
    }

    func handle(_ lines: [InputLine]) async -> [UInt8] {
        handler.handleStarted.add(1)
        if handling.exchange(true, ordering: .relaxed) || closeCount.load(ordering: .relaxed) > 0 {
            handler.violations.add(1)
        }
        defer { handling.store(false, ordering: .relaxed) }
        var reply: [UInt8] = []
        for line in lines {
            guard case .line(let bytes) = line else {
                reply += Array("TOO_LARGE\n".utf8)
                continue
            }
            let text = String(decoding: bytes, as: UTF8.self)
            if text.hasPrefix("sleep "), let millis = Int(text.dropFirst(6)) {
                try? await Task.sleep(for: .milliseconds(millis))
            } else if text.hasPrefix("bulk "), let millis = Int(text.dropFirst(5).prefix { $0 != " " }) {
                // A long line (padded with spaces) that takes a while, as a bulk insert does.
                try? await Task.sleep(for: .milliseconds(millis))
                reply += Array("bulk \(millis)\n".utf8)
                continue
            } else if text.hasPrefix("big "), let count = Int(text.dropFirst(4)) {
                reply += [UInt8](repeating: 0x78, count: count)
                reply.append(0x0A)
                continue
            }
            reply += bytes
            reply.append(0x0A)
        }
        return reply
    }

    func clientPaused() {
        handler.pauses.add(1)
    }

    func close() async {
        if handling.load(ordering: .relaxed) { handler.violations.add(1) }
        closeCount.add(1)
        handler.closed.add(1)
    }
}

/// A server on a socket in a fresh temporary directory, with a quiet logger whose lines tests can read.
struct TestServer {
    let server: Server
    let directory: String
    let path: String
    let handler: TestHandler
    let log: LogCapture

    static func start(
        handler: TestHandler = TestHandler(),
        trustedUIDs: Set<UInt32>? = nil,
        configure: (inout Config) -> Void = { _ in }
    ) throws -> TestServer {
        let directory = try makeTemporaryDirectory()
        var config = Config()
        config.socket = directory + "/waterfalld.sock"
        configure(&config)
        let log = LogCapture()
        let server = try Server(config: config, handler: handler, logger: log.logger, trustedUIDs: trustedUIDs)
        try server.start()
        return TestServer(server: server, directory: directory, path: config.socket!, handler: handler, log: log)
    }

    func stop() async {
        await server.shutdown()
        removeDirectory(directory)
    }
}

extension Atomic where Value == Int {
    var value: Int { load(ordering: .relaxed) }
}

/// Polls `condition` every few milliseconds until it holds or `seconds` pass; returns whether it held.
func eventually(within seconds: Double = 3, _ condition: () -> Bool) async -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while !condition() {
        if DispatchTime.now().uptimeNanoseconds > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return true
}

/// Open descriptors of this process, from /proc/self/fd.
func openFileDescriptorCount() -> Int {
    guard let directory = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(directory) }
    var count = 0
    while readdir(directory) != nil { count += 1 }
    return count - 3  // ".", ".." and the directory's own descriptor
}

/// Keeps a logger's lines for assertions.
final class LogCapture: Sendable {
    let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger(level: .debug, style: .journal) { [self] line in lines.withLock { $0.append(line) } }
    }
}

/// What a `TestSession`'s work captures, as a read's requests are captured by the daemon's: counted when let go.
final class WorkPayload: Sendable {
    private let handler: TestHandler

    init(handler: TestHandler) {
        self.handler = handler
    }

    deinit {
        handler.worksReleased.add(1)
    }
}
