/// A condition that stops the server from starting; the message says what to fix.
public struct ServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the path or setting involved.
    public var message: String

    public var description: String { message }

    public init(_ message: String) { self.message = message }
}
