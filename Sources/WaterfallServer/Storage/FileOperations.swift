import Glibc

/// The system calls the store makes, behind a protocol so that tests can make them fail (a full disk, an I/O
/// error) at chosen moments. Each returns the errno of a failure; none retries except on EINTR.
package protocol FileOperations: Sendable {
    func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno>
    /// Writes all of `bytes`, or fails having written an unknown prefix of them.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, Errno>
    func fdatasync(_ fd: Int32) -> Result<Void, Errno>
    func fsync(_ fd: Int32) -> Result<Void, Errno>
    func ftruncate(_ fd: Int32, length: Int) -> Result<Void, Errno>
    /// Allocates disk space for `length` bytes at `offset` without changing the file's size, so that writing
    /// there later cannot fail for want of space; succeeds doing nothing where the file system cannot.
    func reserve(_ fd: Int32, offset: Int, length: Int) -> Result<Void, Errno>
    func rename(_ from: String, _ to: String) -> Result<Void, Errno>
    func unlink(_ path: String) -> Result<Void, Errno>
    func close(_ fd: Int32)
}

/// A failed system call's errno.
package struct Errno: Error, Sendable, Hashable {
    package var code: Int32

    package init(_ code: Int32) { self.code = code }

    /// The current `errno`.
    static var current: Errno { Errno(errno) }
}

/// The real system calls.
package struct SystemFileOperations: FileOperations {
    package init() {}

    package func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
        repeating { Glibc.open(path, flags | O_CLOEXEC, mode) }.map { Int32($0) }
    }

    package func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        var done = 0
        while done < bytes.count {
            guard let base = bytes.baseAddress else { break }
            let n = Glibc.write(fd, base + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.current)
            }
            done += n
        }
        return .success(())
    }

    package func fdatasync(_ fd: Int32) -> Result<Void, Errno> { repeating { Glibc.fdatasync(fd) }.map { _ in } }

    package func fsync(_ fd: Int32) -> Result<Void, Errno> { repeating { Glibc.fsync(fd) }.map { _ in } }

    package func ftruncate(_ fd: Int32, length: Int) -> Result<Void, Errno> {
        repeating { Glibc.ftruncate(fd, off_t(length)) }.map { _ in }
    }

    package func reserve(_ fd: Int32, offset: Int, length: Int) -> Result<Void, Errno> {
        guard let fallocate = Self.fallocate else { return .success(()) }
        let keepSize: Int32 = 1  // FALLOC_FL_KEEP_SIZE
        while fallocate(fd, keepSize, off_t(offset), off_t(length)) != 0 {
            if errno == EINTR { continue }
            if errno == EOPNOTSUPP || errno == ENOSYS { return .success(()) }
            return .failure(.current)
        }
        return .success(())
    }

    package func rename(_ from: String, _ to: String) -> Result<Void, Errno> {
        Glibc.rename(from, to) == 0 ? .success(()) : .failure(.current)
    }

    package func unlink(_ path: String) -> Result<Void, Errno> {
        Glibc.unlink(path) == 0 ? .success(()) : .failure(.current)
    }

    package func close(_ fd: Int32) { _ = Glibc.close(fd) }

    // MARK: Private

    /// glibc's `fallocate`, which the Glibc module does not export (it is declared under `_GNU_SOURCE`).
    private static let fallocate: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fallocate") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32, off_t, off_t) -> Int32).self)
    }()

    private func repeating(_ call: () -> Int32) -> Result<Int32, Errno> {
        while true {
            let r = call()
            if r >= 0 { return .success(r) }
            if errno != EINTR { return .failure(.current) }
        }
    }
}
