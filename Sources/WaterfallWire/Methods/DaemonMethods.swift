@_spi(Package) import WaterfallJSON

/// `ping`: checks that the daemon answers.
public struct PingRequest: ParameterlessMethod, DeclaredMethod {
    public typealias Result = Void

    public init() {}

    public static let method = Method.ping
    package var call: MethodCall { .ping }

    package static var declaration: MethodDeclaration {
        declare(
            "Checks that the daemon answers.", [], result: WireSchema.object([("pong", ["const": true])]), example: [],
            ["pong": true])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) {}
}

/// `version`: the daemon's name, version, protocol version, instance and limits.
public struct VersionRequest: ParameterlessMethod, DeclaredMethod {
    /// The protocol version `version` reports.
    public static let protocolVersion = 2

    public init() {}

    public static let method = Method.version
    package var call: MethodCall { .version }

    package static var declaration: MethodDeclaration {
        let limits: JSONValue = ["type": "object", "additionalProperties": WireSchema.anyInteger]
        let result = WireSchema.object(
            [
                ("server", WireSchema.string), ("version", WireSchema.string),
                ("protocol", ["const": .int(Int64(protocolVersion))]),
                ("instance", WireSchema.string), ("durable", WireSchema.boolean), ("limits", limits),
            ], required: ["server", "version", "protocol", "instance", "durable", "limits"])
        let example: JSONValue = [
            "server": "waterfalld", "version": "1.0.0", "protocol": .int(Int64(protocolVersion)),
            "instance": "5f3a9c", "durable": false, "limits": ["maxLayouts": 1024],
        ]
        return declare(
            "The daemon's name, version, protocol version, instance and limits.", [], result: result, example: [],
            example)
    }

    public static func result(_ node: JSONNode) throws(ReplyError) -> ServerVersion {
        ServerVersion(
            server: try ReplyDecoding.string(node, "server", "result"),
            version: try ReplyDecoding.string(node, "version", "result"),
            protocolVersion: try ReplyDecoding.int(node, "protocol", "result"),
            instance: node["instance"]?.string ?? "", durable: node["durable"]?.bool ?? false,
            limits: node["limits"]?.value ?? .object([]))
    }
}

/// `stats`: the daemon's counters.
public struct StatsRequest: ParameterlessMethod, DeclaredMethod {
    public init() {}

    public static let method = Method.stats
    package var call: MethodCall { .stats }

    package static var declaration: MethodDeclaration {
        let counters = ["uptimeSeconds", "requests", "errors", "layouts", "sections", "items", "subscriptions"]
        let result = WireSchema.object(
            counters.map { ($0, WireSchema.number) } + [
                ("connections", ["type": "object"]), ("bytesRead", WireSchema.anyInteger),
                ("bytesWritten", WireSchema.anyInteger), ("memory", ["type": "object"]),
            ], required: counters, open: true)
        return declare(
            "The daemon's counters.", [], result: result, example: [],
            [
                "uptimeSeconds": 5, "requests": 3, "errors": 0, "layouts": 1, "sections": 1, "items": 1,
                "subscriptions": 0,
            ])
    }

    public static func result(_ node: JSONNode) throws(ReplyError) -> ServerStats {
        ServerStats(values: node.value)
    }
}

/// `metrics`: `stats` in Prometheus' text format.
public struct MetricsRequest: ParameterlessMethod, DeclaredMethod {
    /// The media type of the metrics text: Prometheus' text format 0.0.4.
    public static let contentType = "text/plain; version=0.0.4"

    public init() {}

    public static let method = Method.metrics
    package var call: MethodCall { .metrics }

    package static var declaration: MethodDeclaration {
        let result = WireSchema.object(
            [("contentType", WireSchema.string), ("text", WireSchema.string)], required: ["contentType", "text"])
        return declare(
            "The daemon's counters and histograms in Prometheus' text format 0.0.4.", [], result: result, example: [],
            ["contentType": .string(contentType), "text": "# HELP …\n"])
    }

    /// The metrics text.
    public static func result(_ node: JSONNode) throws(ReplyError) -> String {
        try ReplyDecoding.string(node, "text", "result")
    }
}

/// `rpc.discover`: the protocol as an OpenRPC document.
public struct DiscoverRequest: ParameterlessMethod, DeclaredMethod {
    public init() {}

    public static let method = Method.rpcDiscover
    package var call: MethodCall { .rpcDiscover }

    package static var declaration: MethodDeclaration {
        let result = WireSchema.object(
            [("openrpc", WireSchema.string), ("info", ["type": "object"]), ("methods", ["type": "array"])],
            required: ["openrpc", "info", "methods"], open: true)
        return declare(
            "This document: the protocol as OpenRPC 1.3.", [], result: result, example: [],
            ["openrpc": .string(OpenRPCDocument.openrpcVersion), "info": [:], "methods": []])
    }

    /// The document.
    public static func result(_ node: JSONNode) throws(ReplyError) -> JSONValue { node.value }
}
