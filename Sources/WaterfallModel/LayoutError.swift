/// Why the engine refused a command; the layout is unchanged whenever one is thrown.
public enum LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A value is of the right type but out of range; `field` is a path such as `items[3].h`.
    case invalidValue(field: String, value: String, reason: String)
    /// A section or item index that does not exist.
    case notFound(field: String, value: String, reason: String)
    /// The change would give `section` a negative column width.
    case invalidGeometry(field: String, section: Int, columnWidth: Double)
    /// The change would give `section`'s header or footer (`element`) a negative width: its insets are wider than
    /// the layout. On the wire, the same kind as a negative column width.
    case negativeWidth(field: String, section: Int, element: String, width: Double)
    /// The change would exceed a configured resource limit.
    case limit(field: String, value: String, reason: String)
    /// An internal invariant does not hold: a bug, never the input's fault; nothing changed.
    case inconsistent(String)

    public var description: String {
        switch self {
        case .invalidValue(let field, let value, let reason),
            .notFound(let field, let value, let reason),
            .limit(let field, let value, let reason):
            return "\(field): \(value) \(reason)"
        case .invalidGeometry(let field, let section, let columnWidth):
            return "\(field): section \(section) would have a negative column width (\(columnWidth))"
        case .negativeWidth(let field, let section, let element, let width):
            return
                "\(field): section \(section) would have a \(element) of negative width (\(Validation.format(width))): "
                + "its \(element)Insets are wider than the layout"
        case .inconsistent(let reason):
            return reason
        }
    }

    /// The same error with `prefix` put before its field, so a batch can say which operation failed.
    package func prefixed(_ prefix: String) -> LayoutError {
        func join(_ field: String) -> String { field.isEmpty ? prefix : prefix + "." + field }
        switch self {
        case .invalidValue(let field, let value, let reason):
            return .invalidValue(field: join(field), value: value, reason: reason)
        case .notFound(let field, let value, let reason):
            return .notFound(field: join(field), value: value, reason: reason)
        case .invalidGeometry(let field, let section, let columnWidth):
            return .invalidGeometry(field: join(field), section: section, columnWidth: columnWidth)
        case .limit(let field, let value, let reason):
            return .limit(field: join(field), value: value, reason: reason)
        case .negativeWidth(let field, let section, let element, let width):
            return .negativeWidth(field: join(field), section: section, element: element, width: width)
        case .inconsistent:
            return self
        }
    }
}

extension LayoutError {
    /// A number as error messages write it: an integer without a fraction, any other value as Swift prints it.
    package static func text(_ value: Double) -> String { Validation.format(value) }
}
