/// How a section fills the holes spans leave (the Geometry article, "Gaps filled by lookahead"): its items are placed
/// in windows of `items` by index, each in the order, of the first `limit` in lexicographic order, that leaves least
/// whitespace.
public struct Lookahead: Sendable, Hashable {
    /// The most items a window holds.
    public static let maxItems = 8
    /// The most orders weighed per window: every order of a window of `maxItems` (8!).
    public static let maxLimit = 40320
    /// The default: windows of one item, which place as without lookahead.
    public static let off = Lookahead(items: 1, limit: 1)

    /// The items per window, 1…8.
    public var items: Int
    /// The most orders weighed per window, 1…40320.
    public var limit: Int

    public init(items: Int, limit: Int) {
        self.items = items
        self.limit = limit
    }

    /// Whether an order other than the items' own can win: windows of more than one item, more than one order
    /// weighed.
    public var isActive: Bool { items > 1 && limit > 1 }
}

extension SectionSpec {
    /// Whether the section places its items with lookahead, its own or the defaults'.
    package func usesLookahead(defaults: SectionProperties) -> Bool {
        (properties.lookahead ?? defaults.lookahead)?.isActive == true
    }
}

extension SectionProperties {
    /// Why a section of these properties over `defaults` cannot have its lookahead (the Geometry article, "Gaps
    /// filled by lookahead"), or nil when it can or has none.
    package func lookaheadConflict(defaults: SectionProperties) -> String? {
        typealias P = SectionPropertyTable
        guard P.lookahead.resolve(self, defaults).isActive else { return nil }
        if P.placement.resolve(self, defaults) == .next {
            return "cannot go with placement \"next\": round robin ignores the heights, so no order fills a hole"
        }
        if P.tieBreak.resolve(self, defaults) == .cursor {
            return "cannot go with tieBreak \"cursor\": the cursor follows index order, which lookahead gives up"
        }
        if P.reflow.resolve(self, defaults) == .stable {
            return "cannot go with reflow \"stable\": an item keeps its column, which a later order could not keep"
        }
        if !P.stamps.resolve(self, defaults).isEmpty {
            return "cannot go with stamps: the orders are weighed on columns that stamps would interrupt"
        }
        if (columnWidths ?? defaults.columnWidths) != nil {
            return "cannot go with columnWidths: the orders are weighed on columns of equal width"
        }
        return nil
    }
}
