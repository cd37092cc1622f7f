import WaterfallClient
@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallWire

extension CommandRun {
    /// `describe [METHOD]`: the daemon's OpenRPC document, or one method of it.
    func describe(_ client: WaterfallClient) async throws -> WaterfallCtl.ExitStatus {
        let node = try await client.callNode(method: "rpc.discover", params: nil)
        guard let name = invocation.arguments.first else {
            terminal.write(String(decoding: node.rawBytes, as: UTF8.self) + "\n")
            return .success
        }
        let document = node.value
        guard case .array(let methods) = document["methods"],
            let method = methods.first(where: { $0["name"] == .string(name) })
        else {
            let methods: [JSONValue] = if case .array(let methods) = document["methods"] { methods } else { [] }
            let names = methods.compactMap { method -> String? in
                if case .string(let name) = method["name"] { name } else { nil }
            }
            throw UsageError(
                "METHOD: the daemon has no method named '\(name)' (describe lists them all)"
                    + NearestName.hint(for: name, among: names), command: .describe)
        }
        terminal.write(invocation.json ? method.jsonText + "\n" : MethodText.render(method, in: document))
        return .success
    }
}

/// One method of an OpenRPC document as text for people: its summary, params (type, range, whether required),
/// result, error kinds and example.
enum MethodText {
    static func render(_ method: JSONValue, in document: JSONValue) -> String {
        var lines = ["\(text(method["name"])): \(text(method["summary"]))", "", "params:"]
        if case .array(let params) = method["params"], !params.isEmpty {
            let width = params.map { text($0["name"]).count }.max() ?? 0
            for param in params {
                let name = text(param["name"]).padding(toLength: width, withPad: " ", startingAt: 0)
                let required = param["required"] == true ? "required" : "optional"
                lines.append("  \(name)  \(type(param["schema"])), \(required): \(text(param["summary"]))")
            }
        } else {
            lines.append("  (none)")
        }
        lines.append("result: \(type(method["result"]?["schema"]))")
        // The shapes the params and result name, one level down.
        var names: [String] = []
        collectReferences(method["params"], into: &names)
        collectReferences(method["result"], into: &names)
        if !names.isEmpty { lines.append("where:") }
        for name in names {
            lines.append("  \(name) = \(type(document["components"]?["schemas"]?[name]))")
        }
        if case .array(let errors) = method["errors"] {
            lines.append("errors: " + errors.map { text($0["data"]?["kind"]) }.joined(separator: ", "))
        }
        if case .array(let examples) = method["examples"], let example = examples.first {
            var params: [(key: String, value: JSONValue)] = []
            if case .array(let pairs) = example["params"] {
                for pair in pairs { params.append((text(pair["name"]), pair["value"] ?? .null)) }
            }
            let request: JSONValue = ["id": 1, "method": method["name"] ?? .null, "params": .object(params)]
            lines += ["example:", "  --> \(request.jsonText)", "  <-- \(example["result"]?["value"]?.jsonText ?? "")"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A schema in a few words: `integer 0…2147483647`, `"ltr" | "rtl"`, `array of Item`, `Section or null`.
    static func type(_ schema: JSONValue?) -> String {
        guard let schema else { return "?" }
        if case .string(let reference) = schema["$ref"] { return String(reference.split(separator: "/").last ?? "") }
        if let value = schema["const"] { return value.jsonText }
        if case .array(let choices) = schema["enum"] { return choices.map(\.jsonText).joined(separator: " | ") }
        if case .array(let branches) = schema["oneOf"] { return branches.map { type($0) }.joined(separator: " or ") }
        let name = text(schema["type"])
        switch name {
        case "array": return "array of \(type(schema["items"]))"
        case "integer", "number":
            let low = schema["minimum"] ?? schema["exclusiveMinimum"]
            guard low != nil || schema["maximum"] != nil else { return name }
            let open = schema["exclusiveMinimum"] != nil ? " (exclusive)" : ""
            return "\(name) \(low?.jsonText ?? "")…\(schema["maximum"]?.jsonText ?? "")\(open)"
        case "object":
            guard case .object(let members) = schema["properties"], !members.isEmpty else { return "object" }
            return "{" + members.map { "\($0.key): \(type($0.value))" }.joined(separator: ", ") + "}"
        case "string":
            guard case .string(let pattern) = schema["pattern"] else { return name }
            return "string matching \(pattern)" + (schema["maxLength"].map { ", at most \($0.jsonText)" } ?? "")
        default: return name
        }
    }

    /// The names of the component schemas `value` refers to, in order of first mention.
    private static func collectReferences(_ value: JSONValue?, into names: inout [String]) {
        switch value {
        case .object(let members)?:
            for (key, member) in members {
                if key == "$ref", case .string(let reference) = member {
                    let name = String(reference.split(separator: "/").last ?? "")
                    if !names.contains(name) { names.append(name) }
                } else {
                    collectReferences(member, into: &names)
                }
            }
        case .array(let elements)?: for element in elements { collectReferences(element, into: &names) }
        default: break
        }
    }

    private static func text(_ value: JSONValue?) -> String {
        if case .string(let string) = value { string } else { value?.jsonText ?? "" }
    }
}
