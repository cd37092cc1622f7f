import Foundation
import Glibc
import WaterfallProtocol
import WaterfallWire

/// Where the daemon listens when neither a flag nor the config names a socket.
package enum SocketPath {
    // MARK: Internal

    /// The file name used inside `$XDG_RUNTIME_DIR` and the private directory.
    package static let fileName = SocketLocation.fileName

    /// The path to bind, by the rule clients share (`SocketLocation.resolve`): `configured` if set, else
    /// `$WATERFALLD_SOCKET`, else `$XDG_RUNTIME_DIR/waterfalld.sock` (when it is a directory), else
    /// `<temporaryDirectory>/waterfalld-<uid>/waterfalld.sock`.
    ///
    /// With `createDirectory` the private directory is created (mode 0700) and checked: it must be a real
    /// directory owned by `uid` with no group or other permissions, so nobody else can swap the socket.
    package static func resolve(
        configured: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        uid: UInt32 = getuid(),
        temporaryDirectory: String = "/tmp",
        createDirectory: Bool
    ) throws(ConfigError) -> String {
        let resolution = SocketLocation.resolve(
            configured: configured, environment: environment, uid: uid, temporaryDirectory: temporaryDirectory,
            isDirectory: isDirectory)
        if createDirectory, let directory = resolution.privateDirectory {
            try preparePrivateDirectory(directory, uid: uid)
        }
        return resolution.path
    }

    // MARK: Private

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func preparePrivateDirectory(_ directory: String, uid: UInt32) throws(ConfigError) {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw ConfigError("cannot create socket directory \(directory): \(describeErrno())")
        }
        var info = stat()
        // lstat: a symlink planted by another user must not redirect the socket.
        guard lstat(directory, &info) == 0 else {
            throw ConfigError("cannot inspect socket directory \(directory): \(describeErrno())")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw ConfigError("socket directory \(directory) exists and is not a directory; remove it or set --socket")
        }
        guard info.st_uid == uid else {
            throw ConfigError(
                "socket directory \(directory) belongs to uid \(info.st_uid), not to uid \(uid); "
                    + "remove it or set --socket"
            )
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ConfigError(
                "socket directory \(directory) has mode \(String(info.st_mode & 0o777, radix: 8)), open to others; "
                    + "chmod 700 it or set --socket"
            )
        }
    }
}
