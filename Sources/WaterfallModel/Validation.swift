/// Range checks for every value a command carries, naming the field and the value at fault.
///
/// Lengths are capped at 10⁹ points and aspect widths kept at or above 10⁻⁶, so that no accepted input can drive a
/// frame to infinity (which JSON cannot carry) even across ten million items.
package enum Validation {
    /// The longest length, in points (also what the protocol's schemas say).
    package static let maxLength = 1e9
    /// The narrowest aspect width.
    package static let minAspectWidth = 1e-6
    /// The largest `scale`.
    package static let maxScale = 1e4
    /// The longest item `id`, in UTF-8 bytes.
    package static let maxIDBytes = 256
    @usableFromInline package static let maxColumnsProperty = 1024

    package static func length(_ value: Double, _ field: String) throws(LayoutError) {
        guard value.isFinite, value >= 0 else {
            throw .invalidValue(field: field, value: format(value), reason: "must be a number ≥ 0")
        }
        guard value <= maxLength else {
            throw .invalidValue(field: field, value: format(value), reason: "is over the limit of 1e9 points")
        }
    }

    package static func width(_ value: Double, _ field: String) throws(LayoutError) {
        try length(value, field)
        guard value > 0 else { throw .invalidValue(field: field, value: format(value), reason: "must be > 0") }
    }

    /// The most widths a layout is laid out at.
    package static let maxWidths = 16

    /// Checks a layout's widths: 1–16 of them, distinct, each a valid width. `field` names the list (`widths`), or
    /// the one width when the caller said `width`.
    package static func widths(_ values: [Double], _ field: String) throws(LayoutError) {
        guard !values.isEmpty, values.count <= maxWidths else {
            throw .invalidValue(
                field: field, value: "\(values.count) widths", reason: "must list 1 to \(maxWidths) widths")
        }
        let single = field == "width" && values.count == 1
        for (k, value) in values.enumerated() {
            let name = single ? field : "\(field)[\(k)]"
            try width(value, name)
            if let first = values[..<k].firstIndex(of: value) {
                throw .invalidValue(
                    field: name, value: format(value), reason: "is listed twice (as \(field)[\(first)])")
            }
        }
    }

    package static func scale(_ value: Double) throws(LayoutError) {
        guard value.isFinite, value >= 0, value <= maxScale else {
            throw .invalidValue(field: "scale", value: format(value), reason: "must be between 0 and 10000")
        }
    }

    package static func insets(_ insets: Insets, _ field: String) throws(LayoutError) {
        try length(insets.top, field + ".top")
        try length(insets.left, field + ".left")
        try length(insets.bottom, field + ".bottom")
        try length(insets.right, field + ".right")
    }

    package static func columns(_ value: Int, _ field: String, limits: LayoutLimits) throws(LayoutError) {
        guard value >= 1, value <= maxColumnsProperty else {
            throw .invalidValue(field: field, value: String(value), reason: "must be an integer from 1 to 1024")
        }
        guard value <= limits.maxColumns else {
            throw .limit(
                field: field, value: String(value), reason: "is over the limit of \(limits.maxColumns) columns")
        }
    }

    /// The bounds of one `columnWidths` weight: a ratio of 10¹² between columns at most, whose shares of any width
    /// up to 10⁹ points stay finite and positive.
    public static let minColumnWeight = 1e-6
    public static let maxColumnWeight = 1e6

    /// Checks a `columnWidths` list: 1 to 1024 weights, each a number from 10⁻⁶ to 10⁶.
    static func weights(_ values: [Double], _ field: String) throws(LayoutError) {
        guard !values.isEmpty, values.count <= maxColumnsProperty else {
            throw .invalidValue(
                field: field, value: "\(values.count) weights",
                reason: "must list 1 to \(maxColumnsProperty) weights, one per column")
        }
        for (k, value) in values.enumerated() {
            guard value.isFinite, value >= minColumnWeight, value <= maxColumnWeight else {
                throw .invalidValue(
                    field: "\(field)[\(k)]", value: format(value), reason: "must be a number from 1e-6 to 1e6")
            }
        }
    }

    /// Checks a lookahead's members: `items` 1…8, `limit` 1…40320.
    static func lookahead(_ value: Lookahead, _ field: String) throws(LayoutError) {
        guard value.items >= 1, value.items <= Lookahead.maxItems else {
            throw .invalidValue(
                field: field + ".items", value: String(value.items), reason: "must be an integer from 1 to 8")
        }
        guard value.limit >= 1, value.limit <= Lookahead.maxLimit else {
            throw .invalidValue(
                field: field + ".limit", value: String(value.limit), reason: "must be an integer from 1 to 40320")
        }
    }

    /// Checks every property `p` sets, in table order, and each exclusive pair once its refused side is reached.
    package static func properties(_ p: SectionProperties, _ prefix: String, limits: LayoutLimits) throws(LayoutError) {
        for property in SectionPropertyTable.all {
            guard let value = property.value(in: p) else { continue }
            try self.value(value, of: property.kind, prefix + property.name, limits: limits)
            for exclusion in SectionPropertyTable.exclusions where exclusion.refused.name == property.name {
                if exclusion.kept.value(in: p) != nil {
                    throw .invalidValue(field: prefix + property.name, value: text(value), reason: exclusion.reason)
                }
            }
        }
    }

    /// Checks one property value by its kind's rule.
    package static func value(
        _ value: PropertyValue, of kind: PropertyKind, _ field: String, limits: LayoutLimits
    ) throws(LayoutError) {
        switch (kind, value) {
        case (.columns, .integer(let v)): try columns(v, field, limits: limits)
        case (.count, .integer(let v)):
            if v < 1 { throw .invalidValue(field: field, value: String(v), reason: "must be ≥ 1") }
        case (.length, .number(let v)): try length(v, field)
        case (.positiveLength, .number(let v)): try width(v, field)
        case (.insets, .insets(let v)): try insets(v, field)
        case (.weights, .weights(let v)): try weights(v, field)
        case (.placement, .placement), (.tieBreak, .tieBreak), (.flag, .flag), (.reflow, .reflow),
            (.spanPlacement, .spanPlacement):
            break
        case (.stamps, .stamps(let v)): try stamps(v, field)
        case (.lookahead, .lookahead(let v)): try lookahead(v, field)
        default:
            // The codecs make each kind's case: another is a bug in one of them, refused rather than trapped on.
            assertionFailure("\(field): \(value) is not of kind \(kind)")
            throw .inconsistent("\(field): \(text(value)) is not a value of its property's kind")
        }
    }

    /// A property value as errors quote it.
    package static func text(_ value: PropertyValue) -> String {
        switch value {
        case .integer(let v): return String(v)
        case .number(let v): return format(v)
        case .insets(let v): return "{\(format(v.top)), \(format(v.left)), \(format(v.bottom)), \(format(v.right))}"
        case .placement(let v): return v.rawValue
        case .tieBreak(let v): return v.rawValue
        case .flag(let v): return String(v)
        case .reflow(let v): return v.rawValue
        case .spanPlacement(let v): return v.rawValue
        case .stamps(let v): return "\(v.count) stamps"
        case .weights(let v): return "[" + v.map(format).joined(separator: ", ") + "]"
        case .lookahead(let v): return "{items: \(v.items), limit: \(v.limit)}"
        }
    }

    /// Checks a list of stamps: at most 64, each within columns 0 to 1023 (its section's columns are checked with
    /// its geometry), `y` a length and `h` a length > 0.
    static func stamps(_ stamps: [Stamp], _ field: String) throws(LayoutError) {
        guard stamps.count <= Stamp.maxCount else {
            throw .invalidValue(
                field: field, value: "\(stamps.count) stamps", reason: "must list at most \(Stamp.maxCount) stamps")
        }
        for (k, stamp) in stamps.enumerated() {
            let prefix = "\(field)[\(k)]."
            guard stamp.column >= 0, stamp.column < maxColumnsProperty else {
                throw .invalidValue(
                    field: prefix + "column", value: String(stamp.column), reason: "must be an integer from 0 to 1023")
            }
            guard stamp.span >= 1, stamp.span <= maxColumnsProperty - stamp.column else {
                throw .invalidValue(
                    field: prefix + "span", value: String(stamp.span),
                    reason: "must be an integer from 1 to \(maxColumnsProperty - stamp.column) (1024 − column)")
            }
            try length(stamp.y, prefix + "y")
            try width(stamp.height, prefix + "h")
        }
    }

    package static func item(_ item: Item, _ prefix: String, horizontal: Bool = false) throws(LayoutError) {
        try length(item.height, prefix + "h")
        if let w = item.aspectWidth {
            guard w.isFinite, w >= minAspectWidth, w <= maxLength else {
                throw .invalidValue(field: prefix + "w", value: format(w), reason: "must be between 1e-6 and 1e9")
            }
            // Along x an aspect item is row height × w / h long: a flat picture would be endless.
            if horizontal && item.height < minAspectWidth {
                throw .invalidValue(
                    field: prefix + "h", value: format(item.height),
                    reason: "must be ≥ 1e-6 for an aspect item of a horizontal layout")
            }
        }
        if case .columns(let span) = item.span, span < 1 {
            throw .invalidValue(field: prefix + "span", value: String(span), reason: "must be ≥ 1 or \"full\"")
        }
        if let column = item.column, column < 0 || column >= maxColumnsProperty {
            throw .invalidValue(
                field: prefix + "column", value: String(column), reason: "must be an integer from 0 to 1023")
        }
        if let id = item.id, id.utf8.count > maxIDBytes {
            throw .invalidValue(
                field: prefix + "id", value: "\(id.utf8.count) bytes", reason: "is longer than 256 bytes")
        }
    }

    /// Checks every item; the field path is built only for the one at fault, so a million valid items cost no
    /// string work.
    package static func items(_ items: [Item], _ prefix: String, horizontal: Bool = false) throws(LayoutError) {
        for k in items.indices where !isPlainlyValid(items[k]) || (horizontal && isFlatAspect(items[k])) {
            try Self.item(items[k], "\(prefix)items[\(k)].", horizontal: horizontal)
        }
    }

    /// `items(_:_:horizontal:)` of a list, reading bare heights as they are held.
    package static func items(_ items: ItemList, _ prefix: String, horizontal: Bool = false) throws(LayoutError) {
        guard let heights = items.heights else {
            return try self.items(items.array, prefix, horizontal: horizontal)
        }
        for k in heights.indices where !isPlainlyValid(height: heights[k]) {
            try Self.item(Item(height: heights[k]), "\(prefix)items[\(k)].", horizontal: horizontal)
        }
    }

    /// Whether an item that is only `height` passes every check.
    @inlinable
    package static func isPlainlyValid(height: Double) -> Bool {
        height >= 0 && height <= maxLength
    }

    /// Whether every item of `items` passes every check, reading bare heights as they are held.
    package static func isPlainlyValid(_ items: ItemList) -> Bool {
        guard let heights = items.heights else { return items.array.allSatisfy(isPlainlyValid) }
        return heights.allSatisfy(isPlainlyValid(height:))
    }

    /// Whether an item of `items` is an aspect item too flat for a horizontal layout; bare heights never are, and
    /// are not looked at.
    package static func hasFlatAspect(_ items: ItemList) -> Bool {
        items.heights == nil && items.contains(where: isFlatAspect)
    }

    /// Whether `item` is an aspect item too flat for a horizontal layout (`h` below 1e-6).
    @inlinable
    package static func isFlatAspect(_ item: Item) -> Bool {
        item.aspectWidth != nil && item.height < minAspectWidth
    }

    /// The common case of `item(_:_:)` without building anything.
    @inlinable
    package static func isPlainlyValid(_ item: Item) -> Bool {
        guard isPlainlyValid(height: item.height) else { return false }
        if let w = item.aspectWidth, !(w >= minAspectWidth && w <= maxLength) { return false }
        if case .columns(let span) = item.span, span < 1 { return false }
        if let id = item.id, id.utf8.count > maxIDBytes { return false }
        if let column = item.column, column < 0 || column >= maxColumnsProperty { return false }
        return true
    }

    /// Sorted, distinct indices within `0 ..< count`, or the error naming the first bad one.
    package static func indices(_ indices: [Int], count: Int, field: String, what: String) throws(LayoutError) -> [Int]
    {
        for (k, index) in indices.enumerated() where index < 0 || index >= count {
            throw .notFound(
                field: "\(field)[\(k)]", value: String(index), reason: "is not \(what) (there are \(count))")
        }
        let sorted = indices.sorted()
        for k in sorted.indices.dropFirst() where sorted[k] == sorted[k - 1] {
            throw .invalidValue(field: field, value: String(sorted[k]), reason: "is listed twice")
        }
        return sorted
    }

    /// A number as people write it: 120 rather than 120.0.
    package static func format(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(describing: value)
    }
}
