import Glibc
import Testing
import WaterfallTestSupport

@testable import WaterfallServer

/// Where the socket goes without a flag or config, and the checks on the private directory.
@Suite struct SocketPathTests {
    @Test func prefersTheConfiguredPathThenTheEnvironment() throws {
        let environment = ["WATERFALLD_SOCKET": "/env.sock", "XDG_RUNTIME_DIR": "/tmp"]
        #expect(
            try SocketPath.resolve(configured: "/c.sock", environment: environment, createDirectory: false) == "/c.sock"
        )
        #expect(
            try SocketPath.resolve(configured: nil, environment: environment, createDirectory: false) == "/env.sock")
        let runtime = ["XDG_RUNTIME_DIR": "/tmp/"]
        #expect(
            try SocketPath.resolve(configured: nil, environment: runtime, createDirectory: false)
                == "/tmp/waterfalld.sock"
        )
    }

    @Test func fallsBackToAPrivateDirectoryCreatedMode0700() throws {
        let base = try makeTemporaryDirectory()
        defer { removeDirectory(base + "/waterfalld-4242"); removeDirectory(base) }
        let environment = ["XDG_RUNTIME_DIR": base + "/missing"]
        let path = try SocketPath.resolve(
            configured: nil, environment: environment, uid: getuid(), temporaryDirectory: base, createDirectory: true
        )
        #expect(path == base + "/waterfalld-\(getuid())/waterfalld.sock")
        var info = stat()
        #expect(stat(base + "/waterfalld-\(getuid())", &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
        // Again: an existing private directory of ours is fine.
        _ = try SocketPath.resolve(configured: nil, environment: [:], temporaryDirectory: base, createDirectory: true)
        removeDirectory(base + "/waterfalld-\(getuid())")
    }

    @Test func refusesAnOpenOrForeignDirectory() throws {
        let base = try makeTemporaryDirectory()
        let directory = base + "/waterfalld-\(getuid())"
        defer { removeDirectory(directory); removeDirectory(base) }
        mkdir(directory, 0o700)
        chmod(directory, 0o755)
        let open = #expect(throws: ConfigError.self) {
            try SocketPath.resolve(configured: nil, environment: [:], temporaryDirectory: base, createDirectory: true)
        }
        #expect(open?.message.contains("mode 755") == true)
        chmod(directory, 0o700)
        // Owned by someone else (the tests run as root, so chown works; as another user it is skipped).
        if getuid() == 0 {
            chown(directory, 4242, 4242)
            let foreign = #expect(throws: ConfigError.self) {
                try SocketPath.resolve(
                    configured: nil, environment: [:], temporaryDirectory: base, createDirectory: true)
            }
            #expect(foreign?.message.contains("belongs to uid 4242") == true)
        }
    }
}
