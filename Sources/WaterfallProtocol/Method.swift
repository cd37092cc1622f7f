import WaterfallJSON

/// The methods of PROTOCOL.md.
public enum Method: String, Sendable, CaseIterable {
    case ping
    case version
    case layoutCreate = "layout.create"
    case layoutConfigure = "layout.configure"
    case layoutDrop = "layout.drop"
    case layoutList = "layout.list"
    case layoutGet = "layout.get"
    case layoutExport = "layout.export"
    case sectionsInsert = "sections.insert"
    case sectionsDelete = "sections.delete"
    case sectionsMove = "sections.move"
    case sectionsConfigure = "sections.configure"
    case itemsInsert = "items.insert"
    case itemsDelete = "items.delete"
    case itemsUpdate = "items.update"
    case itemsMove = "items.move"
    case itemsNeighbors = "items.neighbors"
    case batch
    case query
    case subscribe
    case unsubscribe
    case stats

    /// The method named `name`, by a hash lookup rather than the synthesized comparison with every case in turn.
    public static func named(_ name: String) -> Method? { byName[name] }

    /// The method a JSON string names, compared on its bytes (lengths first) without making a String.
    public static func named(_ node: JSONNode) -> Method? {
        node.withView { named($0) }
    }

    /// The method a JSON string names, compared on its bytes without making a String.
    ///
    /// Dispatched on the length first, so a name is compared with at most three constant names (a loop over a table
    /// of all twenty cost ~13 ns per request, mostly the table's access and retain); inlined into the request
    /// reader, its one hot caller, it saves ~10 ns more.
    @inline(__always)
    public static func named(_ view: JSONView) -> Method? {
        guard view.kind == .string else { return nil }
        switch view.rawBytes.count &- 2 {
        case 4: if view.isEqual(toKey: "ping") { return .ping }
        case 5:
            if view.isEqual(toKey: "batch") { return .batch }
            if view.isEqual(toKey: "query") { return .query }
            if view.isEqual(toKey: "stats") { return .stats }
        case 7: if view.isEqual(toKey: "version") { return .version }
        case 9: if view.isEqual(toKey: "subscribe") { return .subscribe }
        case 10:
            if view.isEqual(toKey: "items.move") { return .itemsMove }
            if view.isEqual(toKey: "layout.get") { return .layoutGet }
        case 11:
            if view.isEqual(toKey: "layout.drop") { return .layoutDrop }
            if view.isEqual(toKey: "layout.list") { return .layoutList }
            if view.isEqual(toKey: "unsubscribe") { return .unsubscribe }
        case 12:
            if view.isEqual(toKey: "items.update") { return .itemsUpdate }
            if view.isEqual(toKey: "items.insert") { return .itemsInsert }
            if view.isEqual(toKey: "items.delete") { return .itemsDelete }
        case 13:
            if view.isEqual(toKey: "layout.create") { return .layoutCreate }
            if view.isEqual(toKey: "layout.export") { return .layoutExport }
            if view.isEqual(toKey: "sections.move") { return .sectionsMove }
        case 15:
            if view.isEqual(toKey: "sections.insert") { return .sectionsInsert }
            if view.isEqual(toKey: "sections.delete") { return .sectionsDelete }
            if view.isEqual(toKey: "items.neighbors") { return .itemsNeighbors }
        case 16: if view.isEqual(toKey: "layout.configure") { return .layoutConfigure }
        case 18: if view.isEqual(toKey: "sections.configure") { return .sectionsConfigure }
        default: break
        }
        // A name written with escapes has another raw length: decode it (rare).
        guard view.rawBytes.contains(UInt8(ascii: "\\")) else { return nil }
        return view.string.flatMap(named)
    }

    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The methods that change an existing layout and can appear in a `batch`.
    public var isBatchable: Bool {
        switch self {
        case .layoutConfigure, .sectionsInsert, .sectionsDelete, .sectionsMove, .sectionsConfigure, .itemsInsert,
            .itemsDelete, .itemsUpdate, .itemsMove:
            return true
        default:
            return false
        }
    }
}
