/// What a socket's event loop watches it for: one value, set whole after every transition of its connection.
struct SocketInterest: Sendable, Equatable {
    /// Readable: input, the end of input, an error.
    var reading = false
    /// Writable: output waits because the socket was full.
    var writing = false

    /// Nothing: the descriptor leaves the loop's set.
    static let none = SocketInterest()
}
