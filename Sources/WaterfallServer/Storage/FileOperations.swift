import Glibc

/// The system calls the store makes, behind a protocol so that tests can make them fail (a full disk, an I/O
/// error) at chosen moments. Each returns the errno of a failure; none retries except on EINTR.
public protocol FileOperations: Sendable {
    func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno>
    /// Writes all of `bytes`, or fails having written an unknown prefix of them.
    func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, Errno>
    func fdatasync(_ fd: Int32) -> Result<Void, Errno>
    func fsync(_ fd: Int32) -> Result<Void, Errno>
    func ftruncate(_ fd: Int32, length: Int) -> Result<Void, Errno>
    func rename(_ from: String, _ to: String) -> Result<Void, Errno>
    func unlink(_ path: String) -> Result<Void, Errno>
    func close(_ fd: Int32)
}

/// A failed system call's errno.
public struct Errno: Error, Sendable, Hashable {
    public var code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The current `errno`.
    static var current: Errno { Errno(errno) }
}

/// The real system calls.
public struct SystemFileOperations: FileOperations {
    public init() {}

    public func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
        repeating { Glibc.open(path, flags | O_CLOEXEC, mode) }.map { Int32($0) }
    }

    public func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Result<Void, Errno> {
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

    public func fdatasync(_ fd: Int32) -> Result<Void, Errno> { repeating { Glibc.fdatasync(fd) }.map { _ in } }

    public func fsync(_ fd: Int32) -> Result<Void, Errno> { repeating { Glibc.fsync(fd) }.map { _ in } }

    public func ftruncate(_ fd: Int32, length: Int) -> Result<Void, Errno> {
        repeating { Glibc.ftruncate(fd, off_t(length)) }.map { _ in }
    }

    public func rename(_ from: String, _ to: String) -> Result<Void, Errno> {
        Glibc.rename(from, to) == 0 ? .success(()) : .failure(.current)
    }

    public func unlink(_ path: String) -> Result<Void, Errno> {
        Glibc.unlink(path) == 0 ? .success(()) : .failure(.current)
    }

    public func close(_ fd: Int32) { _ = Glibc.close(fd) }

    // MARK: Private

    private func repeating(_ call: () -> Int32) -> Result<Int32, Errno> {
        while true {
            let r = call()
            if r >= 0 { return .success(r) }
            if errno != EINTR { return .failure(.current) }
        }
    }
}
