@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol
import WaterfallWire

/// An engine command as a client writes it on the wire: its method and params (without `layout`), as the Methods article
/// spells them (through the protocol's `CommandEncoding`), so that tests can send generated commands through the
/// socket.
package struct WireCommand: Sendable, CustomStringConvertible {
    package var method: String
    package var params: JSONValue

    // MARK: Lifecycle

    package init(_ command: LayoutCommand) {
        let request = CommandEncoding.request(command)
        method = request.method.rawValue
        params = request.params
    }

    // MARK: Package

    package var description: String { "\(method) \(params)" }

    /// `params` with `"layout": name` first.
    package func params(layout name: String) -> JSONValue {
        guard case .object(let members) = params else { return params }
        return .object([(key: "layout", value: .string(name))] + members)
    }

    /// A whole request line (without its newline).
    package func request(id: Int, layout name: String) -> String {
        let line: JSONValue = [
            "jsonrpc": "2.0", "id": .integer(id), "method": .string(method), "params": params(layout: name),
        ]
        return line.jsonText
    }

    /// The params of `layout.create` for `spec`.
    package static func create(_ name: String, _ spec: LayoutSpec) -> JSONValue {
        .object([(key: "layout", value: .string(name))] + CommandEncoding.members(of: spec))
    }
}
