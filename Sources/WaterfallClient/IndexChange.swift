import WaterfallJSON
import WaterfallLayout

/// What a request does to the indices of sections and items, which a client replays on the frames it holds
/// before applying the request's diff (new sections and items are unknown until the diff fills them).
///
/// `items.update` also carries the new ids: an update whose frame did not change is not listed in the diff, even
/// when its id changed.
public enum IndexChange: Sendable, Hashable {
    case insertItems(section: Int, at: Int, count: Int)
    /// Indices are those before the delete.
    case deleteItems(section: Int, indices: [Int])
    case updateItems(section: Int, ids: [ItemID])
    case moveItem(from: ItemPath, to: ItemPath)
    /// The item count of each new section.
    case insertSections(at: Int, counts: [Int])
    /// Indices are those before the delete.
    case deleteSections([Int])
    case moveSection(from: Int, to: Int)

    // MARK: Lifecycle

    /// The change `command` makes to indices; nil for commands that change none (configure).
    public init?(_ command: LayoutCommand) {
        switch command {
        case .insertItems(let section, let at, let items):
            self = .insertItems(section: section, at: at, count: items.count)
        case .deleteItems(let section, let indices): self = .deleteItems(section: section, indices: indices)
        case .updateItems(let section, let updates):
            self = .updateItems(section: section, ids: updates.map { ItemID(index: $0.index, id: $0.item.id) })
        case .moveItem(let from, let to): self = .moveItem(from: from, to: to)
        case .insertSections(let at, let sections): self = .insertSections(at: at, counts: sections.map(\.items.count))
        case .deleteSections(let indices): self = .deleteSections(indices)
        case .moveSection(let from, let to): self = .moveSection(from: from, to: to)
        case .configureSection, .configureLayout: return nil
        }
    }

    // MARK: Public

    /// The changes of requests as a `layout.changed` event repeats them (a `batch` stands for its ops).
    public static func changes(of ops: [Operation]) throws(FrameModelError) -> [IndexChange] {
        var changes: [IndexChange] = []
        for (k, op) in ops.enumerated() {
            try append(op.method, op.params, "ops[\(k)]", to: &changes)
        }
        return changes
    }

    /// The changes of one request, by its method and params.
    public static func changes(method: String, params: JSONValue) throws(FrameModelError) -> [IndexChange] {
        var changes: [IndexChange] = []
        try append(method, params, "params", to: &changes)
        return changes
    }

    // MARK: Private

    private static func append(
        _ method: String, _ p: JSONValue, _ path: String, to changes: inout [IndexChange]
    ) throws(FrameModelError) {
        func int(_ key: String) throws(FrameModelError) -> Int {
            guard case .int(let n)? = p[key] else { throw .unreadable("\(path).\(key): not an integer") }
            return Int(n)
        }
        func array(_ key: String) throws(FrameModelError) -> [JSONValue] {
            guard case .array(let elements)? = p[key] else { throw .unreadable("\(path).\(key): not an array") }
            return elements
        }
        func indices(_ key: String) throws(FrameModelError) -> [Int] {
            try array(key).map { value throws(FrameModelError) in
                guard case .int(let n) = value else { throw .unreadable("\(path).\(key): \(value) is not an index") }
                return Int(n)
            }
        }
        func itemPath(_ key: String) throws(FrameModelError) -> ItemPath {
            guard case .array(let pair)? = p[key], pair.count == 2, case .int(let s) = pair[0],
                case .int(let i) = pair[1]
            else { throw .unreadable("\(path).\(key): not [section, item]") }
            return ItemPath(section: Int(s), item: Int(i))
        }
        switch method {
        case "items.insert":
            changes.append(
                .insertItems(section: try int("section"), at: try int("at"), count: try array("items").count))
        case "items.delete":
            changes.append(.deleteItems(section: try int("section"), indices: try indices("items")))
        case "items.update":
            let ids = try array("items").map { item throws(FrameModelError) -> ItemID in
                guard case .int(let i)? = item["i"] else { throw .unreadable("\(path).items: an update without i") }
                if case .string(let id)? = item["id"] { return ItemID(index: Int(i), id: id) }
                return ItemID(index: Int(i), id: nil)
            }
            changes.append(.updateItems(section: try int("section"), ids: ids))
        case "items.move":
            changes.append(.moveItem(from: try itemPath("from"), to: try itemPath("to")))
        case "sections.insert":
            let counts = try array("sections").map { section -> Int in
                if case .array(let items)? = section["items"] { return items.count }
                return 0
            }
            changes.append(.insertSections(at: try int("at"), counts: counts))
        case "sections.delete":
            changes.append(.deleteSections(try indices("sections")))
        case "sections.move":
            changes.append(.moveSection(from: try int("from"), to: try int("to")))
        case "batch":
            for (k, op) in try array("ops").enumerated() {
                guard case .string(let name)? = op["method"] else { throw .unreadable("\(path).ops[\(k)]: no method") }
                try append(name, op["params"] ?? .object([]), "\(path).ops[\(k)].params", to: &changes)
            }
        default:
            // layout.create, layout.configure, sections.configure: no index moves.
            break
        }
    }
}

/// An item's index and the id an update gives it (nil: none).
public struct ItemID: Sendable, Hashable {
    public var index: Int
    public var id: String?

    public init(index: Int, id: String?) {
        self.index = index
        self.id = id
    }
}
