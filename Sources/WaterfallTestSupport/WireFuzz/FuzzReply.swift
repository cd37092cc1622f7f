@_spi(Package) import WaterfallJSON

/// One line from the daemon, read as the fuzzer and the soak check it: a reply (its id, and its result or its
/// error's kind and code) or an event.
package struct FuzzReply {
    /// The documented error kinds and their codes (the Errors article).
    package static let codes: [String: Int] = [
        "parse_error": -32700, "invalid_request": -32600, "unknown_method": -32601, "bad_params": -32602,
        "internal": -32603, "not_found": -32001, "exists": -32002, "invalid_geometry": -32003, "too_large": -32004,
        "limit": -32005, "shutting_down": -32006, "forbidden": -32007, "storage": -32008,
    ]

    /// The kinds a client's mistake may get: not `internal` (a bug), nor the kinds of a stopping daemon, a refused
    /// peer or a failing disk.
    package static let clientKinds: Set<String> = [
        "parse_error", "invalid_request", "unknown_method", "bad_params", "not_found", "exists", "invalid_geometry",
        "too_large", "limit",
    ]

    package let line: String
    /// Nil for an event (a notification from the daemon: `method`, no `id`).
    package let id: JSONValue?
    package let isEvent: Bool
    /// The error's kind, nil for a result.
    package let kind: String?
    package let message: String?

    // MARK: Lifecycle

    /// Reads `line`; throws a description of what is wrong with it as a line from the daemon.
    package init(_ line: String) throws(FuzzProblem) {
        self.line = line
        guard let value = try? JSONValue(parsing: line) else { throw FuzzProblem("not JSON: \(line.prefix(400))") }
        guard case .object = value, value["jsonrpc"] == .string("2.0") else {
            throw FuzzProblem("not a JSON-RPC 2.0 object: \(line.prefix(400))")
        }
        if value["id"] == nil {
            guard value["method"] != nil, value["result"] == nil, value["error"] == nil else {
                throw FuzzProblem("neither a reply nor an event: \(line.prefix(400))")
            }
            id = nil
            isEvent = true
            kind = nil
            message = nil
            return
        }
        id = value["id"]
        isEvent = false
        switch (value["result"], value["error"]) {
        case (_?, nil):
            kind = nil
            message = nil
        case (nil, let error?):
            guard case .string(let kind) = error["data"]?["kind"] ?? .null, let code = Self.codes[kind] else {
                throw FuzzProblem("an error of no documented kind: \(line.prefix(400))")
            }
            guard error["code"] == .int(Int64(code)) else {
                throw FuzzProblem("kind \(kind) with another code than \(code): \(line.prefix(400))")
            }
            self.kind = kind
            if case .string(let text) = error["message"] ?? .null { message = text } else { message = nil }
        default:
            throw FuzzProblem("a reply with both or neither of result and error: \(line.prefix(400))")
        }
    }

    // MARK: Package

    package var isError: Bool { kind != nil }

    /// The text from `"result":` on (a result's bytes without the id), or nil for an error.
    package var resultText: Substring? {
        guard kind == nil else { return nil }
        let pattern = Array(#""result":"#.utf8)
        let bytes = Array(line.utf8)
        guard bytes.count >= pattern.count else { return nil }
        for k in 0...(bytes.count - pattern.count) where bytes[k] == pattern[0] {
            if bytes[k..<k + pattern.count].elementsEqual(pattern) {
                return line[line.utf8.index(line.startIndex, offsetBy: k)...]
            }
        }
        return nil
    }
}

/// What the fuzzer or the soak found wrong.
package struct FuzzProblem: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
