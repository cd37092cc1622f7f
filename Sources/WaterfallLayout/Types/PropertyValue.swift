/// The kinds of value a section property takes: validation, the wire codec and the storage codec each have one
/// case per kind, so a new property of an existing kind is one row in `SectionPropertyTable`.
public enum PropertyKind: Sendable, Hashable {
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
    /// `{"items": 1…8, "limit": 1…40320}` (`lookahead`).
    case lookahead
}

/// A section property's value, whatever the property: what the codecs read and write.
public enum PropertyValue: Sendable, Hashable {
    case integer(Int)
    case number(Double)
    case insets(Insets)
    case placement(Placement)
    case tieBreak(TieBreak)
    case flag(Bool)
    case reflow(Reflow)
    case spanPlacement(SpanPlacement)
    case lookahead(Lookahead)
}

/// A Swift type a section property is stored as, and its `PropertyValue` case.
public protocol PropertyValueConvertible: Sendable, Hashable {
    /// The value `value` carries, or nil when it is another case.
    init?(propertyValue value: PropertyValue)
    var propertyValue: PropertyValue { get }
    /// What a property resolves to should its table row lack a built-in default: a bug that debug builds assert,
    /// and that a release build answers with a neutral value rather than a trap.
    static var fallback: Self { get }
}

extension Int: PropertyValueConvertible {
    public static var fallback: Int { 1 }
    public init?(propertyValue value: PropertyValue) {
        guard case .integer(let v) = value else { return nil }
        self = v
    }
    public var propertyValue: PropertyValue { .integer(self) }
}

extension Double: PropertyValueConvertible {
    public static var fallback: Double { 0 }
    public init?(propertyValue value: PropertyValue) {
        guard case .number(let v) = value else { return nil }
        self = v
    }
    public var propertyValue: PropertyValue { .number(self) }
}

extension Insets: PropertyValueConvertible {
    public static var fallback: Insets { .zero }
    public init?(propertyValue value: PropertyValue) {
        guard case .insets(let v) = value else { return nil }
        self = v
    }
    public var propertyValue: PropertyValue { .insets(self) }
}

extension Placement: PropertyValueConvertible {
    public static var fallback: Placement { .shortest }
    public init?(propertyValue value: PropertyValue) {
        guard case .placement(let v) = value else { return nil }
        self = v
    }
    public var propertyValue: PropertyValue { .placement(self) }
}

extension TieBreak: PropertyValueConvertible {
    public static var fallback: TieBreak { .leftmost }
    public init?(propertyValue value: PropertyValue) {
        guard case .tieBreak(let v) = value else { return nil }
        self = v
    }
    public var propertyValue: PropertyValue { .tieBreak(self) }
}

extension Bool: PropertyValueConvertible {
    public static var fallback: Bool { false }
    public init?(propertyValue value: PropertyValue) {
        guard case .flag(let v) = value else { return nil }
        self = v
    }
    public var propertyValue: PropertyValue { .flag(self) }
}

extension Reflow: PropertyValueConvertible {
    public static var fallback: Reflow { .exact }
    public init?(propertyValue value: PropertyValue) {
        guard case .reflow(let v) = value else { return nil }
        self = v
    }
    public var propertyValue: PropertyValue { .reflow(self) }
}

extension SpanPlacement: PropertyValueConvertible {
    public static var fallback: SpanPlacement { .lowest }
    public init?(propertyValue value: PropertyValue) {
        guard case .spanPlacement(let v) = value else { return nil }
        self = v
    }
    public var propertyValue: PropertyValue { .spanPlacement(self) }
}

extension Lookahead: PropertyValueConvertible {
    public static var fallback: Lookahead { .off }
    public init?(propertyValue value: PropertyValue) {
        guard case .lookahead(let v) = value else { return nil }
        self = v
    }
    public var propertyValue: PropertyValue { .lookahead(self) }
}
