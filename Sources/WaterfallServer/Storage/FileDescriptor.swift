/// An open file, closed when the last reference goes: the sync thread can `fdatasync` a journal segment while a
/// rotation replaces it, without either closing the descriptor under the other.
final class FileDescriptor: Sendable {
    let fd: Int32
    let path: String
    private let files: any FileOperations

    init(_ fd: Int32, path: String, files: any FileOperations) {
        self.fd = fd
        self.path = path
        self.files = files
    }

    deinit { files.close(fd) }

    /// Writes all of `bytes` with one `write` (and more only if the kernel takes less).
    func write(_ bytes: [UInt8]) throws(StorageError) {
        try bytes.withUnsafeBytes { files.write(fd, $0) }.orThrow("write", path)
    }

    func write(_ bytes: ArraySlice<UInt8>) throws(StorageError) {
        try bytes.withUnsafeBytes { files.write(fd, $0) }.orThrow("write", path)
    }

    func dataSync() throws(StorageError) { try files.fdatasync(fd).orThrow("fdatasync", path) }

    func reserve(offset: Int, length: Int) throws(StorageError) {
        try files.reserve(fd, offset: offset, length: length).orThrow("fallocate", path)
    }

    func sync() throws(StorageError) { try files.fsync(fd).orThrow("fsync", path) }

    func truncate(to length: Int) throws(StorageError) {
        try files.ftruncate(fd, length: length).orThrow("truncate", path)
    }
}
