/// How the frames moved in one change, in the index space after it (the Diffs article).
///
/// Sections that only moved are not listed one by one: each maximal run of consecutive sections whose origin moved
/// by the same `dy`, and nothing else about them, is one entry of `shifts`. A diff's size is then proportional to
/// what changed: growing section 0 of a thousand lists section 0 and one shift.
public struct LayoutDiff: Sendable, Hashable {
    /// The sections that are new or changed in more than their origin, ascending.
    public var sections: [SectionDiff]
    /// The runs of sections that only moved, ascending and disjoint from `sections`.
    public var shifts: [SectionShift]
    /// How the diff maps to the screen: `identity` while it is in flow coordinates (as the engine makes it), a
    /// horizontal mapping once `ScreenMapping.diff` put it on screen (its wire names then apply: `dx`, `width`…).
    public var screen: ScreenMapping

    public init(sections: [SectionDiff] = [], shifts: [SectionShift] = [], screen: ScreenMapping = .identity) {
        self.sections = sections
        self.shifts = shifts
        self.screen = screen
    }
}

/// A run of consecutive sections, `from` through `to` inclusive, whose origins moved by `dy` and nothing else.
public struct SectionShift: Sendable, Hashable {
    public var from: Int
    public var to: Int
    /// How far each section of the run moved; never 0.
    public var dy: Double

    @inlinable
    public init(from: Int, to: Int, dy: Double) {
        self.from = from
        self.to = to
        self.dy = dy
    }
}

/// One listed section of a diff.
public struct SectionDiff: Sendable, Hashable {
    public var section: Int
    public var origin: Double
    public var height: Double
    public var count: Int
    /// How far an existing section's origin moved; 0 for none (and for new sections).
    public var dy: Double
    public var isNew: Bool
    public var header: FrameChange
    /// The `pinMaxY` of a header that is `set` and pinned (absolute); nil otherwise.
    public var pinMaxY: Double?
    public var footer: FrameChange
    public var items: [ItemFrame]

    public init(
        section: Int, origin: Double, height: Double, count: Int, dy: Double = 0, isNew: Bool = false,
        header: FrameChange = .unchanged, pinMaxY: Double? = nil, footer: FrameChange = .unchanged,
        items: [ItemFrame] = []
    ) {
        self.section = section
        self.origin = origin
        self.height = height
        self.count = count
        self.dy = dy
        self.isNew = isNew
        self.header = header
        self.pinMaxY = pinMaxY
        self.footer = footer
        self.items = items
    }
}

/// Whether a header or footer changed, and to what.
public enum FrameChange: Sendable, Hashable {
    case unchanged
    case set(Rect)
    /// It existed and is gone.
    case removed
}

/// An item's absolute frame and id.
public struct ItemFrame: Sendable, Hashable {
    public var index: Int
    public var frame: Rect
    public var id: String?

    @inlinable
    public init(index: Int, frame: Rect, id: String? = nil) {
        self.index = index
        self.frame = frame
        self.id = id
    }
}

/// An element of a query result.
public struct Element: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case header
        case item
        case footer
        /// A fixed rectangle of its section (the Geometry article, "Stamps"); `index` is its index in `stamps`.
        case stamp
    }

    public var kind: Kind
    public var section: Int
    /// The item index, or the stamp's; nil for headers and footers.
    public var index: Int?
    public var frame: Rect
    public var id: String?
    /// A pinned header placed away from its resting y (the Geometry article, "Pinned headers").
    public var pinned: Bool

    @inlinable
    public init(kind: Kind, section: Int, index: Int?, frame: Rect, id: String?, pinned: Bool = false) {
        self.kind = kind
        self.section = section
        self.index = index
        self.frame = frame
        self.id = id
        self.pinned = pinned
    }
}
