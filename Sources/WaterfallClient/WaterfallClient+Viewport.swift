@_spi(Package) import WaterfallJSON
import WaterfallModel
import WaterfallWire

/// Scoped subscriptions (Events.md, "Scoped subscriptions"): a client of a long feed subscribes with the viewport it
/// draws, receives events whose diffs list only what that viewport needs, and scrolls with one request.
///
///     let (events, snapshot) = try await client.subscribe("feed", viewport: Viewport(y: 0, height: 800))
///     var model = try WindowedModel(snapshot)
///     for try await case .changed(let change) in events {
///         try model.apply(change)
///         // On a scroll: try model.move(to: await client.moveViewport(of: "feed", to: newViewport))
///     }
extension WaterfallClient {
    /// `subscribe` with a viewport: the layout's events from the snapshot's `seq` on, each diff scoped to
    /// `viewport`, and the viewport's elements at that `seq`, all at `width` (one of the layout's widths; nil for
    /// the first).
    public func subscribe(
        _ layout: String, viewport: Viewport, width: Double? = nil
    ) async throws(WaterfallClientError) -> (events: Subscription, snapshot: ViewportSnapshot) {
        let (events, node) = try await subscribe(layout, params: Self.subscribeParams(layout, viewport, width))
        return (events, try decode("subscribe", node, ReplyDecoding.viewportSnapshot))
    }

    /// Scrolls: `subscribe` again, with `viewport`, on a layout this client already subscribes to. The daemon
    /// replaces the subscription's viewport between two changes and answers the new viewport's elements at the
    /// `seq` they belong to; the events of the existing `Subscription` go on, scoped to the new viewport after that
    /// `seq` (those up to it are the old viewport's, and a `WindowedModel` moved to the snapshot skips them). No
    /// event is lost or doubled. With `width`, the subscription moves to that width as well (nil: the first).
    ///
    /// On a layout the client does not subscribe to, the daemon subscribes it, but no `Subscription` receives the
    /// events: call `subscribe(_:viewport:)` first.
    public func moveViewport(
        of layout: String, to viewport: Viewport, width: Double? = nil
    ) async throws(WaterfallClientError) -> ViewportSnapshot {
        let node = try await result("subscribe", Self.subscribeParams(layout, viewport, width))
        return try decode("subscribe", node, ReplyDecoding.viewportSnapshot)
    }

    // MARK: Internal

    /// Sends `subscribe` with `params`, routing the layout's events to a new subscription first (an event may follow
    /// the reply in the same read); the subscription and the reply's result.
    func subscribe(
        _ layout: String, params: JSONValue
    ) async throws(WaterfallClientError) -> (events: Subscription, result: JSONNode) {
        let buffer = EventBuffer()
        guard connection.addSink(buffer, for: layout) else {
            _ = try await result("subscribe", params)
            throw .connectionClosed(socketPath, "is closed")
        }
        do throws(WaterfallClientError) {
            let node = try await result("subscribe", params)
            return (Subscription(layout: layout, client: self, buffer: buffer), node)
        } catch {
            connection.removeSink(buffer, for: layout)
            throw error
        }
    }

    /// `subscribe`'s params: the layout, and the viewport and the width when given.
    static func subscribeParams(_ layout: String, _ viewport: Viewport?, _ width: Double?) -> JSONValue {
        var params: [(key: String, value: JSONValue)] = [("layout", .string(layout))]
        if let viewport { params.append(("viewport", CommandEncoding.viewport(viewport))) }
        if let width { params.append(("width", .double(width))) }
        return .object(params)
    }
}
