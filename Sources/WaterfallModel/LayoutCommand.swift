/// The position of an item: its section and its index in that section.
public struct ItemPath: Sendable, Hashable {
    public var section: Int
    public var item: Int

    public init(section: Int, item: Int) {
        self.section = section
        self.item = item
    }
}

/// One change to a layout; a list of them is applied atomically.
///
/// The two configure cases are `indirect`: their patches, inline, made every command 290 bytes, and each copy of
/// the common ones (a request's path copies a command five or six times) a `memcpy` of that size. Boxed, a command
/// is 33 bytes, and only a configure command allocates.
public enum LayoutCommand: Sendable, Hashable {
    case insertItems(section: Int, at: Int, items: ItemList)
    /// Indices are those before the delete.
    case deleteItems(section: Int, indices: [Int])
    /// Each update replaces the whole item at its index.
    case updateItems(section: Int, updates: [ItemUpdate])
    case moveItem(from: ItemPath, to: ItemPath)
    case insertSections(at: Int, sections: [SectionSpec])
    /// Indices are those before the delete.
    case deleteSections([Int])
    case moveSection(from: Int, to: Int)
    indirect case configureSection(Int, SectionPatch)
    indirect case configureLayout(LayoutPatch)
}

extension LayoutCommand {
    /// How many items the command adds at most (moves and updates add none).
    ///
    /// Inlinable, as `addedWeight`: the daemon asks it of every change it admits, and an opaque getter copies the
    /// command to ask.
    @inlinable
    public var addedItems: Int {
        switch self {
        case .insertItems(_, _, let items): return items.count
        case .insertSections(_, let sections): return sections.reduce(0) { $0 + $1.items.count }
        default: return 0
        }
    }
}

extension LayoutCommand {
    /// What the command adds to a layout's weight (see `Layout.weight`) before columns: its items and sections.
    /// A caller reserves this from a shared budget before applying the command and settles the exact weight,
    /// columns included, after (reserving every section at the widest allowed would refuse small budgets).
    @inlinable
    public var addedWeight: Int {
        switch self {
        case .insertSections(_, let sections): return addedItems + sections.count
        default: return addedItems
        }
    }
}

/// The replacement of the item at `index`.
public struct ItemUpdate: Sendable, Hashable {
    public var index: Int
    public var item: Item

    @inlinable
    public init(index: Int, item: Item) {
        self.index = index
        self.item = item
    }
}

/// Resource bounds the engine enforces while validating a command.
public struct LayoutLimits: Sendable, Hashable {
    public var maxItems: Int
    public var maxSections: Int
    public var maxColumns: Int

    public static let `default` = LayoutLimits(maxItems: 10_000_000, maxSections: 100_000, maxColumns: 1024)

    public init(maxItems: Int, maxSections: Int, maxColumns: Int) {
        self.maxItems = maxItems
        self.maxSections = maxSections
        self.maxColumns = maxColumns
    }
}

extension LayoutCommand {
    /// Where section `s` (an index before this command) is after it; nil when the command deletes it.
    public func movedIndex(ofSection s: Int) -> Int? {
        var section = s
        switch self {
        case .insertSections(let at, let specs):
            if section >= at { section += specs.count }
        case .deleteSections(let indices):
            if indices.contains(section) { return nil }
            section -= indices.count { $0 < section }
        case .moveSection(let from, let to):
            if from == section {
                section = to
            } else {
                if from < section { section -= 1 }
                if to <= section { section += 1 }
            }
        default:
            break
        }
        return section
    }
}
