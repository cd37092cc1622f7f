import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol

/// One request line, read as far as it can be before it runs: parsed and, for a change to a layout, decoded.
///
/// `ClientSession.prepare` makes these on the connection's thread while the requests before still run, so that a
/// pipelining client's parsing and decoding overlap with the work of its changes.
enum PreparedRequest: Sendable {
    /// A line over `maxLineBytes`.
    case tooLarge
    /// A line that failed before running (parse error, bad envelope, unknown method, bad params of a change).
    case failed(RequestID, ProtocolError, isNotification: Bool)
    /// A change to one layout, decoded.
    case change(LayoutChange)
    /// Any other method: its params are read when it runs, as they may depend on what runs before.
    case call(Method, Request)

    /// A decoded change request (a single one or a batch).
    struct LayoutChange: Sendable {
        var id: RequestID
        var isNotification: Bool
        var layout: String
        var commands: [LayoutCommand]
        var ops: AppliedOps
        var wantsDiff: Bool
    }

    /// Reads `line`; `reader` is the connection's parser, `maxBatchOps` the limit on a batch.
    init(_ line: InputLine, reader: inout JSONReader, maxBatchOps: Int) {
        guard case .line(let bytes) = line else {
            self = .tooLarge
            return
        }
        var id = RequestID.none
        var isNotification = false
        do throws(ProtocolError) {
            let document: JSONDocument
            do {
                document = try reader.parse(bytes)
            } catch {
                throw ProtocolError(.parseError, "line: \(error)")
            }
            let request = try Request(document, partialID: &id)
            isNotification = request.isNotification
            guard let method = request.knownMethod else {
                throw ProtocolError(.unknownMethod, "method: no method named \"\(request.method)\"")
            }
            if let change = try Self.change(method, request, maxBatchOps: maxBatchOps) {
                self = .change(change)
            } else {
                self = .call(method, request)
            }
        } catch {
            self = .failed(id, error, isNotification: isNotification)
        }
    }

    /// The decoded change of a request of a changing method, or nil for other methods.
    private static func change(
        _ method: Method, _ request: Request, maxBatchOps: Int
    ) throws(ProtocolError) -> LayoutChange? {
        switch method {
        case .ping, .version, .layoutCreate, .layoutDrop, .layoutList, .layoutGet, .query, .subscribe, .unsubscribe,
            .stats:
            return nil
        case .batch, .layoutConfigure, .sectionsInsert, .sectionsDelete, .sectionsMove, .sectionsConfigure,
            .itemsInsert, .itemsDelete, .itemsUpdate, .itemsMove:
            break
        }
        var p = try Params(request.params, path: "params")
        let name = try ClientSession.layoutName(&p)
        let wantsDiff = try p.optionalBool("diff") ?? true
        let commands: [LayoutCommand]
        let ops: AppliedOps
        if method == .batch {
            let opsNode = p.node("ops")
            let nodes = try p.array("ops")
            guard nodes.underestimatedCount <= maxBatchOps else {
                throw ProtocolError(
                    .limit, "params.ops: \(nodes.underestimatedCount) ops, over the limit of \(maxBatchOps)")
            }
            commands = try CommandDecoding.batch(nodes, "params.ops")
            ops = .batch(opsNode?.rawBytes ?? [])
        } else {
            commands = [try CommandDecoding.command(method, &p)]
            ops = .single(method: method.rawValue, params: request.params?.rawBytes ?? [])
        }
        try p.finish()
        return LayoutChange(
            id: request.id, isNotification: request.isNotification, layout: name, commands: commands, ops: ops,
            wantsDiff: wantsDiff)
    }
}
