import Testing
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport
import WaterfallTestSupport

@testable import WaterfallServer

extension InProcessDaemon {
    func connect() throws -> RPCClient { RPCClient(try TestClient(path: path)) }
}

/// A JSON-RPC client over `TestClient`: one request line, one reply line.
final class RPCClient: @unchecked Sendable {
    let raw: TestClient
    private var nextID = 1

    init(_ raw: TestClient) { self.raw = raw }

    /// Sends `line` and returns the next line read.
    func send(_ line: String) async throws -> String {
        try await raw.write(line + "\n")
        return try await readLine()
    }

    func readLine() async throws -> String {
        guard let line = try await raw.readLines(1).first else { throw TestFailure("no reply: connection closed") }
        return line
    }

    /// Sends a request with a fresh id; returns the whole reply, checking its envelope.
    func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        let id = nextID
        nextID += 1
        var members: [(key: String, value: JSONValue)] = [
            ("jsonrpc", "2.0"), ("id", .int(Int64(id))), ("method", .string(method)),
        ]
        if let params { members.append(("params", params)) }
        let reply = try JSONValue(parsing: try await send(JSONValue.object(members).jsonText))
        #expect(reply["jsonrpc"] == "2.0")
        #expect(reply["id"] == .int(Int64(id)), "\(reply)")
        return reply
    }

    /// The result of a call that must succeed.
    @discardableResult
    func result(
        _ method: String, _ params: JSONValue? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> JSONValue {
        let reply = try await call(method, params)
        guard let result = reply["result"] else {
            throw TestFailure("\(method) \(params?.jsonText ?? ""): \(reply) at \(sourceLocation)")
        }
        return result
    }

    /// The error of a call that must fail: its `data.kind`, `code` and message.
    func error(_ method: String, _ params: JSONValue? = nil) async throws -> WireError {
        try WireError(try await call(method, params))
    }

    /// The exact bytes of `layout.get`'s result (every section), to compare states before and after.
    func snapshot(_ layout: String) async throws -> String {
        try await result("layout.get", ["layout": .string(layout)]).jsonText
    }
}

/// An error reply's `error` object.
struct WireError: Equatable, CustomStringConvertible {
    var kind: String
    var code: Int64
    var message: String

    init(_ reply: JSONValue) throws {
        guard let error = reply["error"], case .string(let kind)? = error["data"]?["kind"],
            case .int(let code)? = error["code"], case .string(let message)? = error["message"]
        else { throw TestFailure("not an error reply: \(reply)") }
        self.kind = kind
        self.code = code
        self.message = message
    }

    var description: String { "\(kind) (\(code)): \(message)" }
}

extension JSONValue {
    /// The integer of member `key`, or nil.
    func int(_ key: String) -> Int? {
        if case .int(let n)? = self[key] { return Int(n) }
        return nil
    }

    /// The elements of an array member (empty when absent).
    func array(_ key: String) -> [JSONValue] {
        if case .array(let elements)? = self[key] { return elements }
        return []
    }

    /// The member names of an object, in order.
    var keys: [String] {
        if case .object(let members) = self { return members.map(\.key) }
        return []
    }
}
