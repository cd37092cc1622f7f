import WaterfallJSON
import WaterfallLayout
import WaterfallProtocol

/// What every mutating method answers: the layout's new version, its content size and, unless the request said
/// `"diff": false`, how the frames moved (the Diffs article).
public struct MutationResult: Sendable, Hashable {
    public var seq: Int
    public var contentSize: Size
    public var diff: LayoutDiff?
    /// Where the request's scroll anchor went; nil when it named none.
    public var anchor: AnchorResult?

    public init(seq: Int, contentSize: Size, diff: LayoutDiff?, anchor: AnchorResult? = nil) {
        self.seq = seq
        self.contentSize = contentSize
        self.diff = diff
        self.anchor = anchor
    }
}

/// Where a scroll anchor item is after a change, and how far its frame's y moved; or that it is gone: the engine's
/// type, which the daemon encodes.
public typealias AnchorResult = WaterfallLayout.AnchorOutcome

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

/// The answer to a scoped `subscribe`: what a client that holds nothing needs to hold `viewport`'s elements at
/// `seq`, as a scoped diff (an entry for each section the viewport crosses). `WindowedModel` starts from one, and
/// moves to another when it scrolls.
public struct ViewportSnapshot: Sendable, Hashable {
    public var seq: Int
    public var contentSize: Size
    public var viewport: Viewport
    public var diff: LayoutDiff

    public init(seq: Int, contentSize: Size, viewport: Viewport, diff: LayoutDiff) {
        self.seq = seq
        self.contentSize = contentSize
        self.viewport = viewport
        self.diff = diff
    }
}

/// The result of `layout.get`: the frames of the sections asked for (all by default).
public struct LayoutFrames: Sendable, Hashable {
    public var seq: Int
    public var contentSize: Size
    /// Each with its pinned header's `pinMaxY`, if it has one.
    public var sections: [SectionFrames]

    public init(seq: Int, contentSize: Size, sections: [SectionFrames]) {
        self.seq = seq
        self.contentSize = contentSize
        self.sections = sections
    }
}

/// The result of `query`: the headers, items and footers in a rect.
public struct QueryResult: Sendable, Hashable {
    public var seq: Int
    public var contentSize: Size
    public var elements: [Element]
}

/// One layout of `layout.list`: the protocol module's type, which the daemon encodes.
public typealias LayoutSummary = WaterfallProtocol.LayoutSummary

/// The result of `version`.
public struct ServerVersion: Sendable, Equatable {
    public var server: String
    public var version: String
    public var protocolVersion: Int
    /// Changes at every start of the daemon.
    public var instance: String
    /// Whether layouts survive a restart.
    public var durable: Bool
    /// The daemon's limits, as it names them.
    public var limits: JSONValue
}

/// The result of `stats`: counters whose set grows with the daemon, so they are kept as the daemon wrote them.
public struct ServerStats: Sendable, Equatable {
    public var values: JSONValue

    /// The integer at a dotted path (`"connections.open"`), if there is one.
    public subscript(path: String) -> Int? {
        var value: JSONValue? = values
        for key in path.split(separator: ".") { value = value?[String(key)] }
        switch value {
        case .int(let n)?: return Int(n)
        case .double(let d)?: return Int(exactly: d)
        default: return nil
        }
    }
}

/// The result of `layout.export`: a layout's inputs, which `layout.create` of them rebuilds.
public struct LayoutExport: Sendable, Hashable {
    public var seq: Int
    public var spec: LayoutSpec
}

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
