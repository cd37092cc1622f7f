/// A condition that stops the server from starting; the message says what to fix.
package struct ServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, naming the path or setting involved.
    package var message: String

    package var description: String { message }

    package init(_ message: String) { self.message = message }
}
