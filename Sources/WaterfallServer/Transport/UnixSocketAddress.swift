import Glibc

/// A `sockaddr_un` for a filesystem path or, with a leading `@`, an abstract name; knows its exact length.
struct UnixSocketAddress: Sendable {
    // MARK: Lifecycle

    /// Builds the address; nil when the path does not fit `sun_path` (108 bytes with its NUL).
    init?(_ path: String) {
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        // A path needs room for its NUL; an abstract name is exactly its bytes (the NUL is its first byte).
        guard !bytes.isEmpty, bytes.count + (abstract ? 0 : 1) <= capacity else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { sunPath in
            sunPath.copyBytes(from: bytes)
        }
        self.address = address
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        // The kernel takes an abstract name's length from addrlen, so a trailing NUL would become part of it.
        self.length = socklen_t(pathOffset + bytes.count + (abstract ? 0 : 1))
    }

    // MARK: Internal

    private(set) var address: sockaddr_un
    let length: socklen_t

    /// Calls `body` with the address as a `sockaddr` pointer and its length, for bind/connect/sendto.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) rethrows -> R {
        var copy = address
        return try withUnsafePointer(to: &copy) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}
