import Glibc
import Testing
import WaterfallTestSupport

@testable import WaterfallServer

/// Binding: stale sockets are replaced, live ones and non-sockets refused, modes applied.
@Suite(.tags(.server)) struct SocketListenerTests {
    private let logger = Logger(level: .error) { _ in }

    @Test func appliesTheSocketModeAndRemovesOnlyItsOwnFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/s.sock"
        let listener = try SocketListener.bind(path: path, mode: 0o640, gid: nil, logger: logger)
        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o640)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        listener.close()
        #expect(access(path, F_OK) != 0)
    }

    @Test func replacesAStaleSocket() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/s.sock"
        // A socket file nobody listens on, as a killed daemon leaves it.
        let stale = try SocketListener.bind(path: path, mode: 0o600, gid: nil, logger: logger)
        Glibc.close(stale.fd)
        let listener = try SocketListener.bind(path: path, mode: 0o600, gid: nil, logger: logger)
        _ = try TestClient(path: path)
        listener.close()
    }

    @Test func refusesALiveSocket() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/s.sock"
        let live = try SocketListener.bind(path: path, mode: 0o600, gid: nil, logger: logger)
        defer { live.close() }
        let error = #expect(throws: ServerError.self) {
            try SocketListener.bind(path: path, mode: 0o600, gid: nil, logger: logger)
        }
        #expect(error?.message.contains("another process is serving on \(path)") == true)
        _ = try TestClient(path: path)
    }

    @Test func refusesAPathThatIsNotASocket() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/file"
        let fd = open(path, O_CREAT | O_WRONLY, 0o600)
        Glibc.close(fd)
        let error = #expect(throws: ServerError.self) {
            try SocketListener.bind(path: path, mode: 0o600, gid: nil, logger: logger)
        }
        #expect(error?.message.contains("exists and is not a socket") == true)
        #expect(access(path, F_OK) == 0, "the file must be left alone")
    }

    @Test func refusesAPathTooLongForAnAddress() throws {
        let path = "/tmp/" + String(repeating: "x", count: 120)
        #expect(throws: ServerError.self) {
            try SocketListener.bind(path: path, mode: 0o600, gid: nil, logger: logger)
        }
    }

    @Test func buildsAbstractAddressesWithTheirExactLength() throws {
        let abstract = try #require(UnixSocketAddress("@notify"))
        let path = try #require(UnixSocketAddress("/run/x"))
        #expect(abstract.length == 2 + 7)
        #expect(path.length == 2 + 6 + 1)
        #expect(withUnsafeBytes(of: abstract.address.sun_path) { $0[0] } == 0)
    }
}
