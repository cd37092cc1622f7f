import Foundation
import Glibc
import WaterfallClient
import WaterfallTestSupport

/// A Unix socket that accepts connections (the kernel's backlog does) and never answers.
final class SilentListener: @unchecked Sendable {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            throw TestFailure("bind \(path): \(String(cString: strerror(errno)))")
        }
    }

    func close() {
        Glibc.close(fd)
        unlink(path)
    }
}

extension SilentListener {
    /// Runs `body` with a client whose calls time out after `timeout`, connected to a silent listener in a
    /// temporary directory that is removed afterwards.
    static func withClient(
        timeout: Duration, _ body: (WaterfallClient) async throws -> Void
    ) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let silent = try SilentListener(path: directory + "/silent.sock")
        defer { silent.close() }
        try await body(try await WaterfallClient.connect(to: silent.path, timeout: timeout))
    }
}
