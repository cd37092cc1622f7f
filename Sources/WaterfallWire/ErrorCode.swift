import WaterfallModel

/// A JSON-RPC error code and its stable `data.kind` name (the Errors article's table).
///
/// Open like sourcekit-lsp's `ErrorCode`: a struct with static members rather than an enum, so adding a code never
/// breaks a client that switches over the known ones.
public struct ErrorCode: Sendable, Hashable {
    public var code: Int
    public var kind: StaticString

    public init(code: Int, kind: StaticString) {
        self.code = code
        self.kind = kind
    }

    public static func == (lhs: ErrorCode, rhs: ErrorCode) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public static let parseError = ErrorCode(code: -32700, kind: "parse_error")
    public static let invalidRequest = ErrorCode(code: -32600, kind: "invalid_request")
    public static let unknownMethod = ErrorCode(code: -32601, kind: "unknown_method")
    public static let badParams = ErrorCode(code: -32602, kind: "bad_params")
    public static let internalError = ErrorCode(code: -32603, kind: "internal")
    public static let notFound = ErrorCode(code: -32001, kind: "not_found")
    public static let exists = ErrorCode(code: -32002, kind: "exists")
    public static let invalidGeometry = ErrorCode(code: -32003, kind: "invalid_geometry")
    public static let tooLarge = ErrorCode(code: -32004, kind: "too_large")
    public static let limit = ErrorCode(code: -32005, kind: "limit")
    public static let shuttingDown = ErrorCode(code: -32006, kind: "shutting_down")
    public static let forbidden = ErrorCode(code: -32007, kind: "forbidden")
    /// A change the daemon could not make durable (disk full, I/O error): nothing changed.
    public static let storage = ErrorCode(code: -32008, kind: "storage")

    /// Every code, in the Errors article's order, with when a request gets it (the OpenRPC document's errors).
    public static let all: [(code: ErrorCode, when: String)] = [
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
public struct ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.kind): \(message)" }

    /// `bad_params` for `field`: `what`.
    public static func badParams(_ field: String, _ what: String) -> ProtocolError {
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
    public init(_ error: LayoutError, prefix: String = "params") {
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
