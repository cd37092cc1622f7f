import WaterfallLayout

/// One request's method with its params decoded and checked: what the server runs, one case per method.
///
/// The changes to an existing layout (the batchable methods and `batch`) are not here: they are
/// `DecodedRequest.change`, since they run another way, as commands applied to one layout, a run of them to the same
/// layout in one visit.
///
/// `layoutCreate` is boxed: a `LayoutSpec` holds the default section properties inline (a few hundred bytes), and
/// every request of a read, the most frequent small ones included, would be that large and copied as such.
public enum MethodCall: Sendable {
    case ping
    case version
    indirect case layoutCreate(LayoutCreation)
    case layoutDrop(layout: String)
    case layoutList
    case layoutGet(LayoutListing)
    /// `layout.export`: the layout's inputs, in the shape of `layout.create`'s params.
    case layoutExport(layout: String)
    /// `layout.css`: a stylesheet exact at every container width of a range.
    indirect case layoutCSS(StylesheetRequest)
    case query(LayoutQuery)
    /// `items.neighbors`: the items next to one on screen (at `width`; nil: the first width).
    case neighbors(layout: String, item: ItemPath, width: Double?)
    /// With a viewport, a scoped subscription (its events list what that viewport needs), answered with the
    /// viewport's elements; its events carry the diffs at `width` (nil: the first width).
    case subscribe(layout: String, viewport: Viewport?, width: Double?)
    case unsubscribe(layout: String)
    case stats
    /// `metrics`: `stats` in Prometheus' text format.
    case metrics
    /// `rpc.discover`: the OpenRPC document.
    case rpcDiscover
}

extension MethodCall {
    /// The method this call runs.
    public var method: Method {
        switch self {
        case .ping: .ping
        case .version: .version
        case .layoutCreate: .layoutCreate
        case .layoutDrop: .layoutDrop
        case .layoutList: .layoutList
        case .layoutGet: .layoutGet
        case .layoutExport: .layoutExport
        case .layoutCSS: .layoutCSS
        case .query: .query
        case .neighbors: .itemsNeighbors
        case .subscribe: .subscribe
        case .unsubscribe: .unsubscribe
        case .stats: .stats
        case .metrics: .metrics
        case .rpcDiscover: .rpcDiscover
        }
    }
}

/// The params of `layout.create`.
public struct LayoutCreation: Sendable {
    public var layout: String
    public var replace: Bool
    public var wantsDiff: Bool
    public var spec: LayoutSpec

    public init(layout: String, replace: Bool, wantsDiff: Bool, spec: LayoutSpec) {
        self.layout = layout
        self.replace = replace
        self.wantsDiff = wantsDiff
        self.spec = spec
    }
}

/// The params of `layout.get`: the sections to list (nil: all of them, in order).
public struct LayoutListing: Sendable {
    public var layout: String
    public var sections: [Int]?
    /// The width whose frames are listed; nil for the first.
    public var width: Double?

    public init(layout: String, sections: [Int]?, width: Double? = nil) {
        self.layout = layout
        self.sections = sections
        self.width = width
    }
}

/// The params of `query`: a rect whose `w` and `h` are ≥ 0, and the order of its elements.
public struct LayoutQuery: Sendable {
    public var layout: String
    public var rect: Rect
    public var order: ElementOrder
    /// The width whose frames are queried; nil for the first.
    public var width: Double?

    public init(layout: String, rect: Rect, order: ElementOrder = .document, width: Double? = nil) {
        self.layout = layout
        self.rect = rect
        self.order = order
        self.width = width
    }
}

/// A decoded change to one layout: a single request or a batch, as engine commands.
public struct LayoutChange: Sendable {
    public var id: RequestID
    public var isNotification: Bool
    public var layout: String
    public var commands: [LayoutCommand]
    /// The requests as the `layout.changed` event repeats them.
    public var ops: AppliedOps
    public var wantsDiff: Bool
    /// The scroll anchor the request named (indices before it): its result and event say where that item went.
    public var anchor: ItemPath?
    /// The viewport the request's diff is scoped to (before the change); nil for the full diff.
    public var viewport: Viewport?
    /// The width whose diff, content size and anchor the result gives (a width of the layout after the change); nil
    /// for the first.
    public var width: Double?

    public init(
        id: RequestID, isNotification: Bool, layout: String, commands: [LayoutCommand], ops: AppliedOps,
        wantsDiff: Bool, anchor: ItemPath? = nil, viewport: Viewport? = nil, width: Double? = nil
    ) {
        self.width = width
        self.id = id
        self.isNotification = isNotification
        self.layout = layout
        self.commands = commands
        self.ops = ops
        self.wantsDiff = wantsDiff
        self.anchor = anchor
        self.viewport = viewport
    }
}

/// The requests a change applied, as its `layout.changed` event repeats them.
public enum AppliedOps: Sendable {
    /// One request: its method and its params, verbatim.
    case single(method: ChangeMethod, params: ArraySlice<UInt8>)
    /// A batch: its `ops` array, verbatim.
    case batch(ArraySlice<UInt8>)

    public var isBatch: Bool {
        if case .batch = self { true } else { false }
    }

    /// The method of the request.
    public var method: Method {
        switch self {
        case .single(let method, _): .change(method)
        case .batch: .batch
        }
    }
}
