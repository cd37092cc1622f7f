import WaterfallJSON

/// A request's id, echoed unchanged in its reply.
public enum RequestID: Sendable, Hashable {
    /// No id: the reply says `"id": null`.
    case none
    case int(Int64)
    case string(String)
}

/// The envelope of one request line: its id, method and params, checked against JSON-RPC 2.0 as PROTOCOL.md
/// narrows it.
public struct Request: Sendable {
    public var id: RequestID
    /// The method's name as sent.
    public var method: String { methodNode.string ?? "" }
    /// The known method it names, or nil (`unknown_method`).
    public var knownMethod: Method?
    private var methodNode: JSONNode
    /// The params object, or nil when absent.
    public var params: JSONNode?
    /// `"jsonrpc": "2.0"` without an id: it runs, and gets no reply.
    public var isNotification: Bool

    // MARK: Lifecycle

    /// Reads the envelope of `document`.
    ///
    /// - Throws: `ProtocolError` (`invalid_request` or `bad_params`); `partialID` then holds the id if one could
    ///   be read, so the error reply can echo it.
    public init(_ document: JSONDocument, partialID: inout RequestID) throws(ProtocolError) {
        let root = document.root
        guard root.kind == .object else {
            let what = root.kind == .array ? "a batch array is not supported: use the batch method" : "not an object"
            throw ProtocolError(.invalidRequest, "request: \(what)")
        }
        // The id first, whatever the member order, so that any later error's reply still echoes it.
        var id = RequestID.none
        let idNode = root["id"]
        if let value = idNode {
            id = try Self.id(value)
            partialID = id
        }
        var methodNode: JSONNode?
        var params: JSONNode?
        var version = false
        for (key, value) in root.members {
            if key.isEqual(toKey: "id") {
                continue
            } else if key.isEqual(toKey: "method") {
                guard value.kind == .string else {
                    throw ProtocolError(.invalidRequest, "method: must be a string, not \(value.kind)")
                }
                methodNode = value
            } else if key.isEqual(toKey: "params") {
                guard value.kind == .object else {
                    throw ProtocolError.badParams("params", "must be an object, not \(value.kind)")
                }
                params = value
            } else if key.isEqual(toKey: "jsonrpc") {
                guard value.isEqual(toKey: "2.0") else {
                    throw ProtocolError(.invalidRequest, "jsonrpc: \(Self.text(value)) is not \"2.0\"")
                }
                version = true
            } else {
                throw ProtocolError.badParams(key.string ?? "?", "unknown field")
            }
        }
        guard let methodNode else { throw ProtocolError(.invalidRequest, "method: missing") }
        self.id = id
        self.methodNode = methodNode
        // Matched on the raw bytes: no String is made for the method of a well-formed request.
        knownMethod = Method.named(methodNode)
        self.params = params
        isNotification = version && idNode == nil
    }

    /// The id of a request: an int64, a string or null.
    static func id(_ value: JSONNode) throws(ProtocolError) -> RequestID {
        switch value.kind {
        case .number:
            guard let n = value.int64 else {
                throw ProtocolError(.invalidRequest, "id: \(Self.text(value)) is not an integer (int64)")
            }
            return .int(n)
        case .string: return .string(value.string ?? "")
        case .null: return .none
        default: throw ProtocolError(.invalidRequest, "id: must be an integer or a string, not \(value.kind)")
        }
    }

    /// A short rendering of a value for error messages (at most 40 bytes of its JSON text).
    static func text(_ node: JSONNode) -> String {
        let raw = node.rawBytes
        let clipped = raw.prefix(40)
        let text = String(decoding: clipped, as: UTF8.self)
        return raw.count > 40 ? text + "…" : text
    }
}
