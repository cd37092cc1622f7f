@_spi(Package) import WaterfallJSON
import WaterfallWire

/// Everything a call can fail with: an error the daemon answered, or the client's own (the connection, a reply
/// that is not shaped as the Methods article says, a timeout, a cancelled task).
///
/// `kind` is the daemon's stable `data.kind` for its errors (`not_found`, `bad_params`, ...) and one of the
/// client's kinds below otherwise; `code` is the JSON-RPC code (0 for the client's own); `message` is for people.
public struct WaterfallClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where an error comes from.
    public enum Source: Sendable, Hashable {
        /// The daemon answered an error reply.
        case daemon
        /// The socket could not be opened, or the connection was lost or closed.
        case connection
        /// No reply came within the timeout.
        case timeout
        /// A reply the client cannot read.
        case reply
        /// The calling task was cancelled.
        case cancelled
    }

    public var source: Source
    public var kind: String
    public var code: Int
    public var message: String
    /// The socket path, for connection errors.
    public var socketPath: String?

    public init(source: Source, kind: String, code: Int = 0, message: String, socketPath: String? = nil) {
        self.source = source
        self.kind = kind
        self.code = code
        self.message = message
        self.socketPath = socketPath
    }

    public var description: String { "\(kind): \(message)" }

    // MARK: The client's own kinds

    /// The socket could not be opened at `path`: the message names it, and how to name another.
    static func cannotConnect(_ path: String, _ reason: String) -> Self {
        Self(
            source: .connection, kind: "cannot_connect",
            message: "cannot connect to \(path): \(reason); is waterfalld running? To use another socket, "
                + "pass --socket PATH or set \(SocketLocation.environmentKey)",
            socketPath: path)
    }

    /// The connection to `path` ended before a reply came.
    static func connectionClosed(_ path: String, _ reason: String) -> Self {
        Self(
            source: .connection, kind: "connection_closed", message: "connection to \(path) \(reason)",
            socketPath: path)
    }

    static func timeout(_ method: String, _ seconds: Double) -> Self {
        Self(source: .timeout, kind: "timeout", message: "no reply to \(method) within \(seconds) s")
    }

    static func badReply(_ method: String, _ what: String) -> Self {
        Self(source: .reply, kind: "bad_reply", message: "reply to \(method): \(what)")
    }

    /// A reply line that cannot be read, before it is matched to its method (see `badReply`).
    static func unreadable(_ what: String) -> Self {
        Self(source: .reply, kind: "bad_reply", message: what)
    }

    static func cancelled(_ method: String) -> Self {
        Self(source: .cancelled, kind: "cancelled", message: "\(method) was cancelled")
    }
    /// This error as the call of `method` reports it: a reply that could not be read (source `.reply`) names the
    /// method; any other error is unchanged.
    func naming(_ method: String) -> Self {
        source == .reply ? .badReply(method, message) : self
    }
}

extension ReplyDecoding {
    /// `read` as a reply's decoder in the client: a result it cannot read is `bad_reply`.
    static func client<T>(
        _ read: @escaping @Sendable (JSONNode) throws(ReplyError) -> T
    ) -> @Sendable (JSONNode) throws(WaterfallClientError) -> T {
        { node throws(WaterfallClientError) in
            do throws(ReplyError) {
                return try read(node)
            } catch {
                throw .unreadable(error.message)
            }
        }
    }
}
