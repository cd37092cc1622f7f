@_spi(Package) import WaterfallJSON

/// A JSON Schema validator for the subset the OpenRPC document uses: `type`, `properties`, `required`,
/// `additionalProperties` (false or a schema), `items`, `minItems`, `maxItems`, `uniqueItems`, `enum`, `const`,
/// `minimum`, `maximum`, `exclusiveMinimum`, `minLength`, `maxLength`, `pattern` (only `^[chars]+$` classes),
/// `oneOf` and `$ref` into the document's `components.schemas`.
///
/// A keyword it does not know is itself a failure, so the document cannot use more than the tests check.
package struct SchemaValidator: Sendable {
    /// A place where a value does not match, e.g. `params.items[3].h: 1e10 is over the maximum 1e9`.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "\(path): \(reason)" }

        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    /// The document whose `components.schemas` the `$ref`s name.
    package let document: JSONValue

    package init(document: JSONValue) {
        self.document = document
    }

    /// The first place `value`, at `path`, departs from `schema`; nil when it matches.
    package func failure(_ value: JSONValue, _ schema: JSONValue, at path: String) -> Failure? {
        do {
            try check(value, schema, path)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Private

    private static let known: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "minItems", "maxItems", "uniqueItems",
        "enum", "const", "minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength", "pattern", "oneOf",
        "$ref", "description",
    ]

    private func check(_ value: JSONValue, _ schema: JSONValue, _ path: String) throws(Failure) {
        guard case .object(let keywords) = schema else { throw Failure(path: path, reason: "schema \(schema)") }
        for (keyword, argument) in keywords {
            guard Self.known.contains(keyword) else {
                throw Failure(path: path, reason: "the validator does not know the keyword \(keyword)")
            }
            try apply(keyword, argument, schema, to: value, path)
        }
    }

    private func apply(
        _ keyword: String, _ argument: JSONValue, _ schema: JSONValue, to value: JSONValue, _ path: String
    ) throws(Failure) {
        func fail(_ reason: String) -> Failure { Failure(path: path, reason: reason) }
        switch keyword {
        case "$ref":
            guard case .string(let reference) = argument, reference.hasPrefix("#/components/schemas/"),
                let target = document["components"]?["schemas"]?[String(reference.dropFirst(21))]
            else { throw fail("unresolved $ref \(argument)") }
            try check(value, target, path)
        case "type":
            guard case .string(let type) = argument, Self.has(value, type: type) else {
                throw fail("\(value) is not of type \(argument)")
            }
        case "properties":
            guard case .object(let members) = value, case .object(let properties) = argument else { return }
            for (key, member) in members {
                if let property = properties.first(where: { $0.key == key }) {
                    try check(member, property.value, path + "." + key)
                }
            }
        case "required":
            guard case .object = value, case .array(let names) = argument else { return }
            for case .string(let name) in names where value[name] == nil { throw fail("\(name) is required, missing") }
        case "additionalProperties":
            guard case .object(let members) = value else { return }
            let declared = schema["properties"]
            for (key, member) in members where declared?[key] == nil {
                if argument == .bool(false) { throw fail("\(key) is not a declared field") }
                try check(member, argument, path + "." + key)
            }
        case "items":
            guard case .array(let elements) = value else { return }
            for (k, element) in elements.enumerated() { try check(element, argument, "\(path)[\(k)]") }
        case "minItems", "maxItems":
            guard case .array(let elements) = value, let bound = Self.number(argument) else { return }
            let count = Double(elements.count)
            if keyword == "minItems" ? count < bound : count > bound {
                throw fail("\(elements.count) items, \(keyword) \(argument)")
            }
        case "uniqueItems":
            guard case .array(let elements) = value, argument == .bool(true) else { return }
            for k in elements.indices where elements[..<k].contains(elements[k]) {
                throw fail("\(elements[k]) is listed twice")
            }
        case "enum":
            guard case .array(let choices) = argument, choices.contains(value) else {
                throw fail("\(value) is not one of \(argument)")
            }
        case "const":
            guard value == argument else { throw fail("\(value) is not \(argument)") }
        case "minimum", "maximum", "exclusiveMinimum":
            guard let number = Self.number(value), let bound = Self.number(argument) else { return }
            let fails =
                switch keyword {
                case "minimum": number < bound
                case "maximum": number > bound
                default: number <= bound
                }
            if fails { throw fail("\(value) is out of range (\(keyword) \(argument))") }
        case "minLength", "maxLength":
            guard case .string(let text) = value, let bound = Self.number(argument) else { return }
            let count = Double(text.count)
            if keyword == "minLength" ? count < bound : count > bound {
                throw fail("\"\(text)\": \(keyword) \(argument)")
            }
        case "pattern":
            guard case .string(let text) = value, case .string(let pattern) = argument else { return }
            guard let allowed = Self.characterClass(pattern) else { throw fail("unsupported pattern \(pattern)") }
            if text.isEmpty || !text.unicodeScalars.allSatisfy(allowed.contains) {
                throw fail("\"\(text)\" does not match \(pattern)")
            }
        case "oneOf":
            guard case .array(let branches) = argument else { throw fail("oneOf \(argument)") }
            var failures: [Failure] = []
            for branch in branches {
                if let failure = failure(value, branch, at: path) { failures.append(failure) }
            }
            switch branches.count - failures.count {
            case 1: return
            // No branch matches: name the failure that got deepest, the likeliest one meant.
            case 0: throw failures.max { $0.path.count < $1.path.count } ?? fail("oneOf")
            case let matched: throw fail("\(value) matches \(matched) branches of a oneOf")
            }
        default:
            break
        }
    }

    /// Whether `value` is of JSON Schema type `type` (an integral number is an integer).
    private static func has(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): true
        case ("number", .int), ("number", .double), ("integer", .int): true
        case ("integer", .double(let d)): d.rounded() == d
        default: false
        }
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let i): Double(i)
        case .double(let d): d
        default: nil
        }
    }

    /// The characters of a `^[…]+$` pattern (ranges like `A-Z` and single characters, `-` last).
    private static func characterClass(_ pattern: String) -> Set<Unicode.Scalar>? {
        guard pattern.hasPrefix("^["), pattern.hasSuffix("]+$") else { return nil }
        let body = Array(pattern.dropFirst(2).dropLast(3).unicodeScalars)
        var result = Set<Unicode.Scalar>()
        var k = 0
        while k < body.count {
            if k + 2 < body.count, body[k + 1] == "-" {
                for v in body[k].value...body[k + 2].value { if let s = Unicode.Scalar(v) { result.insert(s) } }
                k += 3
            } else {
                result.insert(body[k])
                k += 1
            }
        }
        return result
    }
}
