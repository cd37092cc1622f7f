@_spi(Package) import WaterfallJSON

/// A request of one method of the protocol other than the changes to a layout, as a client sends it: its params and
/// how its result is read. Every such method is declared by a type that is also a `DeclaredMethod`, so a client
/// can send any of them (`WaterfallClient.send`) without a call written for it.
///
///     let listed = try await client.send(ItemsGetRequest(layout: "feed", items: [ItemPath(section: 0, item: 3)]))
public protocol MethodRequest: Sendable {
    /// What the method answers, as a client reads it.
    associatedtype Result: Sendable

    /// The method.
    static var method: Method { get }

    /// The params as a client sends them; nil for a method that takes none.
    var params: JSONValue? { get }

    /// Reads the method's result.
    static func result(_ node: JSONNode) throws(ReplyError) -> Result
}

extension MethodRequest {
    /// The wire name.
    public static var name: String { method.rawValue }
}

/// A method of the protocol other than the changes to a layout, declared once: its params (read by the daemon,
/// written by clients), its result (read by clients), its declaration for the OpenRPC document, `describe`,
/// waterfallctl's flags and the fuzz table, and the case of the daemon's one dispatch (`MethodCall`) it becomes.
///
/// The changes (`ChangeMethod`) and `batch` run as engine commands, and are declared by `ChangeMethod`'s params
/// and `CommandDecoding`.
package protocol DeclaredMethod: MethodRequest {
    /// Its summary, params, result schema and example: what the OpenRPC document says of it.
    static var declaration: MethodDeclaration { get }

    /// Reads the request's params (after the envelope); the daemon's decoding. Unread members are refused by the
    /// caller (`Params.finish()`).
    init(_ p: inout Params) throws(ProtocolError)

    /// The case of the daemon's dispatch that runs this request.
    var call: MethodCall { get }
}

extension DeclaredMethod {
    /// Reads params as the daemon does, the unread members refused: the call to run.
    static func decodeCall(_ p: inout Params) throws(ProtocolError) -> MethodCall {
        let request = try Self(&p)
        try p.finish()
        return request.call
    }

    /// A declaration of this method: `summary`, `params`, the result's schema and an example's params and result.
    static func declare(
        _ summary: String, _ params: [ParamDeclaration], result: JSONValue,
        example: [(key: String, value: JSONValue)], _ exampleResult: JSONValue
    ) -> MethodDeclaration {
        MethodDeclaration(
            method: method, summary: summary, params: params, result: result, example: (example, exampleResult))
    }
}

/// A declared method whose params are only the layout's name.
public protocol LayoutNamedMethod: MethodRequest {
    var layout: String { get }
    init(layout: String)
}

extension LayoutNamedMethod {
    package init(_ p: inout Params) throws(ProtocolError) {
        self.init(layout: try DecodedRequest.layoutName(&p))
    }

    public var params: JSONValue? { ["layout": .string(layout)] }
}

/// A declared method without params.
public protocol ParameterlessMethod: MethodRequest {
    init()
}

extension ParameterlessMethod {
    package init(_ p: inout Params) throws(ProtocolError) {
        self.init()
    }

    public var params: JSONValue? { nil }
}
