@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallWire

/// A method's declared param as a flag of the method's command: `--section 0`, `--items 3,4`,
/// `--items 0:1,0:2`, `--viewport '{"x":0,…}'`. Its placeholder and the reading of its value follow the param's
/// schema; the daemon checks the value's range and names the param when it is out of it.
struct ParamFlag {
    var param: ParamDeclaration
    /// The command whose help a usage error points to.
    var command: Command?

    init(_ param: ParamDeclaration, of command: Command? = nil) {
        self.param = param
        self.command = command
    }

    var option: CommandOption {
        CommandOption(
            name: "--" + param.name, value: Self.placeholder(Self.shape(param.schema)), help: param.summary,
            required: param.required)
    }

    /// The param's value read from `text`: JSON when it opens with `[`, `{` or `"` or is `null`; otherwise by the
    /// schema: a number, `true`/`false`, a string, or a list (`1,2`, `0:1,0:2` for a list of item paths).
    func value(_ text: String) throws(UsageError) -> JSONValue {
        if text.hasPrefix("[") || text.hasPrefix("{") || text.hasPrefix("\"") || text == "null" {
            do {
                return try JSONValue(parsing: text)
            } catch {
                throw usage("'\(text)' is not JSON (\(error))")
            }
        }
        return try Self.read(text, as: Self.shape(param.schema), usage)
    }

    // MARK: Private

    /// What a value of a schema looks like on the command line.
    private indirect enum Shape {
        case integer, number, boolean
        case string(names: [String])
        case list(Shape)
        case path
        case json
    }

    private func usage(_ message: String) -> UsageError { UsageError("--\(param.name): \(message)", command: command) }

    private static func shape(_ schema: JSONValue) -> Shape {
        if case .array(let choices)? = schema["oneOf"], let first = choices.first { return shape(first) }
        if case .string(let ref)? = schema["$ref"] { return ref.hasSuffix("/ItemPath") ? .path : .json }
        guard case .string(let type)? = schema["type"] else { return .json }
        switch type {
        case "integer": return .integer
        case "number": return .number
        case "boolean": return .boolean
        case "string":
            guard case .array(let names)? = schema["enum"] else { return .string(names: []) }
            return .string(names: names.compactMap { if case .string(let name) = $0 { name } else { nil } })
        case "array":
            guard let items = schema["items"] else { return .json }
            if schema["maxItems"] == .int(2), items["type"] == .string("integer") { return .path }
            let element = shape(items)
            if case .json = element { return .json }
            if case .list = element { return .json }
            return .list(element)
        default: return .json
        }
    }

    private static func placeholder(_ shape: Shape) -> String {
        switch shape {
        case .integer: "N"
        case .number: "X"
        case .boolean: "true|false"
        case .string(let names): names.isEmpty ? "TEXT" : names.joined(separator: "|")
        case .list(let element): "\(placeholder(element)),…"
        case .path: "S:I"
        case .json: "JSON"
        }
    }

    private static func read(_ text: String, as shape: Shape, _ usage: (String) -> UsageError) throws(UsageError)
        -> JSONValue
    {
        switch shape {
        case .integer:
            guard let value = Int64(text) else { throw usage("'\(text)' is not an integer") }
            return .int(value)
        case .number:
            guard let value = Double(text), value.isFinite else { throw usage("'\(text)' is not a number") }
            return .double(value)
        case .boolean:
            guard let value = Bool(text) else { throw usage("'\(text)' is not true or false") }
            return .bool(value)
        case .string(let names):
            guard names.isEmpty || names.contains(text) else {
                throw usage("'\(text)' is not one of \(names.joined(separator: ", "))")
            }
            return .string(text)
        case .list(let element):
            var values: [JSONValue] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                values.append(try read(String(part), as: element, usage))
            }
            return .array(values)
        case .path:
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let section = Int64(parts[0]), let item = Int64(parts[1]) else {
                throw usage("'\(text)' is not SECTION:ITEM")
            }
            return [.int(section), .int(item)]
        case .json:
            throw usage("'\(text)' is not JSON")
        }
    }
}
