import Foundation
import Glibc
import Testing
import WaterfallTestSupport

@testable import WaterfallServer

/// The built binary, driven with socat as users will; skipped only when the binary was not built.
@Suite(
    .tags(.process, .tool),
    .enabled(if: DaemonProcess.builtDaemon != nil, "waterfalld is not built next to the test bundle"))
struct EndToEndTests {
    private var daemon: String { DaemonProcess.builtDaemon ?? "" }

    @Test func servesSocatAndStopsOnSIGTERMWithinTwoSeconds() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let socket = directory + "/w.sock"
        let process = try DaemonProcess(.init(environment: ["WATERFALLD_SOCKET": socket]))
        #expect(await waitForFile(socket))
        let reply = try await socat(#"{"id":1,"method":"ping"}"# + "\n", path: socket)
        #expect(reply == #"{"jsonrpc":"2.0","id":1,"result":{"pong":true}}"# + "\n")
        // A client still connected must not hold the shutdown up.
        let idle = try TestClient(path: socket)
        try await idle.write("{\"id\":2}\n")
        _ = try await idle.readLines(1)
        process.signal(SIGTERM)
        let stopping = Date()
        let status = await process.waitForExit(within: 5)?.status
        let elapsed = Date().timeIntervalSince(stopping)
        #expect(status == 0)
        #expect(elapsed < 2)
        #expect(access(socket, F_OK) != 0, "the socket file must be removed")
        #expect(try await idle.readToEnd() == [])
    }

    @Test func refusesToStartOnALiveSocket() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let socket = directory + "/w.sock"
        let first = try DaemonProcess(.init(arguments: ["--socket", socket]))
        #expect(await waitForFile(socket))
        let second = try DaemonProcess(.init(arguments: ["--socket=\(socket)"]))
        #expect(await second.waitForExit(within: 5)?.status == 1)
        #expect(second.standardError.contains("another process is serving on \(socket)"))
        first.signal(SIGINT)
        #expect(await first.waitForExit(within: 5)?.status == 0)
    }

    @Test func exitsWithEXCONFIGNamingABadKey() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let file = directory + "/c.json"
        try #"{"maxLineByte": 100}"#.write(toFile: file, atomically: false, encoding: .utf8)
        let process = try DaemonProcess(.init(arguments: ["--config", file]))
        #expect(await process.waitForExit(within: 5)?.status == 78)
        #expect(process.standardError.contains("'maxLineByte'"))
    }

    @Test func printsHelpWithTheResolvedSocketAndRefusesUnknownFlags() async throws {
        let help = try DaemonProcess(
            .init(arguments: ["--help"], environment: ["WATERFALLD_SOCKET": "/run/test/w.sock"]))
        #expect(await help.waitForExit(within: 5)?.status == 0)
        let text = help.standardOutput
        #expect(text.contains("Socket: /run/test/w.sock"))
        #expect(text.contains("--log-level"))
        let bad = try DaemonProcess(.init(arguments: ["--frobnicate"]))
        #expect(await bad.waitForExit(within: 5)?.status == 2)
        #expect(bad.standardError.contains("--frobnicate"))
    }

    @Test func reloadsOnSIGHUPAndKeepsTheOldConfigWhenTheNewOneIsBad() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let socket = directory + "/w.sock"
        let file = directory + "/c.json"
        try #"{"logLevel": "info"}"#.write(toFile: file, atomically: false, encoding: .utf8)
        let process = try DaemonProcess(.init(arguments: ["--config", file, "--socket", socket]))
        #expect(await waitForFile(socket))
        try #"{"logLevel": "loud"}"#.write(toFile: file, atomically: false, encoding: .utf8)
        process.signal(SIGHUP)
        try await Task.sleep(for: .milliseconds(100))
        try #"{"logLevel": "debug"}"#.write(toFile: file, atomically: false, encoding: .utf8)
        process.signal(SIGHUP)
        try await Task.sleep(for: .milliseconds(100))
        #expect(try await socat("{\"id\":3}\n", path: socket).contains(#""id":3"#))
        process.signal(SIGTERM)
        #expect(await process.waitForExit(within: 5)?.status == 0)
        let log = process.standardError
        #expect(log.contains("keeping the old config"))
        #expect(log.contains("\"loud\""))
        #expect(log.contains("config reloaded (log level debug)"))
    }

    @Test(.enabled(if: ChildProcess.which("systemd-socket-activate") != nil, "systemd-socket-activate is missing"))
    func servesAnActivatedSocketAndNotifiesSystemd() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let socket = directory + "/activated.sock"
        let notify = try NotifyListener(path: directory + "/notify.sock")
        let process = try ChildProcess(
            ChildProcess.which("systemd-socket-activate")!,
            [
                "-l", socket, "-E", "NOTIFY_SOCKET=\(notify.path)", "-E", "WATERFALLD_SOCKET=\(directory)/own.sock",
                "-E", "STATE_DIRECTORY=\(directory)/state",
                daemon, "--log-level", "debug",
            ],
            environment: [:]
        )
        #expect(await waitForFile(socket))
        // systemd-socket-activate starts the daemon on the first connection, passing the socket as fd 3.
        let reply = try await socat(#"{"id":"a","method":"ping"}"# + "\n", path: socket)
        #expect(reply == #"{"jsonrpc":"2.0","id":"a","result":{"pong":true}}"# + "\n")
        #expect(try await notify.receive().contains("READY=1"))
        #expect(access(directory + "/own.sock", F_OK) != 0, "an activated daemon must not bind its own socket")
        process.signal(SIGTERM)
        #expect(await process.waitForExit(within: 5)?.status == 0)
        #expect(try await notify.receive().contains("STOPPING=1"))
        #expect(access(socket, F_OK) == 0, "an activated socket belongs to systemd and stays")
    }
}

/// A datagram socket standing in for systemd's notification socket.
final class NotifyListener: Sendable {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard let address = UnixSocketAddress(path) else { throw TestFailure("bad path \(path)") }
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else { throw TestFailure("bind \(path)") }
        var time = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// A datagram already received, if any, without waiting.
    func pending() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count < 0 ? nil : String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// The next datagram, read on a thread of its own (a blocking read must stay off the cooperative pool).
    func receive() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { [fd] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count < 0 {
                    continuation.resume(throwing: TestFailure("no notification within 5 s"))
                } else {
                    continuation.resume(returning: String(decoding: buffer[0..<count], as: UTF8.self))
                }
            }
        }
    }
}
