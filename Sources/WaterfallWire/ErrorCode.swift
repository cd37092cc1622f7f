import WaterfallModel

/// A JSON-RPC error code and its stable `data.kind` name (the Errors article's table).
///
/// Open like sourcekit-lsp's `ErrorCode`: a struct with static members rather than an enum, so adding a code never
/// breaks a client that switches over the known ones.
package struct ErrorCode: Sendable, Hashable {
    package var code: Int
    package var kind: StaticString

    package init(code: Int, kind: StaticString) {
        self.code = code
        self.kind = kind
    }

    package static func == (lhs: ErrorCode, rhs: ErrorCode) -> Bool { lhs.code == rhs.code }
    @usableFromInline package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    package static let parseError = ErrorCode(code: -32700, kind: "parse_error")
    package static let invalidRequest = ErrorCode(code: -32600, kind: "invalid_request")
    package static let unknownMethod = ErrorCode(code: -32601, kind: "unknown_method")
    package static let badParams = ErrorCode(code: -32602, kind: "bad_params")
    package static let internalError = ErrorCode(code: -32603, kind: "internal")
    package static let notFound = ErrorCode(code: -32001, kind: "not_found")
    package static let exists = ErrorCode(code: -32002, kind: "exists")
    package static let invalidGeometry = ErrorCode(code: -32003, kind: "invalid_geometry")
    package static let tooLarge = ErrorCode(code: -32004, kind: "too_large")
    package static let limit = ErrorCode(code: -32005, kind: "limit")
    package static let shuttingDown = ErrorCode(code: -32006, kind: "shutting_down")
    package static let forbidden = ErrorCode(code: -32007, kind: "forbidden")
    /// A change the daemon could not make durable (disk full, I/O error): nothing changed.
    package static let storage = ErrorCode(code: -32008, kind: "storage")

    /// Every code, in the Errors article's order, with when a request gets it (the OpenRPC document's errors).
    package static let all: [(code: ErrorCode, when: String)] = [
        (parseError, "not JSON, or not UTF-8"),
        (invalidRequest, "not an object, no method, a wrong jsonrpc, an empty batch array"),
        (unknownMethod, "no such method"),
        (badParams, "a field missing, unknown, of the wrong type or out of range"),
        (internalError, "a bug; logged"),
        (notFound, "no such layout, section or item index"),
        (exists, "layout.create of a name in use (without replace)"),
        (invalidGeometry, "the change would give a section a negative column width"),
        (tooLarge, "a line over the limit"),
        (limit, "a configured resource limit (layouts, items, connections)"),
        (shuttingDown, "the daemon is stopping"),
        (forbidden, "the peer's credentials do not allow this method"),
        (storage, "a durable daemon could not make the change durable (disk full, I/O error); nothing changed"),
    ]
}

/// A request that failed: the code, and a message for people that names the field and the value at fault.
@usableFromInline
package struct ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    package var code: ErrorCode
    package var message: String

    package init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    @usableFromInline package var description: String { "\(code.kind): \(message)" }

    /// `bad_params` for `field`: `what`.
    package static func badParams(_ field: String, _ what: String) -> ProtocolError {
        ProtocolError(.badParams, "\(field): \(what)")
    }

    /// `bad_params` for `field`, a member the object does not allow, then `hint` (`NearestName.hint`).
    package static func unknownField(_ field: String, hint: String = "") -> ProtocolError {
        badParams(field, unknownFieldText + hint)
    }

    /// This error, with the nearest field name `method`'s params allow at its place appended when it is an unknown
    /// field of them and one name is clearly nearest: `params.section: unknown field; did you mean 'sections'?`.
    package func suggestingField(of method: Method) -> ProtocolError {
        let end = ": " + Self.unknownFieldText
        guard code == .badParams, message.hasSuffix(end) else { return self }
        let path = message.dropLast(end.count)
        guard let dot = path.lastIndex(of: ".") else { return self }
        let name = String(path[path.index(after: dot)...])
        let hint = NearestName.hint(for: name, among: MethodTable.fieldNames(of: method, at: path[..<dot]))
        return .unknownField(String(path), hint: hint)
    }

    private static let unknownFieldText = "unknown field"
}

extension ProtocolError {
    /// The wire form of an engine error; `prefix` is where the engine's field paths start (usually `params`).
    package init(_ error: LayoutError, prefix: String = "params") {
        let message = prefix.isEmpty ? error.description : error.prefixed(prefix).description
        switch error {
        case .invalidValue: self.init(.badParams, message)
        case .notFound: self.init(.notFound, message)
        case .invalidGeometry, .negativeWidth: self.init(.invalidGeometry, message)
        case .limit: self.init(.limit, message)
        case .inconsistent: self.init(.internalError, message)
        }
    }
}
