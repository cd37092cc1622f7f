// MARK: From documents

extension JSONNode {
    /// The value as a plain tree.
    ///
    /// Recursive, so its depth is bounded by the reader's `maximumDepth`.
    public var value: JSONValue {
        switch kind {
        case .null:
            return .null
        case .bool:
            return .bool(bool ?? false)
        case .number:
            if let integer = int64 { return .int(integer) }
            return .double(double ?? .nan)
        case .string:
            return .string(string ?? "")
        case .array:
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for element in self.elements { elements.append(element.value) }
            return .array(elements)
        case .object:
            var members: [(key: String, value: JSONValue)] = []
            members.reserveCapacity(count)
            for (key, value) in self.members { members.append((key.string ?? "", value.value)) }
            return .object(members)
        }
    }
}

// MARK: Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `nil` is `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal, whose order is kept.
    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(members.map { (key: $0.0, value: $0.1) })
    }
}
