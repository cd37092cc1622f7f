@_spi(Package) import WaterfallJSON

extension SchemaValidator {
    /// The method object named `name` in the document's `methods`.
    package func method(_ name: String) -> JSONValue? {
        guard case .array(let methods) = document["methods"] else { return nil }
        return methods.first { $0["name"] == .string(name) }
    }

    /// The schema of a method's params object: its declared params by name, those marked required, nothing else.
    package func paramsSchema(_ method: JSONValue) -> JSONValue {
        guard case .array(let params) = method["params"] else { return ["type": "object"] }
        var properties: [(key: String, value: JSONValue)] = []
        var required: [JSONValue] = []
        for param in params {
            guard case .string(let name) = param["name"] else { continue }
            properties.append((name, param["schema"] ?? ["type": "object"]))
            if param["required"] == true { required.append(.string(name)) }
        }
        return [
            "type": "object", "properties": .object(properties), "required": .array(required),
            "additionalProperties": false,
        ]
    }

    /// Where a request's params depart from `method`'s declaration (`params`, nil when absent: an empty object).
    package func checkRequest(method name: String, params: JSONValue?) -> Failure? {
        guard let method = method(name) else {
            return Failure(path: "method", reason: "\(name) is not in the document")
        }
        return failure(params ?? [:], paramsSchema(method), at: "\(name) params")
    }

    /// Where a reply to a request of `name` departs from the document: its result from the method's result schema,
    /// its error from `ErrorObject`.
    package func checkReply(method name: String, reply: JSONValue) -> Failure? {
        if let error = reply["error"] {
            return failure(error, ["$ref": "#/components/schemas/ErrorObject"], at: "\(name) error")
        }
        guard let result = reply["result"] else { return Failure(path: "\(name) reply", reason: "no result or error") }
        guard let schema = method(name)?["result"]?["schema"] else {
            return Failure(path: "method", reason: "\(name) is not in the document")
        }
        return failure(result, schema, at: "\(name) result")
    }

    /// Where an event line (a notification) departs from the schema of its params named by its method.
    package func checkEvent(_ line: JSONValue) -> Failure? {
        guard case .string(let name) = line["method"] else { return Failure(path: "event", reason: "no method") }
        guard let schema = document["components"]?["schemas"]?[name] else {
            return Failure(path: "event", reason: "\(name) is not in components.schemas")
        }
        return failure(line["params"] ?? .null, schema, at: "\(name) params")
    }
}
