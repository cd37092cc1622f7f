import WaterfallModel

/// One request's method with its params decoded and checked: the daemon's one dispatch, a case per method other
/// than the changes, each holding its declared request (`DeclaredMethod`).
///
/// The changes to an existing layout (the batchable methods and `batch`) are not here: they are
/// `DecodedRequest.change`, since they run another way, as commands applied to one layout, a run of them to the same
/// layout in one visit.
package enum MethodCall: Sendable {
    case ping
    case version
    indirect case layoutCreate(LayoutCreateRequest)
    case layoutDrop(LayoutDropRequest)
    case layoutList
    case layoutGet(LayoutGetRequest)
    case layoutExport(LayoutExportRequest)
    indirect case layoutCSS(StylesheetRequest)
    case query(QueryRequest)
    case neighbors(NeighborsRequest)
    case itemsGet(ItemsGetRequest)
    case subscribe(SubscribeRequest)
    case unsubscribe(UnsubscribeRequest)
    case stats
    case metrics
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
        case .itemsGet: .itemsGet
        case .subscribe: .subscribe
        case .unsubscribe: .unsubscribe
        case .stats: .stats
        case .metrics: .metrics
        case .rpcDiscover: .rpcDiscover
        }
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

    @inlinable
    package var isBatch: Bool {
        if case .batch = self { true } else { false }
    }

    /// The method of the request.
    ///
    /// Inlinable: the daemon counts every change by its method, and a call into this module on a change read in
    /// place copied the whole ops value first.
    @inlinable
    package var method: Method {
        switch self {
        case .single(let method, _): .change(method)
        case .batch: .batch
        }
    }
}
