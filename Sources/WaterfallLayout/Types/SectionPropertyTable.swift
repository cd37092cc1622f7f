/// Every section property, described once (the Geometry article, "The properties of a section"): decoding, encoding, merging, validation,
/// resolution and the storage format all read this table.
///
/// `all`'s order is the storage format's: property k is bit k of a stored presence mask, so rows are only ever
/// appended. It is also the order of exported section objects and of validation (the first bad field is named).
public enum SectionPropertyTable {
    public static let columns = SectionProperty<Int>("columns", .columns, \.columns, \.columns, builtIn: 2)
    public static let minColumnWidth = SectionProperty<Double>(
        "minColumnWidth", .positiveLength, \.minColumnWidth, \.minColumnWidth)
    public static let maxColumns = SectionProperty<Int>("maxColumns", .count, \.maxColumns, \.maxColumns)
    public static let columnSpacing = SectionProperty<Double>(
        "columnSpacing", .length, \.columnSpacing, \.columnSpacing, builtIn: 10)
    public static let rowSpacing = SectionProperty<Double>(
        "rowSpacing", .length, \.rowSpacing, \.rowSpacing, builtIn: 10)
    public static let insets = SectionProperty<Insets>("insets", .insets, \.insets, \.insets, builtIn: .zero)
    public static let headerHeight = SectionProperty<Double>(
        "headerHeight", .length, \.headerHeight, \.headerHeight, builtIn: 0)
    public static let footerHeight = SectionProperty<Double>(
        "footerHeight", .length, \.footerHeight, \.footerHeight, builtIn: 0)
    public static let headerInsets = SectionProperty<Insets>(
        "headerInsets", .insets, \.headerInsets, \.headerInsets, builtIn: .zero)
    public static let footerInsets = SectionProperty<Insets>(
        "footerInsets", .insets, \.footerInsets, \.footerInsets, builtIn: .zero)
    public static let placement = SectionProperty<Placement>(
        "placement", .placement, \.placement, \.placement, builtIn: .shortest)
    public static let tolerance = SectionProperty<Double>(
        "tolerance", .length, \.tolerance, \.tolerance, builtIn: 0)
    public static let tieBreak = SectionProperty<TieBreak>(
        "tieBreak", .tieBreak, \.tieBreak, \.tieBreak, builtIn: .leftmost)
    public static let pinHeader = SectionProperty<Bool>(
        "pinHeader", .flag, \.pinHeader, \.pinHeader, builtIn: false)
    public static let reflow = SectionProperty<Reflow>("reflow", .reflow, \.reflow, \.reflow, builtIn: .exact)
    public static let spanPlacement = SectionProperty<SpanPlacement>(
        "spanPlacement", .spanPlacement, \.spanPlacement, \.spanPlacement, builtIn: .lowest)
    public static let lookahead = SectionProperty<Lookahead>(
        "lookahead", .lookahead, \.lookahead, \.lookahead, builtIn: .off)

    /// Every property, in storage-bit order (append only).
    public static let all: [AnySectionProperty] = [
        columns.erased, minColumnWidth.erased, maxColumns.erased, columnSpacing.erased, rowSpacing.erased,
        insets.erased, headerHeight.erased, footerHeight.erased, headerInsets.erased, footerInsets.erased,
        placement.erased, tolerance.erased, tieBreak.erased, pinHeader.erased, reflow.erased,
        spanPlacement.erased, lookahead.erased,
    ]

    /// The pairs a section may not set together: "columns or minColumnWidth, not both".
    public static let exclusions: [PropertyExclusion] = [
        PropertyExclusion(kept: columns.erased, refused: minColumnWidth.erased)
    ]
}

extension SectionProperties {
    /// These properties with `patch` applied, unchecked: a set value replaces, a reset unsets, and setting one of an
    /// exclusive pair unsets the other.
    public func merging(_ patch: SectionPatch) -> SectionProperties {
        var result = self
        for property in SectionPropertyTable.all {
            switch property.change(in: patch) {
            case nil: break
            case .set(let value)?: property.set(value, in: &result)
            case .reset?: property.set(nil, in: &result)
            }
        }
        for exclusion in SectionPropertyTable.exclusions {
            if case .set? = exclusion.kept.change(in: patch) { exclusion.refused.set(nil, in: &result) }
            if case .set? = exclusion.refused.change(in: patch) { exclusion.kept.set(nil, in: &result) }
        }
        return result
    }
}
