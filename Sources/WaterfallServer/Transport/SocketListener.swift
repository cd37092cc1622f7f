import Glibc

/// The listening socket: bound to a path by the daemon itself, or passed in by systemd (fd 3).
final class SocketListener: Sendable {
    // MARK: Lifecycle

    private init(fd: Int32, path: String?, createdFile: FileIdentity?, activated: Bool) {
        self.fd = fd
        self.path = path
        self.createdFile = createdFile
        self.activated = activated
    }

    // MARK: Internal

    let fd: Int32
    /// The path bound, or nil for an activated socket (whose name systemd knows).
    let path: String?
    let activated: Bool

    /// Takes over systemd's first socket when `LISTEN_PID` is this process; nil when not activated.
    static func fromSystemd(logger: Logger) throws(ServerError) -> SocketListener? {
        guard let pidText = getenv("LISTEN_PID"), Int32(String(cString: pidText)) == getpid(),
            let countText = getenv("LISTEN_FDS"), let count = Int32(String(cString: countText)), count >= 1
        else { return nil }
        // Children must not believe the sockets were meant for them.
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        guard option(fd, SO_DOMAIN) == AF_UNIX, option(fd, SO_TYPE) == Int32(SOCK_STREAM.rawValue),
            option(fd, SO_ACCEPTCONN) == 1
        else {
            throw ServerError("the socket passed by systemd (fd 3) is not a listening Unix stream socket")
        }
        if count > 1 { logger.warning("systemd passed \(count) sockets; serving only the first (fd 3)") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        return SocketListener(fd: fd, path: nil, createdFile: nil, activated: true)
    }

    /// Binds `path` with `mode` (and group `gid`), replacing a stale socket file and refusing a live one.
    static func bind(path: String, mode: UInt32, gid: UInt32?, logger: Logger) throws(ServerError) -> SocketListener {
        guard let address = UnixSocketAddress(path) else {
            throw ServerError("socket path \(path) is longer than the 107 bytes a Unix socket address holds")
        }
        try removeStaleSocket(at: path, address: address, logger: logger)
        let fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServerError("cannot create a Unix socket: \(describeErrno())") }
        var bound = false
        defer { if !bound { Glibc.close(fd) } }
        let status = address.withSockaddr { Glibc.bind(fd, $0, $1) }
        guard status == 0 else {
            if errno == EADDRINUSE { throw ServerError("socket path \(path) is in use (another daemon bound it)") }
            if errno == ENOENT {
                let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
                    .joined(separator: "/")
                throw ServerError("cannot bind socket \(path): its directory \(directory) does not exist")
            }
            throw ServerError("cannot bind socket \(path): \(describeErrno())")
        }
        bound = true
        // From here on a failure must not leave our file behind.
        do throws(ServerError) {
            // Only the path's permissions are reliable for Unix sockets, and they must be set before
            // listen() so no peer can connect through a wider mode.
            guard chmod(path, mode_t(mode)) == 0 else {
                throw ServerError("cannot set mode \(String(mode, radix: 8)) on \(path): \(describeErrno())")
            }
            if let gid, chown(path, uid_t.max, gid) != 0 {
                throw ServerError("cannot give \(path) to group \(gid): \(describeErrno())")
            }
            guard listen(fd, SOMAXCONN) == 0 else {
                throw ServerError("cannot listen on \(path): \(describeErrno())")
            }
        } catch {
            unlink(path)
            Glibc.close(fd)
            throw error
        }
        return SocketListener(fd: fd, path: path, createdFile: FileIdentity(path: path), activated: false)
    }

    /// Closes the socket and removes the file if it is still the one this process created.
    func close() {
        removeFile()
        Glibc.close(fd)
    }

    /// Removes the socket file if it is still the one this process created, so that no client can connect any
    /// more; the descriptor stays open for whoever still watches it. Done at once, on the caller's thread: the
    /// process may exit right after.
    func removeFile() {
        if let path, let createdFile, FileIdentity(path: path) == createdFile {
            unlink(path)
        }
    }

    /// Closes the descriptor only (the file was removed before).
    func closeDescriptor() {
        Glibc.close(fd)
    }

    // MARK: Private

    /// Device and inode of the socket file, so shutdown never removes a file another daemon put there since.
    private struct FileIdentity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    private let createdFile: FileIdentity?

    private static func removeStaleSocket(
        at path: String, address: UnixSocketAddress, logger: Logger
    ) throws(ServerError) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw ServerError("cannot inspect socket path \(path): \(describeErrno())")
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ServerError("socket path \(path) exists and is not a socket; remove it or choose another path")
        }
        let probe = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw ServerError("cannot create a Unix socket: \(describeErrno())") }
        defer { Glibc.close(probe) }
        let status = address.withSockaddr { Glibc.connect(probe, $0, $1) }
        // EAGAIN means a full backlog: somebody is listening.
        if status == 0 || errno == EAGAIN {
            throw ServerError(
                "another process is serving on \(path) (a second waterfalld?); stop it or choose another path")
        }
        guard errno == ECONNREFUSED else {
            throw ServerError("cannot probe existing socket \(path): \(describeErrno())")
        }
        guard unlink(path) == 0 || errno == ENOENT else {
            throw ServerError("cannot remove stale socket \(path): \(describeErrno())")
        }
        logger.info("replaced stale socket \(path) (nothing was listening on it)")
    }

    private static func option(_ fd: Int32, _ name: Int32) -> Int32 {
        var value: Int32 = -1
        var length = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 ? value : -1
    }
}

/// The current errno as text, for error messages.
func describeErrno(_ error: Int32 = errno) -> String {
    String(cString: strerror(error))
}
