/// A section's own settings; nil means unset (the layout's defaults, then the built-in default, apply).
///
/// Each property is described once in `SectionProperty.all` (wire key, kind, built-in default, storage bit): a new
/// property is a field here and in `SectionPatch`, and a row there.
public struct SectionProperties: Sendable, Hashable {
    public var columns: Int?
    public var minColumnWidth: Double?
    public var maxColumns: Int?
    public var columnSpacing: Double?
    public var rowSpacing: Double?
    public var insets: Insets?
    public var headerHeight: Double?
    public var footerHeight: Double?
    public var headerInsets: Insets?
    public var footerInsets: Insets?
    public var placement: Placement?
    public var tolerance: Double?
    public var tieBreak: TieBreak?
    public var pinHeader: Bool?
    public var reflow: Reflow?
    public var spanPlacement: SpanPlacement?
    /// Fixed rectangles the items flow around (the Geometry article, "Stamps").
    public var stamps: [Stamp]?
    /// Relative widths, one per column (Geometry, "Columns of different widths"); nil: equal columns.
    public var columnWidths: [Double]?
    public var lookahead: Lookahead?

    public init(
        columns: Int? = nil,
        minColumnWidth: Double? = nil,
        maxColumns: Int? = nil,
        columnSpacing: Double? = nil,
        rowSpacing: Double? = nil,
        insets: Insets? = nil,
        headerHeight: Double? = nil,
        footerHeight: Double? = nil,
        headerInsets: Insets? = nil,
        footerInsets: Insets? = nil,
        placement: Placement? = nil,
        tolerance: Double? = nil,
        tieBreak: TieBreak? = nil,
        pinHeader: Bool? = nil,
        reflow: Reflow? = nil,
        spanPlacement: SpanPlacement? = nil,
        stamps: [Stamp]? = nil,
        columnWidths: [Double]? = nil,
        lookahead: Lookahead? = nil
    ) {
        self.columns = columns
        self.minColumnWidth = minColumnWidth
        self.maxColumns = maxColumns
        self.columnSpacing = columnSpacing
        self.rowSpacing = rowSpacing
        self.insets = insets
        self.headerHeight = headerHeight
        self.footerHeight = footerHeight
        self.headerInsets = headerInsets
        self.footerInsets = footerInsets
        self.placement = placement
        self.tolerance = tolerance
        self.tieBreak = tieBreak
        self.pinHeader = pinHeader
        self.reflow = reflow
        self.spanPlacement = spanPlacement
        self.stamps = stamps
        self.columnWidths = columnWidths
        self.lookahead = lookahead
    }
}

/// A change to one property: set it, or reset it to unset.
public enum PropertyChange<Value: Sendable & Hashable>: Sendable, Hashable {
    case set(Value)
    case reset
}

/// The properties a `sections.configure` names; nil fields are kept.
public struct SectionPatch: Sendable, Hashable {
    public var columns: PropertyChange<Int>?
    public var minColumnWidth: PropertyChange<Double>?
    public var maxColumns: PropertyChange<Int>?
    public var columnSpacing: PropertyChange<Double>?
    public var rowSpacing: PropertyChange<Double>?
    public var insets: PropertyChange<Insets>?
    public var headerHeight: PropertyChange<Double>?
    public var footerHeight: PropertyChange<Double>?
    public var headerInsets: PropertyChange<Insets>?
    public var footerInsets: PropertyChange<Insets>?
    public var placement: PropertyChange<Placement>?
    public var tolerance: PropertyChange<Double>?
    public var tieBreak: PropertyChange<TieBreak>?
    public var pinHeader: PropertyChange<Bool>?
    public var reflow: PropertyChange<Reflow>?
    public var spanPlacement: PropertyChange<SpanPlacement>?
    public var stamps: PropertyChange<[Stamp]>?
    public var columnWidths: PropertyChange<[Double]>?
    public var lookahead: PropertyChange<Lookahead>?

    public init() {}
}

/// A new section: its own properties and its items.
public struct SectionSpec: Sendable, Hashable {
    public var properties: SectionProperties
    public var items: [Item]

    public init(properties: SectionProperties = SectionProperties(), items: [Item] = []) {
        self.properties = properties
        self.items = items
    }
}

/// The layout-wide settings a `layout.configure` names; nil fields are kept.
public struct LayoutPatch: Sendable, Hashable {
    /// One width: the same as `widths` of one (a patch sets at most one of the two).
    public var width: Double?
    /// The widths the layout is laid out at, the first the default of every method that returns frames.
    public var widths: [Double]?
    public var scale: Double?
    public var direction: Direction?
    public var axis: Axis?
    public var minContentHeight: Double?
    /// Replaces the defaults as a whole.
    public var defaults: SectionProperties?

    public init(
        width: Double? = nil,
        widths: [Double]? = nil,
        scale: Double? = nil,
        direction: Direction? = nil,
        axis: Axis? = nil,
        minContentHeight: Double? = nil,
        defaults: SectionProperties? = nil
    ) {
        self.width = width
        self.widths = widths
        self.scale = scale
        self.direction = direction
        self.axis = axis
        self.minContentHeight = minContentHeight
        self.defaults = defaults
    }

    /// The widths the patch sets, `width` as a list of one; nil when it sets none.
    public var resolvedWidths: [Double]? { widths ?? width.map { [$0] } }
}

/// Everything `layout.create` takes.
public struct LayoutSpec: Sendable, Hashable {
    /// The widths the layout is laid out at (1–16, distinct), the first the default of every method that returns
    /// frames.
    public var widths: [Double]
    public var scale: Double
    public var direction: Direction
    public var axis: Axis
    public var minContentHeight: Double
    public var defaults: SectionProperties
    public var sections: [SectionSpec]

    public init(
        width: Double,
        scale: Double = 0,
        direction: Direction = .ltr,
        axis: Axis = .vertical,
        minContentHeight: Double = 0,
        defaults: SectionProperties = SectionProperties(),
        sections: [SectionSpec] = []
    ) {
        widths = [width]
        self.scale = scale
        self.direction = direction
        self.axis = axis
        self.minContentHeight = minContentHeight
        self.defaults = defaults
        self.sections = sections
    }

    /// The first width; setting it leaves that one width.
    public var width: Double {
        get { widths.first ?? 0 }
        set { widths = [newValue] }
    }
}
