/// The items of an insert: a list of ``Item``s, kept as bare heights when every item is only a height.
///
/// Most items of a bulk load are `{"h": 120}`: no aspect size, span 1, no id, no kept column. As `Item`s they are 72
/// bytes each (optionals and a string) that the decoder writes, the engine reads back into its 24-byte stored form
/// and the decoder's next request destroys; as heights they are 8 bytes that the engine copies into place. A list
/// reads the same either way: it is a collection of `Item`s, equal to and hashing like an array of the same items.
public struct ItemList: Sendable {
    @usableFromInline
    enum Storage: Sendable {
        case items([Item])
        /// Items that are only their heights.
        case heights([Double])
    }

    @usableFromInline
    var storage: Storage

    /// A list of `items`.
    @inlinable
    public init(_ items: [Item]) {
        storage = .items(items)
    }

    /// A list of items that are only `heights`: `Item(height:)` each.
    @inlinable
    public init(heights: [Double]) {
        storage = .heights(heights)
    }

    /// The heights of the items, when the list holds them bare (every item is only a height); nil otherwise.
    @inlinable
    public var heights: [Double]? {
        if case .heights(let heights) = storage { return heights }
        return nil
    }

    /// The items as an array: the one the list holds, or made from its heights.
    public var array: [Item] {
        switch storage {
        case .items(let items): return items
        case .heights(let heights): return heights.map { Item(height: $0) }
        }
    }

    /// Whether an item has an aspect size (`w`), without making any item.
    public var hasAspectItems: Bool {
        switch storage {
        case .items(let items): return items.contains { $0.aspectWidth != nil }
        case .heights: return false
        }
    }
}

extension ItemList: RandomAccessCollection {
    @inlinable
    public var startIndex: Int { 0 }

    @inlinable
    public var endIndex: Int {
        switch storage {
        case .items(let items): return items.count
        case .heights(let heights): return heights.count
        }
    }

    @inlinable
    public subscript(position: Int) -> Item {
        switch storage {
        case .items(let items): return items[position]
        case .heights(let heights): return Item(height: heights[position])
        }
    }
}

extension ItemList: ExpressibleByArrayLiteral {
    @inlinable
    public init(arrayLiteral items: Item...) {
        self.init(items)
    }
}

extension ItemList: Hashable {
    /// Lists of the same items are equal however they are held.
    public static func == (a: ItemList, b: ItemList) -> Bool {
        switch (a.storage, b.storage) {
        case (.items(let x), .items(let y)): return x == y
        case (.heights(let x), .heights(let y)): return x == y
        default: return a.elementsEqual(b)
        }
    }

    /// Hashes as an array of the same items does, so that equal lists hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for item in self { hasher.combine(item) }
    }
}

extension ItemList: CustomStringConvertible {
    public var description: String { array.description }
}
