@_spi(Package) import WaterfallJSON

/// The methods of the protocol: the nine that change an existing layout, each one engine command (`ChangeMethod`,
/// also what a `batch` may hold), `batch`, and the others.
///
/// The changes are one case, so that the compiler holds every switch to the one list of them: decoding a change, a
/// batch's op and an event's ops all take a `ChangeMethod`, and no run-time "not a change" branch is left.
public enum Method: Hashable, Sendable {
    case change(ChangeMethod)
    case batch
    case ping
    case version
    case layoutCreate
    case layoutDrop
    case layoutList
    case layoutGet
    case layoutExport
    case layoutCSS
    case query
    case itemsNeighbors
    case itemsGet
    case subscribe
    case unsubscribe
    case stats
    case metrics
    /// `rpc.discover`: the OpenRPC document of the protocol.
    case rpcDiscover
}

/// The methods that change an existing layout, one engine command each: the ones a `batch` may hold.
public enum ChangeMethod: String, Sendable, CaseIterable {
    case layoutConfigure = "layout.configure"
    case sectionsInsert = "sections.insert"
    case sectionsDelete = "sections.delete"
    case sectionsMove = "sections.move"
    case sectionsConfigure = "sections.configure"
    case itemsInsert = "items.insert"
    case itemsDelete = "items.delete"
    case itemsUpdate = "items.update"
    case itemsMove = "items.move"
}

extension Method {
    /// Whether two methods are the same case. Written out: as a `RawRepresentable` type, `Method` would otherwise be
    /// compared by its names, two strings, and the daemon compares each request's method with the last one counted.
    @inlinable
    public static func == (lhs: Method, rhs: Method) -> Bool {
        switch (lhs, rhs) {
        case (.change(let a), .change(let b)): a == b
        case (.batch, .batch), (.ping, .ping), (.version, .version), (.layoutCreate, .layoutCreate),
            (.layoutDrop, .layoutDrop), (.layoutList, .layoutList), (.layoutGet, .layoutGet),
            (.layoutExport, .layoutExport), (.layoutCSS, .layoutCSS), (.query, .query),
            (.itemsNeighbors, .itemsNeighbors), (.itemsGet, .itemsGet), (.subscribe, .subscribe),
            (.unsubscribe, .unsubscribe), (.stats, .stats), (.metrics, .metrics), (.rpcDiscover, .rpcDiscover):
            true
        default: false
        }
    }
}

extension Method: RawRepresentable, CaseIterable {
    public init?(rawValue: String) {
        guard let method = Self.byName[rawValue] else { return nil }
        self = method
    }

    /// The wire name.
    ///
    /// A switch, never a comparison: `RawRepresentable` brings an `==` that compares raw values, which here would
    /// call this again.
    public var rawValue: String {
        switch self {
        case .change(let change): change.rawValue
        case .batch: "batch"
        case .ping: "ping"
        case .version: "version"
        case .layoutCreate: "layout.create"
        case .layoutDrop: "layout.drop"
        case .layoutList: "layout.list"
        case .layoutGet: "layout.get"
        case .layoutExport: "layout.export"
        case .layoutCSS: "layout.css"
        case .query: "query"
        case .itemsNeighbors: "items.neighbors"
        case .itemsGet: "items.get"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .stats: "stats"
        case .metrics: "metrics"
        case .rpcDiscover: "rpc.discover"
        }
    }

    public static let allCases: [Method] =
        [
            .batch, .ping, .version, .layoutCreate, .layoutDrop, .layoutList, .layoutGet, .layoutExport, .layoutCSS,
            .query, .itemsNeighbors, .itemsGet,
            .subscribe, .unsubscribe, .stats, .metrics, .rpcDiscover,
        ] + ChangeMethod.allCases.map(Method.change)

    /// The method named `name`, by a hash lookup rather than the synthesized comparison with every case in turn.
    package static func named(_ name: String) -> Method? { byName[name] }

    /// The method a JSON string names, compared on its bytes (lengths first) without making a String.
    package static func named(_ node: JSONNode) -> Method? {
        node.withView { named($0) }
    }

    /// The method a JSON string names, compared on its bytes without making a String.
    ///
    /// Dispatched on the length first, so a name is compared with at most three constant names rather than looping
    /// over a table of all twenty (whose access and retain cost more than the comparisons); inlined into the
    /// request reader, its one hot caller.
    @inline(__always)
    package static func named(_ view: JSONView) -> Method? {
        guard view.kind == .string else { return nil }
        switch view.rawBytes.count &- 2 {
        case 4: if view.isEqual(toKey: "ping") { return .ping }
        case 5:
            if view.isEqual(toKey: "batch") { return .batch }
            if view.isEqual(toKey: "query") { return .query }
            if view.isEqual(toKey: "stats") { return .stats }
        case 7:
            if view.isEqual(toKey: "version") { return .version }
            if view.isEqual(toKey: "metrics") { return .metrics }
        case 9:
            if view.isEqual(toKey: "subscribe") { return .subscribe }
            if view.isEqual(toKey: "items.get") { return .itemsGet }
        case 10:
            if view.isEqual(toKey: "items.move") { return .change(.itemsMove) }
            if view.isEqual(toKey: "layout.get") { return .layoutGet }
            if view.isEqual(toKey: "layout.css") { return .layoutCSS }
        case 11:
            if view.isEqual(toKey: "layout.drop") { return .layoutDrop }
            if view.isEqual(toKey: "layout.list") { return .layoutList }
            if view.isEqual(toKey: "unsubscribe") { return .unsubscribe }
        case 12:
            if view.isEqual(toKey: "items.update") { return .change(.itemsUpdate) }
            if view.isEqual(toKey: "items.insert") { return .change(.itemsInsert) }
            if view.isEqual(toKey: "items.delete") { return .change(.itemsDelete) }
            if view.isEqual(toKey: "rpc.discover") { return .rpcDiscover }
        case 13:
            if view.isEqual(toKey: "layout.create") { return .layoutCreate }
            if view.isEqual(toKey: "layout.export") { return .layoutExport }
            if view.isEqual(toKey: "sections.move") { return .change(.sectionsMove) }
        case 15:
            if view.isEqual(toKey: "sections.insert") { return .change(.sectionsInsert) }
            if view.isEqual(toKey: "sections.delete") { return .change(.sectionsDelete) }
            if view.isEqual(toKey: "items.neighbors") { return .itemsNeighbors }
        case 16: if view.isEqual(toKey: "layout.configure") { return .change(.layoutConfigure) }
        case 18: if view.isEqual(toKey: "sections.configure") { return .change(.sectionsConfigure) }
        default: break
        }
        // A name written with escapes has another raw length: decode it (rare).
        guard view.rawBytes.contains(UInt8(ascii: "\\")) else { return nil }
        return view.string.flatMap(named)
    }

    /// The declared request of a method other than the changes and `batch` (`DeclaredMethod`); nil for those.
    package var requestType: (any DeclaredMethod.Type)? {
        switch self {
        case .change, .batch: nil
        case .ping: PingRequest.self
        case .version: VersionRequest.self
        case .layoutCreate: LayoutCreateRequest.self
        case .layoutDrop: LayoutDropRequest.self
        case .layoutList: LayoutListRequest.self
        case .layoutGet: LayoutGetRequest.self
        case .layoutExport: LayoutExportRequest.self
        case .layoutCSS: StylesheetRequest.self
        case .query: QueryRequest.self
        case .itemsNeighbors: NeighborsRequest.self
        case .itemsGet: ItemsGetRequest.self
        case .subscribe: SubscribeRequest.self
        case .unsubscribe: UnsubscribeRequest.self
        case .stats: StatsRequest.self
        case .metrics: MetricsRequest.self
        case .rpcDiscover: DiscoverRequest.self
        }
    }

    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
}
