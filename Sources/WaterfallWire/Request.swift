@_spi(Package) import WaterfallJSON

/// A request's id, echoed unchanged in its reply.
@usableFromInline
package enum RequestID: Sendable, Hashable {
    /// No id: the reply says `"id": null`.
    case none
    case int(Int64)
    case string(String)
}

/// The envelope of one request line: its id, method and params, checked against JSON-RPC 2.0 as the Wire protocol article
/// narrows it.
///
/// Its initializers live in an extension, and values are made with the synthesized memberwise initializer: with an
/// initializer written in the body, the optimizer builds each request twice on the stack and copies it with a
/// retain and a release per reference.
@usableFromInline
package struct Request: Sendable {
    package var id: RequestID
    /// The known method it names, or nil (`unknown_method`).
    package var knownMethod: Method?
    /// `"jsonrpc": "2.0"` without an id: it runs, and gets no reply.
    package var isNotification: Bool
    /// The parsed line. A request holds it, rather than a node for its params, so that reading one costs a single
    /// retain (the node made when `params` is read), not one more for a stored node.
    @usableFromInline let document: JSONDocument
    /// Where method is among the members of the request object: its name is made only when asked for (for an
    /// unknown method's error), so that a well-formed request makes no String for it.
    @usableFromInline let methodPosition: Int
    /// Where params is among the members of the request object, or -1 when absent.
    @usableFromInline let paramsPosition: Int
}

extension Request {
    // MARK: Lifecycle

    /// Reads the envelope of `document`.
    ///
    /// - Throws: `ProtocolError` (`invalid_request`, `unknown_method` or `bad_params`); `partialID` then holds the
    ///   id if one could be read, so the error reply can echo it.
    @inlinable
    package init(_ document: JSONDocument, partialID: inout RequestID) throws(ProtocolError) {
        var isNotification = false
        self = try readRequest(document, &partialID, &isNotification)
    }

    /// Reads the envelope of `document`, as `init(_:partialID:)` does; `isNotification` is set, even when it
    /// throws, once the request reads as a notification (`"jsonrpc": "2.0"`, a string `method`, no `id`): its
    /// error then gets no reply.
    @inlinable
    package init(
        _ document: JSONDocument, partialID: inout RequestID, isNotification: inout Bool
    ) throws(ProtocolError) {
        self = try readRequest(document, &partialID, &isNotification)
    }

    // MARK: Package

    /// The method's name as sent.
    package var method: String {
        knownMethod?.rawValue ?? document.withRoot { $0.member(at: methodPosition)?.value.string } ?? ""
    }

    /// The params object, or nil when absent.
    @inlinable
    package var params: JSONNode? {
        guard paramsPosition >= 0 else { return nil }
        return document.withRoot { root in root.member(at: paramsPosition).map { document.node(for: $0.value) } }
    }

    // MARK: Internal

    /// The id of a request: an int64, a string or null.
    static func id(_ value: JSONView) throws(ProtocolError) -> RequestID {
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
    static func text(_ view: JSONView) -> String {
        let raw = view.rawBytes
        let text = String(decoding: raw.prefix(40), as: UTF8.self)
        return raw.count > 40 ? text + "…" : text
    }

    /// Checks the members of the request object `root`.
    ///
    /// One pass finds every member and the first one at fault, without throwing; the id is then read, so that any
    /// error's reply still echoes it whatever the member order, and only then is a fault of the envelope thrown
    /// (`invalid_request`). A fault of `params` or an unknown member (`bad_params`) is returned, not thrown: the
    /// method is looked up first, as JSON-RPC orders its errors. A single pass compares each key once. Inlined into
    /// `readRequest`, its only caller, so that its results need not go through memory.
    @inline(__always)
    static func envelope(
        _ root: JSONView, _ partialID: inout RequestID, _ isNotification: inout Bool
    ) throws(ProtocolError) -> (
        id: RequestID, method: JSONView, methodPosition: Int, paramsPosition: Int, paramsFault: ProtocolError?
    ) {
        guard root.kind == .object else { throw ProtocolError(.invalidRequest, "request: not an object") }
        var idValue: JSONView?
        var methodValue: JSONView?
        var methodPosition = -1
        var paramsPosition = -1
        var version = false
        // The first member at fault, as its key and value, and whether it is `params` or an unknown member.
        var fault: (key: JSONView, value: JSONView, inParams: Bool)?
        for (position, (key, value)) in root.members.enumerated() {
            let isFault: Bool
            var inParams = false
            if key.isEqual(toKey: "id") {
                idValue = value
                isFault = false
            } else if key.isEqual(toKey: "method") {
                methodValue = value
                methodPosition = position
                isFault = value.kind != .string
            } else if key.isEqual(toKey: "params") {
                paramsPosition = position
                isFault = value.kind != .object
                inParams = true
            } else if key.isEqual(toKey: "jsonrpc") {
                version = true
                isFault = !value.isEqual(toKey: "2.0")
            } else {
                isFault = true
                inParams = true
            }
            // An envelope fault comes before any fault of params, whatever the member order.
            if isFault && (fault == nil || (fault?.inParams == true && !inParams)) { fault = (key, value, inParams) }
        }
        var id = RequestID.none
        if let idValue {
            // A small integer, the usual id, without the call.
            if let n = idValue.int64 { id = .int(n) } else { id = try Self.id(idValue) }
            partialID = id
        }
        if let fault, !fault.inParams { throw Self.fault(fault.key, fault.value) }
        guard let methodValue else {
            // A misspelt `method` is named with its likely meaning.
            let unknown = fault.map { "; " + Self.fault($0.key, $0.value).message } ?? ""
            throw ProtocolError(.invalidRequest, "method: missing\(unknown)")
        }
        isNotification = version && idValue == nil
        return (id, methodValue, methodPosition, paramsPosition, fault.map { Self.fault($0.key, $0.value) })
    }

    /// The error for an envelope member at fault: a known member with a bad value, or an unknown one.
    private static func fault(_ key: JSONView, _ value: JSONView) -> ProtocolError {
        if key.isEqual(toKey: "method") {
            return ProtocolError(.invalidRequest, "method: must be a string, not \(value.kind)")
        }
        if key.isEqual(toKey: "params") {
            return ProtocolError.badParams("params", "must be an object, not \(value.kind)")
        }
        if key.isEqual(toKey: "jsonrpc") {
            return ProtocolError(.invalidRequest, "jsonrpc: \(Self.text(value)) is not \"2.0\"")
        }
        let name = key.string ?? "?"
        let hint = NearestName.hint(for: name, among: ["jsonrpc", "id", "method", "params"])
        return ProtocolError.unknownField(name, hint: hint)
    }
}

extension ProtocolError {
    /// The error for a request naming no method of this daemon, with the nearest name as a hint.
    static func unknownMethod(_ name: String) -> ProtocolError {
        let hint = NearestName.hint(for: name, among: Method.allCases.map(\.rawValue))
        return ProtocolError(.unknownMethod, "method: no method named \"\(name)\"\(hint)")
    }
}

/// The body of `Request.init(_:partialID:isNotification:)`: a free function, for the reason given at
/// `decodeCommand`.
@usableFromInline
func readRequest(
    _ document: consuming JSONDocument, _ partialID: inout RequestID, _ isNotification: inout Bool
) throws(ProtocolError) -> Request {
    let envelope = try Request.envelope(document.unsafeRoot, &partialID, &isNotification)
    // Matched on the raw bytes: no String is made for the method of a well-formed request.
    let method = Method.named(envelope.method)
    if let fault = envelope.paramsFault {
        // The method is looked up before its params are read (JSON-RPC's order of errors).
        let unknownName = method == nil ? envelope.method.string ?? "" : nil
        withExtendedLifetime(document) {}
        if let unknownName { throw ProtocolError.unknownMethod(unknownName) }
        throw fault
    }
    // The views above point into `document`: it must outlive their last read.
    withExtendedLifetime(document) {}
    return Request(
        id: envelope.id, knownMethod: method, isNotification: isNotification, document: document,
        methodPosition: envelope.methodPosition, paramsPosition: envelope.paramsPosition)
}
