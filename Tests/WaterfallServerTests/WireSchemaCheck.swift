@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallTestSupport
import WaterfallWire

/// Checks a session's lines against the OpenRPC document: each reply's result against its method's result schema
/// (and the request's params against the method's params, when the daemon accepted them), each error against
/// `ErrorObject`, each event against the schema of its method. Replies are matched to requests by id, in order, per
/// connection.
struct WireSchemaCheck {
    static let validator = SchemaValidator(document: OpenRPCDocument.value)

    /// The requests awaiting a reply, by connection and by the id's JSON text, oldest first.
    private var pending: [String: [String: [(method: String, params: JSONValue?)]]] = [:]

    /// Notes a request line sent on `connection` (a line that is not a request object is ignored).
    mutating func sent(_ text: String, on connection: String = "") {
        guard let request = try? JSONValue(parsing: text), case .string(let method) = request["method"],
            let id = request["id"]
        else { return }
        pending[connection, default: [:]][id.jsonText, default: []].append((method, request["params"]))
    }

    /// The first place where `line`, read on `connection`, departs from the document; nil when it matches.
    mutating func received(_ line: String, on connection: String = "") -> SchemaValidator.Failure? {
        guard let reply = try? JSONValue(parsing: line) else { return nil }
        if reply["id"] == nil, reply["method"] != nil { return Self.validator.checkEvent(reply) }
        let key = reply["id"]?.jsonText ?? "null"
        guard var queue = pending[connection]?[key], !queue.isEmpty else {
            // An error to a line that was no request (an id of null): only its shape is checked.
            return reply["error"] == nil ? nil : Self.validator.checkReply(method: "(none)", reply: reply)
        }
        let request = queue.removeFirst()
        pending[connection]?[key] = queue
        if reply["result"] != nil,
            let failure = Self.validator.checkRequest(method: request.method, params: request.params)
        {
            return SchemaValidator.Failure(
                path: failure.path, reason: failure.reason + " (a request the daemon accepted)")
        }
        return Self.validator.checkReply(method: request.method, reply: reply)
    }
}
