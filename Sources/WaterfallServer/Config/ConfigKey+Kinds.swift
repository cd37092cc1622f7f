@_spi(Package) import WaterfallJSON

/// The kinds of value a key may hold, each with its check: a declaration in `ConfigKey.all` names one.
extension ConfigKey {
    // MARK: Internal

    /// An integer in `range`; `bound` says why the range ends where it does, when that is not a choice.
    static func integer(
        _ name: StaticString, _ path: WritableKeyPath<Config, Int>, in range: ClosedRange<Int>,
        reload: Reload = .immediately, inVersion: Bool = false, bound: String? = nil, help: String
    ) -> ConfigKey {
        key(
            name, path, type: "integer", range: "\(range.lowerBound)–\(range.upperBound)", integers: range,
            reload: reload, inVersion: inVersion, help: help, encode: { .int(Int64($0)) }
        ) { value, source throws(ConfigError) in
            let exact: Int?
            switch value {
            case .int(let n): exact = Int(exactly: n)
            case .double(let d): exact = Int(exactly: d)
            default: exact = nil
            }
            guard let integer = exact else {
                throw ConfigError("\(source.name) must be an integer, not \(source.describe(value))")
            }
            guard range.contains(integer) else {
                let why = bound.map { " (\($0))" } ?? ""
                throw ConfigError(
                    "\(source.name) \(integer) is out of range \(range.lowerBound)...\(range.upperBound)\(why)")
            }
            return integer
        }
    }

    /// A number of seconds in `range`.
    static func seconds(
        _ name: StaticString, _ path: WritableKeyPath<Config, Double>, in range: ClosedRange<Double>, help: String
    ) -> ConfigKey {
        let bounds = [range.lowerBound, range.upperBound].map { JSONValue.double($0).jsonText }
        return key(
            name, path, type: "seconds", range: "\(bounds[0])–\(bounds[1])", reload: .immediately, help: help,
            encode: { .double($0) }
        ) { value, source throws(ConfigError) in
            guard let seconds = number(value) else {
                throw ConfigError("\(source.name) must be a number of seconds, not \(source.describe(value))")
            }
            guard range.contains(seconds) else {
                throw ConfigError("\(source.name) \(seconds) is out of range \(range.lowerBound)...\(range.upperBound)")
            }
            return seconds
        }
    }

    /// A non-empty string, or null (not from a flag) for the default the help describes.
    static func path(
        _ name: StaticString, _ path: WritableKeyPath<Config, String?>, reload: Reload, flag: Flag? = nil,
        help: String
    ) -> ConfigKey {
        key(
            name, path, type: "string or null", reload: reload, flag: flag, help: help,
            encode: { $0.map { .string($0) } ?? .null }
        ) { value, source throws(ConfigError) in
            if case .null = value, !source.isFlag { return nil }
            guard case .string(let string) = value else {
                throw ConfigError("\(source.name) must be a string or null, not \(source.describe(value))")
            }
            guard !string.isEmpty else {
                throw ConfigError(
                    source.isFlag ? "\(source.name) needs a non-empty path" : "\(source.name) must not be empty")
            }
            return string
        }
    }

    /// Permission bits as an octal string, `"0600"`.
    static func mode(_ name: StaticString, _ path: WritableKeyPath<Config, UInt32>, help: String) -> ConfigKey {
        key(
            name, path, type: "octal string", range: "\"0\"–\"0777\"", reload: .atNextStart, help: help,
            encode: { mode in
                let digits = String(mode, radix: 8)
                return .string(String(repeating: "0", count: max(0, 4 - digits.count)) + digits)
            }
        ) { value, source throws(ConfigError) in
            guard case .string(let text) = value, !text.isEmpty, text.count <= 4, let mode = UInt32(text, radix: 8)
            else {
                throw ConfigError(
                    "\(source.name) must be an octal string such as \"0600\", not \(source.describe(value))")
            }
            guard mode & ~0o777 == 0 else { throw ConfigError("\(source.name) \(text) has bits outside 0777") }
            return mode
        }
    }

    /// Users or groups: names, or numeric ids (kept as decimal text).
    static func principals(_ name: StaticString, _ path: WritableKeyPath<Config, [String]>, help: String) -> ConfigKey {
        key(
            name, path, type: "array of names or ids", reload: .immediately, help: help,
            encode: { .array($0.map { .string($0) }) }
        ) { value, source throws(ConfigError) in
            guard case .array(let array) = value else {
                throw ConfigError(
                    "\(source.name) must be an array of names or numeric ids, not \(source.describe(value))")
            }
            var result: [String] = []
            for element in array {
                if case .string(let name) = element, !name.isEmpty {
                    result.append(name)
                } else if let number = number(element), let id = UInt32(exactly: number) {
                    result.append(String(id))
                } else {
                    throw ConfigError(
                        "\(source.name) entries must be names or numeric ids, not \(source.describe(element))")
                }
            }
            return result
        }
    }

    /// One of an enumeration's raw values.
    static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
        _ name: StaticString, _ path: WritableKeyPath<Config, Value>, reload: Reload, flag: Flag? = nil,
        help: String
    ) -> ConfigKey where Value.RawValue == String {
        let names = Value.allCases.map(\.rawValue)
        return key(
            name, path, type: "string", range: "one of " + names.map { "`\"\($0)\"`" }.joined(separator: ", "),
            reload: reload, flag: flag, help: help, encode: { .string($0.rawValue) }
        ) { value, source throws(ConfigError) in
            guard case .string(let text) = value, let chosen = Value(rawValue: text) else {
                let known = names.map { source.isFlag ? $0 : "\"\($0)\"" }.joined(separator: ", ")
                throw ConfigError("\(source.name) must be one of \(known), not \(source.describe(value))")
            }
            return chosen
        }
    }

    /// `true` or `false` (a flag without a value gives `true`).
    static func boolean(
        _ name: StaticString, _ path: WritableKeyPath<Config, Bool>, reload: Reload, flag: Flag? = nil, help: String
    ) -> ConfigKey {
        key(name, path, type: "boolean", reload: reload, flag: flag, help: help, encode: { .bool($0) }) {
            value, source throws(ConfigError) in
            guard case .bool(let flag) = value else {
                throw ConfigError("\(source.name) must be true or false, not \(source.describe(value))")
            }
            return flag
        }
    }

    // MARK: Private

    /// A key over the config field at `path`: `encode` writes its value as JSON, `decode` checks a JSON value
    /// and turns it into one.
    private static func key<Value>(
        _ name: StaticString, _ path: WritableKeyPath<Config, Value>, type: String, range: String? = nil,
        integers: ClosedRange<Int>? = nil, reload: Reload, flag: Flag? = nil, inVersion: Bool = false, help: String,
        encode: @escaping @Sendable (Value) -> JSONValue,
        decode: @escaping @Sendable (JSONValue, Source) throws(ConfigError) -> Value
    ) -> ConfigKey {
        // A key path literal is immutable and safe to share, but the standard library does not declare
        // `WritableKeyPath` Sendable (and `& Sendable` is refused under ExistentialAny).
        nonisolated(unsafe) let path = path
        return ConfigKey(
            name: name, type: type, range: range, integers: integers, reload: reload, help: help, flag: flag,
            inVersion: inVersion, read: { encode($0[keyPath: path]) },
            write: { config, value, source throws(ConfigError) in config[keyPath: path] = try decode(value, source) },
            copy: { $1[keyPath: path] = $0[keyPath: path] })
    }

    /// A number's value (the reader never gives NaN or infinity), or nil for anything else.
    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let n): Double(n)
        case .double(let d): d
        default: nil
        }
    }
}
