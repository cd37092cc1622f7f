@_spi(Package) import WaterfallJSON
import WaterfallModel
import WaterfallWire

/// Where a scroll anchor item is after a change, and how far its frame's y moved; or that it is gone: the engine's
/// type, which the daemon encodes.
public typealias AnchorResult = WaterfallModel.AnchorOutcome

/// The results of the methods, declared with the methods in the wire module.
public typealias MutationResult = WaterfallWire.MutationResult
public typealias ViewportSnapshot = WaterfallWire.ViewportSnapshot
public typealias LayoutFrames = WaterfallWire.LayoutFrames
public typealias QueryResult = WaterfallWire.QueryResult
public typealias ServerVersion = WaterfallWire.ServerVersion
public typealias ServerStats = WaterfallWire.ServerStats
public typealias LayoutExport = WaterfallWire.LayoutExport
public typealias Stylesheet = WaterfallWire.Stylesheet

/// What a mutating request asks for besides its change.
public struct MutationOptions: Sendable, Hashable {
    /// Whether the result carries the diff.
    public var diff: Bool
    /// An item, by its indices before the request, whose move the result reports.
    public var anchor: ItemPath?
    /// The viewport (before the change) the result's diff is scoped to (Diffs.md, "Scoped diffs"); nil for the
    /// full diff.
    public var viewport: Viewport?
    /// Which of the layout's widths the result, its diff and `viewport` are at (the Widths article); nil for the
    /// first. `layout.configure`'s own `width` sets the layout's width, so `configureLayout` with this width is sent
    /// as a `batch` of the one configure; `layout.create` answers at the first width and is sent without it.
    public var width: Double?

    public init(diff: Bool = true, anchor: ItemPath? = nil, viewport: Viewport? = nil, width: Double? = nil) {
        self.diff = diff
        self.anchor = anchor
        self.viewport = viewport
        self.width = width
    }
}

/// One layout of `layout.list`: the wire module's type, which the daemon encodes.
public typealias LayoutSummary = WaterfallWire.LayoutSummary

/// A request as a `layout.changed` event repeats it, and as `batch` takes it.
public struct Operation: Sendable, Equatable {
    public var method: String
    public var params: JSONValue

    public init(method: String, params: JSONValue) {
        self.method = method
        self.params = params
    }
}

/// A notification about a subscribed layout.
public enum LayoutEvent: Sendable, Equatable {
    /// `layout.changed`: a change by any connection.
    case changed(LayoutChange)
    /// `layout.dropped`: the layout is gone; the subscription is over.
    case dropped(layout: String)
    /// `subscription.overflow`: this subscriber fell behind and was unsubscribed; `layout.get` and subscribe again.
    case overflow(layout: String)

    /// The layout the event is about.
    public var layout: String {
        switch self {
        case .changed(let change): return change.layout
        case .dropped(let layout), .overflow(let layout): return layout
        }
    }
}

/// A `layout.changed` event: the requests as applied and the diff of them together.
public struct LayoutChange: Sendable, Equatable {
    public var layout: String
    public var seq: Int
    /// The content size after the change.
    public var contentSize: Size
    public var ops: [Operation]
    /// The engine commands of `ops`, in order, decoded by the daemon's own decoder: what a frame model replays on
    /// the indices it holds. An op that decodes to no command makes the whole event unreadable (`bad_reply`), never
    /// a change skipped in silence.
    public var commands: [LayoutCommand]
    public var diff: LayoutDiff
    public var anchor: AnchorResult?
    /// The event's params as the daemon wrote them.
    public var json: JSONValue
}
