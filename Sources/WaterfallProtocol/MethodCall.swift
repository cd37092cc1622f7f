import WaterfallLayout

/// One request's method with its params decoded and checked: what the server runs, one case per method.
///
/// The changes to an existing layout (the batchable methods and `batch`) are not here: they are
/// `DecodedRequest.change`, since they run another way, as commands applied to one layout, a run of them to the same
/// layout in one visit.
///
/// `layoutCreate` is boxed: a `LayoutSpec` holds the default section properties inline (a few hundred bytes), and
/// every request of a read, the most frequent small ones included, would be that large and copied as such.
package enum MethodCall: Sendable {
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
    package var method: Method {
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
package struct LayoutCreation: Sendable {
    package var layout: String
    package var replace: Bool
    package var wantsDiff: Bool
    package var spec: LayoutSpec

    package init(layout: String, replace: Bool, wantsDiff: Bool, spec: LayoutSpec) {
        self.layout = layout
        self.replace = replace
        self.wantsDiff = wantsDiff
        self.spec = spec
    }
}

/// The params of `layout.get`: the sections to list (nil: all of them, in order).
package struct LayoutListing: Sendable {
    package var layout: String
    package var sections: [Int]?
    /// The width whose frames are listed; nil for the first.
    package var width: Double?

    package init(layout: String, sections: [Int]?, width: Double? = nil) {
        self.layout = layout
        self.sections = sections
        self.width = width
    }
}

/// The params of `query`: a rect whose `w` and `h` are ≥ 0, and the order of its elements.
package struct LayoutQuery: Sendable {
    package var layout: String
    package var rect: Rect
    package var order: ElementOrder
    /// The width whose frames are queried; nil for the first.
    package var width: Double?

    package init(layout: String, rect: Rect, order: ElementOrder = .document, width: Double? = nil) {
        self.layout = layout
        self.rect = rect
        self.order = order
        self.width = width
    }
}

/// A decoded change to one layout: a single request or a batch, as engine commands.
package struct LayoutChange: Sendable {
    package var id: RequestID
    package var isNotification: Bool
    package var layout: String
    package var commands: [LayoutCommand]
    /// The requests as the `layout.changed` event repeats them.
    package var ops: AppliedOps
    package var wantsDiff: Bool
    /// The scroll anchor the request named (indices before it): its result and event say where that item went.
    package var anchor: ItemPath?
    /// The viewport the request's diff is scoped to (before the change); nil for the full diff.
    package var viewport: Viewport?
    /// The width whose diff, content size and anchor the result gives (a width of the layout after the change); nil
    /// for the first.
    package var width: Double?

    package init(
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
package enum AppliedOps: Sendable {
    /// One request: its method and its params, verbatim.
    case single(method: ChangeMethod, params: ArraySlice<UInt8>)
    /// A batch: its `ops` array, verbatim.
    case batch(ArraySlice<UInt8>)

    package var isBatch: Bool {
        if case .batch = self { true } else { false }
    }

    /// The method of the request.
    package var method: Method {
        switch self {
        case .single(let method, _): .change(method)
        case .batch: .batch
        }
    }
}
