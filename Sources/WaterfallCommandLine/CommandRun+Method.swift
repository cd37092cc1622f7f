import WaterfallClient
@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallWire

extension Invocation {
    /// The params of a method's own command: `LAYOUT` as `layout`, then each declared param given as a flag, in
    /// the declaration's order; nil for a method without params.
    package func params(of method: Method) throws(UsageError) -> JSONValue? {
        let declaration = MethodTable.declaration(method)
        guard !declaration.params.isEmpty else { return nil }
        var members: [(key: String, value: JSONValue)] = []
        for param in declaration.params {
            if param.name == "layout", method.takesLayout, let layout = arguments.first {
                members.append((param.name, .string(layout)))
            } else if let text = options["--" + param.name] {
                members.append((param.name, try ParamFlag(param, of: command).value(text)))
            }
        }
        return .object(members)
    }
}

extension CommandRun {
    /// Sends `method` and prints its result: a result that lists elements as the table `query` prints, anything
    /// else (and everything with `--json`) as the daemon wrote it.
    func call(_ client: WaterfallClient, _ method: Method) async throws -> WaterfallCtl.ExitStatus {
        let node = try await client.callNode(method: method.rawValue, params: try invocation.params(of: method))
        if !invocation.json, node["elements"] != nil, let result = try? ReplyDecoding.query(node) {
            terminal.write(FrameListing.elements(result, numbers))
        } else {
            terminal.write(String(decoding: node.rawBytes, as: UTF8.self) + "\n")
        }
        return .success
    }
}
