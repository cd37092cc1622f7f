import Glibc
@_spi(Package) import WaterfallJSON
import WaterfallWire

/// A connection to `waterfalld`, with async calls for every method of the wire protocol.
///
/// Calls may run concurrently from many tasks: their requests are pipelined on the one connection and each reply
/// is matched to its call by id. Nothing blocks the caller's thread: the socket is read by a thread of the
/// connection's own and written from a serial dispatch queue.
///
///     let client = try await WaterfallClient.connect()
///     let result = try await client.createLayout("feed", LayoutSpec(width: 375, sections: []))
///
/// The connection closes when the client is released or `close()` is called; calls in flight then fail with a
/// `connection_closed` error, and subscriptions end.
public final class WaterfallClient: Sendable {
    // MARK: Lifecycle

    /// Connects to `socketPath`, or to where the daemon listens by default (`defaultSocketPath()`).
    ///
    /// - Parameters:
    ///   - timeout: how long each call waits for its reply; nil waits as long as the connection lasts.
    ///   - maxReplyBytes: the longest reply line accepted (a `layout.get` of a million items is about 70 MB).
    public static func connect(
        to socketPath: String? = nil, timeout: Duration? = nil, maxReplyBytes: Int = 1 << 30
    ) async throws(WaterfallClientError) -> WaterfallClient {
        let path = socketPath ?? defaultSocketPath()
        let connection = try await Connection.open(path: path, maxReplyBytes: max(1, maxReplyBytes))
        return WaterfallClient(connection: connection, timeout: timeout)
    }

    private init(connection: Connection, timeout: Duration?) {
        self.connection = connection
        self.timeout = timeout
    }

    deinit { connection.close() }

    // MARK: Public

    /// The socket this client is connected to.
    public var socketPath: String { connection.path }

    /// How long each call waits for its reply; nil for as long as the connection lasts.
    public let timeout: Duration?

    /// Where the daemon listens when nobody names a socket, by the daemon's own rule: `$WATERFALLD_SOCKET`, else
    /// `$XDG_RUNTIME_DIR/waterfalld.sock`, else `/tmp/waterfalld-<uid>/waterfalld.sock`.
    public static func defaultSocketPath(environment: [String: String]? = nil) -> String {
        SocketLocation.resolve(
            configured: nil, environment: environment ?? processEnvironment(), uid: getuid(),
            isDirectory: isDirectory
        ).path
    }

    /// Sends any method with `params` and returns its result as the daemon wrote it.
    public func call(method: String, params: JSONValue? = nil) async throws(WaterfallClientError) -> JSONValue {
        try await result(method, params).value
    }

    /// Sends any method and returns its result as a node of the reply (no tree is built: the bytes are at hand
    /// in `rawBytes`).
    public func callNode(method: String, params: JSONValue? = nil) async throws(WaterfallClientError) -> JSONNode {
        try await result(method, params)
    }

    /// Sends a request of a declared method (`MethodRequest`, one for every method but the changes) and reads its
    /// result.
    ///
    ///     let frames = try await client.send(LayoutGetRequest(layout: "feed", width: 820))
    ///
    /// The result is read on the connection's thread as its reply is read; `layout.get`'s frames as its reply comes,
    /// while the daemon is still writing the rest (`FramesStream`).
    public func send<M: MethodRequest>(_ request: M) async throws(WaterfallClientError) -> M.Result {
        let params = request.params
        let read: @Sendable (JSONNode) throws(WaterfallClientError) -> M.Result = { node throws(WaterfallClientError) in
            do throws(ReplyError) {
                return try M.result(node)
            } catch {
                throw .badReply(M.name, error.message)
            }
        }
        // `M.Result` is `LayoutFrames` exactly when the cast succeeds.
        let quick: Connection.QuickRead<M.Result>? =
            M.Result.self == LayoutFrames.self ? .frames { $0 as! M.Result } : nil
        return try await result(M.name, decode: read, quick: quick) { w in
            if let params {
                w.key("params")
                w.write(params)
            }
        }
    }

    /// Closes the connection: calls in flight fail, subscriptions end. Closing twice does nothing.
    public func close() { connection.close() }

    // MARK: Internal

    let connection: Connection

    /// The result node of one call.
    func result(_ method: String, _ params: JSONValue?) async throws(WaterfallClientError) -> JSONNode {
        try await connection.call(method, params, timeout: timeout).get()
    }

    /// The result of one call whose members after `method` `params` writes, read by `decode` as the reply is read.
    /// `quick` takes a result read in one pass (`Connection.call`).
    func result<T: Sendable>(
        _ method: String, decode: @escaping @Sendable (JSONNode) throws(WaterfallClientError) -> T,
        quick: Connection.QuickRead<T>? = nil, params: (inout JSONWriter) -> Void
    ) async throws(WaterfallClientError) -> T {
        try await connection.call(method, timeout: timeout, params: params, decode: decode, quick: quick).get()
    }

    /// Decodes `node` with `body`, naming `method` in a decoding error.
    func decode<T>(
        _ method: String, _ node: JSONNode, _ body: (JSONNode) throws(ReplyError) -> T
    ) throws(WaterfallClientError) -> T {
        do throws(ReplyError) {
            return try body(node)
        } catch {
            throw .badReply(method, error.message)
        }
    }

    // MARK: Private

    /// The process's environment, from `environ` (the client does without Foundation).
    private static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        var cursor = environ
        while let entry = cursor.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            cursor += 1
        }
        return environment
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
