import Glibc
import Synchronization

/// The directory that holds the daemon's layouts: found from the command line, the config or the environment,
/// created 0700, and locked while a daemon uses it (`flock` on its `lock` file, which holds the owner's pid).
package final class StateDirectory: Sendable {
    // MARK: Lifecycle

    /// Creates `path` (and missing parents, 0700) and takes its lock.
    ///
    /// - Throws: `StorageError.inUse` naming the pid in the lock file when another process holds it, or
    ///   `.system` when the directory cannot be made or opened.
    package init(path: String, files: any FileOperations = SystemFileOperations()) throws(StorageError) {
        self.path = path
        self.files = files
        try Self.makeDirectories(path)
        let lockPath = path + "/lock"
        let fd = try files.open(lockPath, flags: O_RDWR | O_CREAT, mode: 0o600).orThrow("open", lockPath)
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            let holder = Self.readFile(lockPath).flatMap { Int32(String(decoding: $0, as: UTF8.self).trimmed) }
            files.close(fd)
            if code == EWOULDBLOCK { throw .inUse(directory: path, pid: holder) }
            throw .system(operation: "flock", path: lockPath, errno: code)
        }
        let pid = Array("\(getpid())\n".utf8)
        do throws(StorageError) {
            try files.ftruncate(fd, length: 0).orThrow("truncate", lockPath)
            try pid.withUnsafeBytes { files.write(fd, $0) }.orThrow("write", lockPath)
        } catch {
            files.close(fd)
            throw error
        }
        lockDescriptor = Mutex(fd)
    }

    deinit { release() }

    // MARK: Package

    package let path: String

    /// Where state lives: `explicit` (`--state-dir` or the config's `stateDirectory`), else `$STATE_DIRECTORY`
    /// (systemd's `StateDirectory=`; the first if it lists several), else `$XDG_STATE_HOME/waterfalld`, else
    /// `~/.local/state/waterfalld`.
    package static func resolve(explicit: String?, environment: [String: String]) -> String? {
        if let explicit, !explicit.isEmpty { return explicit }
        if let state = environment["STATE_DIRECTORY"], let first = state.split(separator: ":").first {
            return String(first)
        }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/waterfalld" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/waterfalld" }
        return nil
    }

    /// Releases the lock (at once, not when the last reference goes): another daemon may then use the directory.
    package func release() {
        // Closing the descriptor releases the lock; the file stays (another daemon reads the pid only while held).
        guard let fd = lockDescriptor.withLock({ $0.take() }) else { return }
        files.close(fd)
    }

    /// The full path of `name` in the directory.
    package func file(_ name: String) -> String { path + "/" + name }

    /// The names in the directory, without `.` and `..`.
    package func names() throws(StorageError) -> [String] { try Self.names(in: path) }

    /// The names in the directory at `path`, without `.` and `..`.
    static func names(in path: String) throws(StorageError) -> [String] {
        guard let dir = opendir(path) else { throw .system(operation: "opendir", path: path, errno: errno) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The disk the directory's files take: their allocated blocks, as `du` counts them.
    package func diskUsage() -> Int { Self.diskUsage(of: path) }

    /// The disk the files directly in the directory at `path` take.
    package static func diskUsage(of path: String) -> Int {
        let all = (try? names(in: path)) ?? []
        return all.reduce(0) { total, name in
            var info = stat()
            return stat(path + "/" + name, &info) == 0 ? total + Int(info.st_blocks) * 512 : total
        }
    }

    /// Makes the directory's entries (new, renamed and removed files) durable.
    package func sync() throws(StorageError) {
        let fd = try files.open(path, flags: O_RDONLY | O_DIRECTORY, mode: 0).orThrow("open", path)
        defer { files.close(fd) }
        try files.fsync(fd).orThrow("fsync", path)
    }

    /// The whole contents of the file at `path`, or nil if it cannot be read.
    static func readFile(_ path: String) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        let ok = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while done < size {
                let n = Glibc.read(fd, buffer.baseAddress! + done, size - done)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return false }
                done += n
            }
            return true
        }
        return ok ? bytes : nil
    }

    /// Reads the file `name` of the directory whole.
    func read(_ name: String) throws(StorageError) -> [UInt8] {
        let path = file(name)
        guard let bytes = Self.readFile(path) else { throw .system(operation: "read", path: path, errno: errno) }
        return bytes
    }

    // MARK: Private

    private let files: any FileOperations
    private let lockDescriptor: Mutex<Int32?>

    /// `mkdir -p` with mode 0700 for what it creates (XDG asks that of its base directories too).
    private static func makeDirectories(_ path: String) throws(StorageError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw .system(operation: "mkdir", path: prefix, errno: errno)
            }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { throw .system(operation: "stat", path: path, errno: errno) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .system(operation: "open", path: path, errno: ENOTDIR) }
    }
}

extension Result where Failure == Errno {
    /// The value, or the storage error naming `operation` and `path`.
    func orThrow(_ operation: String, _ path: String) throws(StorageError) -> Success {
        switch self {
        case .success(let value): return value
        case .failure(let error): throw .system(operation: operation, path: path, errno: error.code)
        }
    }
}

extension String {
    fileprivate var trimmed: String {
        String(self.drop { $0 == " " || $0 == "\n" }.reversed().drop { $0 == " " || $0 == "\n" }.reversed())
    }
}
