import Testing
@_spi(Package) import WaterfallJSON
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// The request envelope: JSON-RPC 2.0 as the Wire protocol article narrows it.
@Suite struct RequestTests {
    /// A line that is a valid request, and what its envelope says.
    struct Valid: Sendable, CustomTestStringConvertible {
        var line: String
        var id: RequestID
        var isNotification: Bool
        var hasParams = false
        var method = "ping"
        var testDescription: String { line }
    }

    static let valid: [Valid] = [
        Valid(line: #"{"jsonrpc":"2.0","id":7,"method":"ping"}"#, id: .int(7), isNotification: false),
        Valid(line: #"{"id":"a b","method":"ping"}"#, id: .string("a b"), isNotification: false),
        Valid(line: #"{"id":"","method":"ping"}"#, id: .string(""), isNotification: false),
        Valid(line: #"{"id":-9223372036854775808,"method":"ping"}"#, id: .int(.min), isNotification: false),
        Valid(line: #"{"id":9223372036854775807,"method":"ping"}"#, id: .int(.max), isNotification: false),
        // A hand-typed request: no jsonrpc, no id; answered with "id": null.
        Valid(line: #"{"method":"ping"}"#, id: .none, isNotification: false),
        Valid(line: #"{"id":null,"method":"ping"}"#, id: .none, isNotification: false),
        // An explicit null id is an id: JSON-RPC answers it, so it is not a notification.
        Valid(line: #"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, id: .none, isNotification: false),
        Valid(line: #"{"jsonrpc":"2.0","method":"ping"}"#, id: .none, isNotification: true),
        Valid(line: #"{"method":"ping","jsonrpc":"2.0"}"#, id: .none, isNotification: true),
        Valid(
            line: #"{"jsonrpc":"2.0","method":"layout.get","params":{"layout":"a"}}"#, id: .none,
            isNotification: true, hasParams: true, method: "layout.get"),
        Valid(
            line: #"{"params":{},"method":"stats","id":3}"#, id: .int(3), isNotification: false, hasParams: true,
            method: "stats"),
        // A method name spelled with escapes is the name it decodes to.
        Valid(
            line: #"{"id":4,"method":"items.upd\u0061te","params":{"a":1}}"#, id: .int(4), isNotification: false,
            hasParams: true, method: "items.update"),
    ]

    @Test(arguments: valid)
    func readsAValidEnvelope(_ c: Valid) throws {
        var partial = RequestID.none
        let request = try Request(JSONDocument(parsing: c.line), partialID: &partial)
        #expect(request.id == c.id)
        #expect(request.isNotification == c.isNotification)
        #expect((request.params != nil) == c.hasParams)
        #expect(request.method == c.method)
        #expect(request.knownMethod?.rawValue == c.method)
        if c.hasParams {
            let params = try #require(request.params)
            #expect(String(decoding: params.rawBytes, as: UTF8.self).hasPrefix("{"))
            #expect(params.kind == .object)
        }
    }

    @Test func anUnknownMethodKeepsItsName() throws {
        var partial = RequestID.none
        let request = try Request(JSONDocument(parsing: #"{"id":1,"method":"p\u00f6ng"}"#), partialID: &partial)
        #expect(request.knownMethod == nil)
        #expect(request.method == "pöng")
    }

    /// Every method by its bytes, and near misses (prefixes, extensions, case, escapes) by theirs.
    @Test func namesMethodsByTheirBytes() throws {
        for method in Method.allCases {
            let document = try JSONDocument(parsing: "\"\(method.rawValue)\"")
            #expect(document.withRoot { Method.named($0) } == method)
            #expect(Method.named(document.root) == method)
        }
        for text in [#""Ping""#, #""items.updat""#, #""items.updatee""#, #""""#, "7", #""sections.movE""#] {
            #expect(try JSONDocument(parsing: text).withRoot { Method.named($0) } == nil, "\(text)")
        }
        #expect(try JSONDocument(parsing: #""\u0070ing""#).withRoot { Method.named($0) } == .ping)
    }

    /// A line whose envelope is refused: the error, a fragment of its message, and the id the reply echoes.
    struct Invalid: Sendable, CustomTestStringConvertible {
        var line: String
        var code: ErrorCode
        var message: String
        var id: RequestID = .none
        var testDescription: String { line }
    }

    static let invalid: [Invalid] = [
        Invalid(
            line: #"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, code: .invalidRequest, message: "jsonrpc: \"1.0\"",
            id: .int(1)),
        Invalid(
            line: #"{"jsonrpc":2.0,"id":1,"method":"ping"}"#, code: .invalidRequest, message: "jsonrpc: 2.0",
            id: .int(1)),
        Invalid(line: #"{"jsonrpc":null,"method":"ping"}"#, code: .invalidRequest, message: "jsonrpc: null"),
        Invalid(line: #"{"id":1.5,"method":"ping"}"#, code: .invalidRequest, message: "id: 1.5 is not an integer"),
        Invalid(line: #"{"id":1e2,"method":"ping"}"#, code: .invalidRequest, message: "id: 1e2 is not an integer"),
        Invalid(
            line: #"{"id":9223372036854775808,"method":"ping"}"#, code: .invalidRequest,
            message: "id: 9223372036854775808 is not an integer (int64)"),
        Invalid(
            line: #"{"id":true,"method":"ping"}"#, code: .invalidRequest,
            message: "id: must be an integer or a string, not bool"),
        Invalid(
            line: #"{"id":[1],"method":"ping"}"#, code: .invalidRequest,
            message: "id: must be an integer or a string, not array"),
        Invalid(line: #"{"id":1}"#, code: .invalidRequest, message: "method: missing", id: .int(1)),
        Invalid(line: #"{}"#, code: .invalidRequest, message: "method: missing"),
        Invalid(
            line: #"{"id":"x","method":5}"#, code: .invalidRequest, message: "method: must be a string, not number",
            id: .string("x")),
        Invalid(
            line: #"{"id":"x","method":null}"#, code: .invalidRequest, message: "method: must be a string, not null",
            id: .string("x")),
        // A batch array is read by `DecodedRequest`: as one request, an array is not an object.
        Invalid(line: #"[{"id":1,"method":"ping"}]"#, code: .invalidRequest, message: "request: not an object"),
        Invalid(line: #"[]"#, code: .invalidRequest, message: "request: not an object"),
        Invalid(line: #"42"#, code: .invalidRequest, message: "request: not an object"),
        Invalid(line: #""ping""#, code: .invalidRequest, message: "request: not an object"),
        Invalid(line: #"null"#, code: .invalidRequest, message: "request: not an object"),
        Invalid(
            line: #"{"id":1,"method":"ping","extra":true}"#, code: .badParams, message: "extra: unknown field",
            id: .int(1)),
        // Field names are case-sensitive; without a method the request is invalid, and the near name is named.
        Invalid(
            line: #"{"id":1,"Method":"ping"}"#, code: .invalidRequest,
            message: "method: missing; Method: unknown field; did you mean 'method'?", id: .int(1)),
        // The method is looked up before params are read.
        Invalid(
            line: #"{"id":3,"method":"nope","params":[1]}"#, code: .unknownMethod,
            message: #"method: no method named "nope""#, id: .int(3)),
        Invalid(
            line: #"{"id":3,"extra":1,"method":"nope"}"#, code: .unknownMethod,
            message: #"method: no method named "nope""#, id: .int(3)),
        // The id is echoed whatever the order of the members.
        Invalid(
            line: #"{"extra":true,"id":1,"method":"ping"}"#, code: .badParams, message: "extra: unknown field",
            id: .int(1)),
        Invalid(
            line: #"{"jsonrpc":"1","method":"ping","id":"late"}"#, code: .invalidRequest, message: "jsonrpc",
            id: .string("late")),
        Invalid(
            line: #"{"id":2,"method":"ping","params":[1]}"#, code: .badParams,
            message: "params: must be an object, not array", id: .int(2)),
        Invalid(
            line: #"{"id":2,"method":"ping","params":null}"#, code: .badParams,
            message: "params: must be an object, not null", id: .int(2)),
    ]

    @Test(arguments: invalid)
    func refusesAnInvalidEnvelope(_ c: Invalid) throws {
        let document = try JSONDocument(parsing: c.line)
        var partial = RequestID.none
        #expect {
            _ = try Request(document, partialID: &partial)
        } throws: { error in
            guard let error = error as? ProtocolError else { return false }
            #expect(error.code == c.code)
            #expect(error.message.contains(c.message), "\(error.message)")
            return true
        }
        #expect(partial == c.id)
    }
}
