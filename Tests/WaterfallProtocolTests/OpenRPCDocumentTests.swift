import Testing
@_spi(Package) import WaterfallJSON
import WaterfallTestSupport
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallWire

/// The OpenRPC document: complete (every method, every error), valid against itself (its examples), and true to the
/// decoder (every param it declares is one the decoder reads).
@Suite struct OpenRPCDocumentTests {
    static let validator = SchemaValidator(document: OpenRPCDocument.value)

    @Test func theBytesAreTheDocument() throws {
        let parsed = try JSONValue(parsing: ArraySlice(OpenRPCDocument.bytes))
        #expect(parsed == OpenRPCDocument.value)
        #expect(parsed["openrpc"] == "1.3.2")
        #expect(parsed["info"]?["version"] == .string(String(VersionRequest.protocolVersion)))
    }

    @Test func everyMethodHasOneEntry() {
        guard case .array(let methods) = OpenRPCDocument.value["methods"] else {
            Issue.record("no methods")
            return
        }
        let names = methods.compactMap { method -> String? in
            if case .string(let name) = method["name"] { name } else { nil }
        }
        #expect(names.sorted() == Method.allCases.map(\.rawValue).sorted())
        #expect(names.count == Set(names).count)
    }

    @Test func everyErrorCodeIsDeclared() {
        for (code, _) in ErrorCode.all {
            let entry = OpenRPCDocument.value["components"]?["errors"]?[code.kind.description]
            #expect(entry?["code"] == .int(Int64(code.code)), "\(code.kind)")
            #expect(entry?["data"]?["kind"] == .string(code.kind.description))
        }
    }

    @Test("Every example's params decode and match their schema, and its result matches", arguments: Method.allCases)
    func examplesMatch(_ method: Method) throws {
        let declaration = MethodTable.declaration(method)
        let params = JSONValue.object(declaration.example.params)
        #expect(Self.validator.checkRequest(method: method.rawValue, params: params) == nil)
        let reply: JSONValue = ["result": declaration.example.result]
        #expect(Self.validator.checkReply(method: method.rawValue, reply: reply) == nil)
        if case .failed(_, let error, _, _) = Self.decode(method.rawValue, params) {
            Issue.record("\(method.rawValue) example: \(error)")
        }
    }

    /// Each declared param, added to the method's example with a value made from its schema, is read by the
    /// decoder: the request is not refused as an `unknown field`.
    @Test("Every declared param is one the decoder reads", arguments: Method.allCases)
    func declaredParamsAreRead(_ method: Method) throws {
        let declaration = MethodTable.declaration(method)
        for param in declaration.params {
            var members = declaration.example.params.filter { $0.key != param.name }
            let value = try #require(Self.sample(param.schema), "\(method.rawValue).\(param.name)")
            members.append((param.name, value))
            #expect(
                Self.validator.checkRequest(method: method.rawValue, params: .object(members)) == nil,
                "\(method.rawValue).\(param.name) = \(value)")
            if case .failed(_, let error, _, _) = Self.decode(method.rawValue, .object(members)) {
                #expect(
                    !error.message.contains("unknown field"), "\(method.rawValue).\(param.name) = \(value): \(error)")
            }
        }
    }

    @Test(
        "A mismatch names the method and the field",
        arguments: [
            (
                "items.insert", #"{"layout":"a","section":0,"at":0,"items":[{"h":"x"}]}"#,
                "items.insert params.items[0].h"
            ),
            ("items.insert", #"{"layout":"a","section":0,"at":-1,"items":[]}"#, "items.insert params.at"),
            (
                "sections.configure", #"{"layout":"a","section":0,"placement":"up"}"#,
                "sections.configure params.placement"
            ),
            ("layout.create", #"{"layout":"a b","width":1}"#, "layout.create params.layout"),
            ("query", #"{"layout":"a","rect":{"x":0,"y":0,"w":1}}"#, "query params.rect"),
            ("batch", #"{"layout":"a","ops":[{"method":"items.move","params":{"from":[0]}}]}"#, "batch params.ops[0]"),
        ])
    func mismatchesNameTheField(_ method: String, _ params: String, _ path: String) throws {
        let failure = Self.validator.checkRequest(method: method, params: try JSONValue(parsing: params))
        #expect(failure?.path.hasPrefix(path) == true, "\(failure.map(String.init(describing:)) ?? "no failure")")
    }

    // MARK: Helpers

    static func decode(_ method: String, _ params: JSONValue) -> DecodedRequest {
        let line: JSONValue = ["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": params]
        var reader = JSONReader()
        return DecodedRequest(.line(ArraySlice(line.jsonText.utf8)), reader: &reader, maxBatchOps: 100)
    }

    /// A value that `schema` accepts, as small as can be: the least of a range, the first of a choice, an object
    /// of its required members.
    static func sample(_ schema: JSONValue) -> JSONValue? {
        if case .string(let reference) = schema["$ref"] {
            return OpenRPCDocument.value["components"]?["schemas"]?[String(reference.dropFirst(21))].flatMap(sample)
        }
        if let value = schema["const"] { return value }
        if case .array(let choices) = schema["enum"] { return choices.first }
        if case .array(let branches) = schema["oneOf"] { return branches.first.flatMap(sample) }
        switch schema["type"] {
        case "integer": return schema["minimum"] ?? 0
        case "number": return schema["exclusiveMinimum"] != nil ? 1 : schema["minimum"] ?? 0
        case "string": return "a"
        case "boolean": return true
        case "array":
            guard case .int(let count) = schema["minItems"] ?? 0, let items = schema["items"] else { return [] }
            return .array((0..<count).compactMap { _ in sample(items) })
        case "object":
            guard case .array(let required) = schema["required"] ?? [] else { return [:] }
            return .object(
                required.compactMap { name -> (key: String, value: JSONValue)? in
                    guard case .string(let key) = name, let value = schema["properties"]?[key].flatMap(sample) else {
                        return nil
                    }
                    return (key, value)
                })
        default: return nil
        }
    }
}
