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
    case sectionsInsert = "sections.insert"
    case sectionsDelete = "sections.delete"
    case sectionsMove = "sections.move"
    case sectionsConfigure = "sections.configure"
    case itemsInsert = "items.insert"
    case itemsDelete = "items.delete"
    case itemsUpdate = "items.update"
    case itemsMove = "items.move"
    case batch
    case query
    case subscribe
    case unsubscribe
    case stats

    /// The method named `name`, by a hash lookup rather than the synthesized comparison with every case in turn.
    public static func named(_ name: String) -> Method? { byName[name] }

    /// The method a JSON string names, compared on its bytes (lengths first) without making a String.
    public static func named(_ node: JSONNode) -> Method? {
        for (name, method) in staticNames where node.isEqual(toKey: name) { return method }
        return nil
    }

    private static let byName = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    private static let staticNames: [(StaticString, Method)] = [
        ("items.update", .itemsUpdate), ("items.insert", .itemsInsert), ("ping", .ping), ("query", .query),
        ("items.delete", .itemsDelete), ("items.move", .itemsMove), ("batch", .batch), ("layout.get", .layoutGet),
        ("layout.create", .layoutCreate), ("layout.configure", .layoutConfigure), ("layout.drop", .layoutDrop),
        ("layout.list", .layoutList), ("sections.insert", .sectionsInsert), ("sections.delete", .sectionsDelete),
        ("sections.move", .sectionsMove), ("sections.configure", .sectionsConfigure), ("subscribe", .subscribe),
        ("unsubscribe", .unsubscribe), ("stats", .stats), ("version", .version),
    ]

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
