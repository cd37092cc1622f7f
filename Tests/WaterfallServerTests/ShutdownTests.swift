import Foundation
import Glibc
import Testing
import WaterfallTestSupport

/// Shutdown is deterministic: the socket file the daemon made is gone before it exits, every time.
@Suite(.tags(.process), .serialized) struct ShutdownTests {
    @Test(arguments: [(SIGTERM, 200), (SIGINT, 50)])
    func everyStopRemovesTheSocketFile(signal: Int32, cycles: Int) async throws {
        var left = 0
        var failures: [String] = []
        for _ in 0..<cycles {
            let daemon = try await DaemonProcess.start()
            let status = await daemon.stop(signal)
            if status != .exited(0) { failures.append(status.map { "\($0)" } ?? "did not exit") }
            if access(daemon.socketPath, F_OK) == 0 { left += 1 }
        }
        #expect(left == 0, "the socket file was left behind in \(left) of \(cycles) cycles")
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func aStopWhileAClientIsConnectedAlsoRemovesIt() async throws {
        for _ in 0..<20 {
            let daemon = try await DaemonProcess.start()
            let client = try TestClient(path: daemon.socketPath)
            try await client.write(#"{"id":1,"method":"ping"}"# + "\n")
            _ = try await client.readLines(1)
            #expect(await daemon.stop() == .exited(0))
            #expect(access(daemon.socketPath, F_OK) != 0)
        }
    }
}
