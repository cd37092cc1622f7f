/// Every section property, described once (the Geometry article, "The properties of a section"): decoding, encoding, merging, validation,
/// resolution and the storage format all read this table.
///
/// `all`'s order is the storage format's: property k is bit k of a stored presence mask, so rows are only ever
/// appended. It is also the order of exported section objects and of validation (the first bad field is named).
package enum SectionPropertyTable {
    package static let columns = SectionProperty<Int>("columns", .columns, \.columns, \.columns, builtIn: 2)
    package static let minColumnWidth = SectionProperty<Double>(
        "minColumnWidth", .positiveLength, \.minColumnWidth, \.minColumnWidth)
    package static let maxColumns = SectionProperty<Int>("maxColumns", .count, \.maxColumns, \.maxColumns)
    package static let columnSpacing = SectionProperty<Double>(
        "columnSpacing", .length, \.columnSpacing, \.columnSpacing, builtIn: 10)
    package static let rowSpacing = SectionProperty<Double>(
        "rowSpacing", .length, \.rowSpacing, \.rowSpacing, builtIn: 10)
    package static let insets = SectionProperty<Insets>("insets", .insets, \.insets, \.insets, builtIn: .zero)
    package static let headerHeight = SectionProperty<Double>(
        "headerHeight", .length, \.headerHeight, \.headerHeight, builtIn: 0)
    package static let footerHeight = SectionProperty<Double>(
        "footerHeight", .length, \.footerHeight, \.footerHeight, builtIn: 0)
    package static let headerInsets = SectionProperty<Insets>(
        "headerInsets", .insets, \.headerInsets, \.headerInsets, builtIn: .zero)
    package static let footerInsets = SectionProperty<Insets>(
        "footerInsets", .insets, \.footerInsets, \.footerInsets, builtIn: .zero)
    package static let placement = SectionProperty<Placement>(
        "placement", .placement, \.placement, \.placement, builtIn: .shortest)
    package static let tolerance = SectionProperty<Double>(
        "tolerance", .length, \.tolerance, \.tolerance, builtIn: 0)
    package static let tieBreak = SectionProperty<TieBreak>(
        "tieBreak", .tieBreak, \.tieBreak, \.tieBreak, builtIn: .leftmost)
    package static let pinHeader = SectionProperty<Bool>(
        "pinHeader", .flag, \.pinHeader, \.pinHeader, builtIn: false)
    package static let reflow = SectionProperty<Reflow>("reflow", .reflow, \.reflow, \.reflow, builtIn: .exact)
    package static let spanPlacement = SectionProperty<SpanPlacement>(
        "spanPlacement", .spanPlacement, \.spanPlacement, \.spanPlacement, builtIn: .lowest)
    public static let stamps = SectionProperty<[Stamp]>("stamps", .stamps, \.stamps, \.stamps, builtIn: [])
    /// No built-in default: unset means equal columns, which `SectionGeometry` resolves with the column count.
    public static let columnWidths = SectionProperty<[Double]>(
        "columnWidths", .weights, \.columnWidths, \.columnWidths)
    public static let lookahead = SectionProperty<Lookahead>(
        "lookahead", .lookahead, \.lookahead, \.lookahead, builtIn: .off)

    /// Every property, in storage-bit order (append only).
    package static let all: [AnySectionProperty] = [
        columns.erased, minColumnWidth.erased, maxColumns.erased, columnSpacing.erased, rowSpacing.erased,
        insets.erased, headerHeight.erased, footerHeight.erased, headerInsets.erased, footerInsets.erased,
        placement.erased, tolerance.erased, tieBreak.erased, pinHeader.erased, reflow.erased,
        spanPlacement.erased, stamps.erased, columnWidths.erased, lookahead.erased,
    ]

    /// The pairs a section may not set together: "columns or minColumnWidth, not both".
    package static let exclusions: [PropertyExclusion] = [
        PropertyExclusion(kept: columns.erased, refused: minColumnWidth.erased)
    ]
}

extension SectionProperties {
    /// These properties with `patch` applied, unchecked: a set value replaces, a reset unsets, and setting one of an
    /// exclusive pair unsets the other.
    package func merging(_ patch: SectionPatch) -> SectionProperties {
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
