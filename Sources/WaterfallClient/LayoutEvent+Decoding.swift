@_spi(Package) import WaterfallJSON
import WaterfallModel
import WaterfallWire

extension LayoutEvent {
    /// The notifications a subscription receives.
    static let methods = ["layout.changed", "layout.dropped", "subscription.overflow"]

    /// The event of a notification line.
    init(notification root: JSONNode) throws(WaterfallClientError) {
        do throws(ReplyError) {
            try self.init(reading: root)
        } catch {
            throw .unreadable(error.message)
        }
    }

    private init(reading root: JSONNode) throws(ReplyError) {
        let method = try ReplyDecoding.string(root, "method", "event")
        let params = try ReplyDecoding.member(root, "params", "event")
        let layout = try ReplyDecoding.string(params, "layout", "event.params")
        switch method {
        case "layout.changed":
            let ops = try ReplyDecoding.member(params, "ops", "event.params")
            self = .changed(
                LayoutChange(
                    layout: layout, seq: try ReplyDecoding.int(params, "seq", "event.params"),
                    contentSize: try ReplyDecoding.size(
                        ReplyDecoding.member(params, "contentSize", "event.params"), "event.params.contentSize"),
                    ops: try Self.operations(ops, "event.params.ops"),
                    commands: try ReplyDecoding.commands(ops, "event.params.ops"),
                    diff: try ReplyDecoding.diff(
                        ReplyDecoding.member(params, "diff", "event.params"), "event.params.diff"),
                    anchor: try ReplyDecoding.anchor(params["anchor"], "event.params.anchor"), json: params.value))
        case "layout.dropped": self = .dropped(layout: layout)
        case "subscription.overflow": self = .overflow(layout: layout)
        default: throw ReplyDecoding.fail("event.method", "unknown event \(method)")
        }
    }

    /// A `{"method", "params"}` list.
    private static func operations(_ node: JSONNode, _ path: @autoclosure ReplyDecoding.Path) throws(ReplyError)
        -> [Operation]
    {
        guard node.kind == .array else { throw ReplyDecoding.fail(path(), "not an array") }
        var ops: [Operation] = []
        for (k, op) in node.elements.enumerated() {
            func at() -> String { "\(path())[\(k)]" }
            ops.append(
                Operation(
                    method: try ReplyDecoding.string(op, "method", at()), params: op["params"]?.value ?? .object([])))
        }
        return ops
    }
}
