/// The kinds of value a section property takes: validation, the wire codec and the storage codec each have one
/// case per kind, so a new property of an existing kind is one row in `SectionPropertyTable`.
package enum PropertyKind: Sendable, Hashable {
    /// An integer from 1 to 1024, within the layout's column limit (`columns`).
    case columns
    /// An integer ≥ 1 (`maxColumns`).
    case count
    /// A number ≥ 0, at most 10⁹ points.
    case length
    /// A number > 0, at most 10⁹ points (`minColumnWidth`).
    case positiveLength
    /// Four lengths.
    case insets
    case placement
    case tieBreak
    /// A boolean.
    case flag
    /// `"exact"` or `"stable"` (`reflow`).
    case reflow
    /// `"lowest"` or `"leastWhitespace"` (`spanPlacement`).
    case spanPlacement
    /// A list of up to 64 stamps, each in range (`stamps`; the Geometry article, "Stamps").
    case stamps
    /// 1 to 1024 numbers from 10⁻⁶ to 10⁶, one per column (`columnWidths`).
    case weights
    /// `{"items": 1…8, "limit": 1…40320}` (`lookahead`).
    case lookahead
}

/// A section property's value, whatever the property: what the codecs read and write.
package enum PropertyValue: Sendable, Hashable {
    case integer(Int)
    case number(Double)
    case insets(Insets)
    case placement(Placement)
    case tieBreak(TieBreak)
    case flag(Bool)
    case reflow(Reflow)
    case spanPlacement(SpanPlacement)
    case stamps([Stamp])
    case weights([Double])
    case lookahead(Lookahead)
}

/// A Swift type a section property is stored as, and its `PropertyValue` case.
package protocol PropertyValueConvertible: Sendable, Hashable {
    /// The value `value` carries, or nil when it is another case.
    init?(propertyValue value: PropertyValue)
    var propertyValue: PropertyValue { get }
    /// What a property resolves to should its table row lack a built-in default: a bug that debug builds assert,
    /// and that a release build answers with a neutral value rather than a trap.
    static var fallback: Self { get }
}

extension Int: PropertyValueConvertible {
    package static var fallback: Int { 1 }
    package init?(propertyValue value: PropertyValue) {
        guard case .integer(let v) = value else { return nil }
        self = v
    }
    package var propertyValue: PropertyValue { .integer(self) }
}

extension Double: PropertyValueConvertible {
    package static var fallback: Double { 0 }
    package init?(propertyValue value: PropertyValue) {
        guard case .number(let v) = value else { return nil }
        self = v
    }
    package var propertyValue: PropertyValue { .number(self) }
}

extension Insets: PropertyValueConvertible {
    package static var fallback: Insets { .zero }
    package init?(propertyValue value: PropertyValue) {
        guard case .insets(let v) = value else { return nil }
        self = v
    }
    package var propertyValue: PropertyValue { .insets(self) }
}

extension Placement: PropertyValueConvertible {
    package static var fallback: Placement { .shortest }
    package init?(propertyValue value: PropertyValue) {
        guard case .placement(let v) = value else { return nil }
        self = v
    }
    package var propertyValue: PropertyValue { .placement(self) }
}

extension TieBreak: PropertyValueConvertible {
    package static var fallback: TieBreak { .leftmost }
    package init?(propertyValue value: PropertyValue) {
        guard case .tieBreak(let v) = value else { return nil }
        self = v
    }
    package var propertyValue: PropertyValue { .tieBreak(self) }
}

extension Bool: PropertyValueConvertible {
    package static var fallback: Bool { false }
    package init?(propertyValue value: PropertyValue) {
        guard case .flag(let v) = value else { return nil }
        self = v
    }
    package var propertyValue: PropertyValue { .flag(self) }
}

extension Reflow: PropertyValueConvertible {
    package static var fallback: Reflow { .exact }
    package init?(propertyValue value: PropertyValue) {
        guard case .reflow(let v) = value else { return nil }
        self = v
    }
    package var propertyValue: PropertyValue { .reflow(self) }
}

extension SpanPlacement: PropertyValueConvertible {
    package static var fallback: SpanPlacement { .lowest }
    package init?(propertyValue value: PropertyValue) {
        guard case .spanPlacement(let v) = value else { return nil }
        self = v
    }
    package var propertyValue: PropertyValue { .spanPlacement(self) }
}

extension Lookahead: PropertyValueConvertible {
    package static var fallback: Lookahead { .off }
    package init?(propertyValue value: PropertyValue) {
        guard case .lookahead(let v) = value else { return nil }
        self = v
    }
    package var propertyValue: PropertyValue { .lookahead(self) }
}

/// The element of a list-valued section property (`stamps`, `columnWidths`): which `PropertyValue` case carries
/// a list of it. Swift allows `Array` one conformance to `PropertyValueConvertible`, so the lists share it.
package protocol PropertyListElement: Sendable, Hashable {
    static func propertyValue(_ list: [Self]) -> PropertyValue
    static func list(_ value: PropertyValue) -> [Self]?
}

extension Stamp: PropertyListElement {
    package static func propertyValue(_ list: [Stamp]) -> PropertyValue { .stamps(list) }
    package static func list(_ value: PropertyValue) -> [Stamp]? {
        guard case .stamps(let v) = value else { return nil }
        return v
    }
}

extension Double: PropertyListElement {
    package static func propertyValue(_ list: [Double]) -> PropertyValue { .weights(list) }
    package static func list(_ value: PropertyValue) -> [Double]? {
        guard case .weights(let v) = value else { return nil }
        return v
    }
}

extension Array: PropertyValueConvertible where Element: PropertyListElement {
    package static var fallback: [Element] { [] }
    package init?(propertyValue value: PropertyValue) {
        guard let v = Element.list(value) else { return nil }
        self = v
    }
    package var propertyValue: PropertyValue { Element.propertyValue(self) }
}
