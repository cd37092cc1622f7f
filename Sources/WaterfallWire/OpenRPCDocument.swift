@_spi(Package) import WaterfallJSON
import WaterfallModel

/// The protocol as an OpenRPC 1.3 document, `rpc.discover`'s result: every method of `MethodTable` with its params,
/// result, errors and example; the shared shapes and the events in `components.schemas`; every `ErrorCode` in
/// `components.errors`.
package enum OpenRPCDocument {
    /// The OpenRPC specification version the document follows.
    package static let openrpcVersion = "1.3.2"

    /// The document.
    package static let value: JSONValue = [
        "openrpc": .string(openrpcVersion),
        "info": [
            "title": "waterfalld",
            "version": .string(String(VersionRequest.protocolVersion)),
            "description": """
            Masonry layouts over a Unix socket: newline-delimited JSON-RPC 2.0, params by name. info.version is \
            the protocol version (version's "protocol"). A subscribed connection receives notifications \
            layout.changed, layout.dropped and subscription.overflow, whose params are the schemas of those \
            names in components.schemas. Every error reply carries data.kind (components.errors).
            """,
        ],
        "methods": .array(MethodTable.all.map(method)),
        "components": [
            "schemas": .object(WireSchema.components),
            "errors": .object(ErrorCode.all.map { (key: $0.code.kind.description, value: error($0.code, $0.when)) }),
        ],
    ]

    /// The document as JSON text, written once.
    package static let bytes: [UInt8] = {
        var w = JSONWriter()
        w.write(value)
        return w.takeBytes()
    }()

    // MARK: Private

    private static func method(_ declaration: MethodDeclaration) -> JSONValue {
        let params = declaration.params.map { param -> JSONValue in
            [
                "name": .string(param.name), "summary": .string(param.summary), "required": .bool(param.required),
                "schema": param.schema,
            ]
        }
        let name = declaration.method.rawValue
        let example: JSONValue = [
            "name": .string(name + " example"),
            "params": .array(declaration.example.params.map { ["name": .string($0.key), "value": $0.value] }),
            "result": ["name": "result", "value": declaration.example.result],
        ]
        return [
            "name": .string(name),
            "summary": .string(declaration.summary),
            "paramStructure": "by-name",
            "params": .array(params),
            "result": ["name": "result", "schema": declaration.result],
            // Written out rather than as references to components.errors: some tools (python-openrpc 11) take no
            // reference there.
            "errors": .array(errors(of: declaration).map { code in error(code, when[code.code] ?? "") }),
            "examples": [example],
        ]
    }

    /// The kinds of error `declaration`'s method can answer with.
    private static func errors(of declaration: MethodDeclaration) -> [ErrorCode] {
        var codes: [ErrorCode] = [.parseError, .invalidRequest, .badParams, .internalError, .tooLarge, .shuttingDown]
        codes.append(.forbidden)
        if declaration.params.contains(where: { $0.name == "layout" }) { codes.append(.notFound) }
        switch declaration.method {
        case .change, .batch: codes += [.invalidGeometry, .limit, .storage]
        case .layoutCreate: codes += [.exists, .invalidGeometry, .limit, .storage]
        case .layoutDrop: codes.append(.storage)
        case .subscribe: codes.append(.limit)
        default: break
        }
        return codes
    }

    /// When each code is answered, by code.
    private static let when = Dictionary(uniqueKeysWithValues: ErrorCode.all.map { ($0.code.code, $0.when) })

    private static func error(_ code: ErrorCode, _ when: String) -> JSONValue {
        ["code": .int(Int64(code.code)), "message": .string(when), "data": ["kind": .string(code.kind.description)]]
    }
}
