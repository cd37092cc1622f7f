import WaterfallJSON

/// The kinds of value a key may hold, each with its check: a declaration in `ConfigKey.all` names one.
extension ConfigKey {
    // MARK: Internal

    // Each kind captures its key path in @Sendable closures: a key path literal is immutable and safe to share, but
    // the standard library does not declare `WritableKeyPath` Sendable (and `& Sendable` is refused under
    // ExistentialAny), hence `nonisolated(unsafe)`.

    /// An integer in `range`; `bound` says why the range ends where it does, when that is not a choice.
    static func integer(
        _ name: StaticString, _ path: WritableKeyPath<Config, Int>, in range: ClosedRange<Int>,
        reload: Reload = .immediately, inVersion: Bool = false, bound: String? = nil, help: String
    ) -> ConfigKey {
        nonisolated(unsafe) let path = path
        return ConfigKey(
            name: name, type: "integer", range: "\(range.lowerBound)–\(range.upperBound)", integers: range,
            reload: reload, help: help, flag: nil, inVersion: inVersion, read: { .int(Int64($0[keyPath: path])) },
            write: { config, value, source throws(ConfigError) in
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
                config[keyPath: path] = integer
            }, copy: { $1[keyPath: path] = $0[keyPath: path] })
    }

    /// A number of seconds in `range`.
    static func seconds(
        _ name: StaticString, _ path: WritableKeyPath<Config, Double>, in range: ClosedRange<Double>,
        help: String
    ) -> ConfigKey {
        nonisolated(unsafe) let path = path
        let bounds = [range.lowerBound, range.upperBound].map { JSONValue.double($0).jsonText }
        return ConfigKey(
            name: name, type: "seconds", range: "\(bounds[0])–\(bounds[1])", integers: nil, reload: .immediately,
            help: help, flag: nil, inVersion: false, read: { .double($0[keyPath: path]) },
            write: { config, value, source throws(ConfigError) in
                guard let seconds = number(value) else {
                    throw ConfigError("\(source.name) must be a number of seconds, not \(source.describe(value))")
                }
                guard range.contains(seconds) else {
                    throw ConfigError(
                        "\(source.name) \(seconds) is out of range \(range.lowerBound)...\(range.upperBound)")
                }
                config[keyPath: path] = seconds
            }, copy: { $1[keyPath: path] = $0[keyPath: path] })
    }

    /// A non-empty string, or null for the default the help describes.
    static func path(
        _ name: StaticString, _ path: WritableKeyPath<Config, String?>, reload: Reload,
        flag: Flag? = nil, help: String
    ) -> ConfigKey {
        nonisolated(unsafe) let path = path
        return ConfigKey(
            name: name, type: "string or null", range: nil, integers: nil, reload: reload, help: help, flag: flag,
            inVersion: false, read: { $0[keyPath: path].map { .string($0) } ?? .null },
            write: { config, value, source throws(ConfigError) in
                if case .null = value, !source.isFlag {
                    config[keyPath: path] = nil
                    return
                }
                guard case .string(let string) = value else {
                    throw ConfigError("\(source.name) must be a string or null, not \(source.describe(value))")
                }
                guard !string.isEmpty else {
                    throw ConfigError(
                        source.isFlag ? "\(source.name) needs a non-empty path" : "\(source.name) must not be empty")
                }
                config[keyPath: path] = string
            }, copy: { $1[keyPath: path] = $0[keyPath: path] })
    }

    /// Permission bits as an octal string, `"0600"`.
    static func mode(
        _ name: StaticString, _ path: WritableKeyPath<Config, UInt32>, help: String
    ) -> ConfigKey {
        nonisolated(unsafe) let path = path
        return ConfigKey(
            name: name, type: "octal string", range: "\"0\"–\"0777\"", integers: nil, reload: .atNextStart,
            help: help, flag: nil, inVersion: false,
            read: { config in
                let digits = String(config[keyPath: path], radix: 8)
                return .string(String(repeating: "0", count: max(0, 4 - digits.count)) + digits)
            },
            write: { config, value, source throws(ConfigError) in
                guard case .string(let text) = value, !text.isEmpty, text.count <= 4,
                    let mode = UInt32(text, radix: 8)
                else {
                    throw ConfigError(
                        "\(source.name) must be an octal string such as \"0600\", not \(source.describe(value))")
                }
                guard mode & ~0o777 == 0 else { throw ConfigError("\(source.name) \(text) has bits outside 0777") }
                config[keyPath: path] = mode
            }, copy: { $1[keyPath: path] = $0[keyPath: path] })
    }

    /// Users or groups: names, or numeric ids (kept as decimal text).
    static func principals(
        _ name: StaticString, _ path: WritableKeyPath<Config, [String]>, help: String
    ) -> ConfigKey {
        nonisolated(unsafe) let path = path
        return ConfigKey(
            name: name, type: "array of names or ids", range: nil, integers: nil, reload: .immediately, help: help,
            flag: nil, inVersion: false, read: { .array($0[keyPath: path].map { .string($0) }) },
            write: { config, value, source throws(ConfigError) in
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
                config[keyPath: path] = result
            }, copy: { $1[keyPath: path] = $0[keyPath: path] })
    }

    /// One of an enumeration's raw values.
    static func choice<Value: RawRepresentable & CaseIterable & Sendable & Equatable>(
        _ name: StaticString, _ path: WritableKeyPath<Config, Value>, reload: Reload, flag: Flag? = nil,
        help: String
    ) -> ConfigKey where Value.RawValue == String {
        nonisolated(unsafe) let path = path
        let names = Value.allCases.map(\.rawValue)
        return ConfigKey(
            name: name, type: "string", range: "one of " + names.map { "`\"\($0)\"`" }.joined(separator: ", "),
            integers: nil,
            reload: reload, help: help, flag: flag, inVersion: false, read: { .string($0[keyPath: path].rawValue) },
            write: { config, value, source throws(ConfigError) in
                guard case .string(let text) = value, let chosen = Value(rawValue: text) else {
                    let known = names.map { source.isFlag ? $0 : "\"\($0)\"" }.joined(separator: ", ")
                    throw ConfigError("\(source.name) must be one of \(known), not \(source.describe(value))")
                }
                config[keyPath: path] = chosen
            }, copy: { $1[keyPath: path] = $0[keyPath: path] })
    }

    /// `true` or `false`.
    static func boolean(
        _ name: StaticString, _ path: WritableKeyPath<Config, Bool>, reload: Reload, flag: Flag? = nil,
        help: String
    ) -> ConfigKey {
        nonisolated(unsafe) let path = path
        return ConfigKey(
            name: name, type: "boolean", range: nil, integers: nil, reload: reload, help: help, flag: flag,
            inVersion: false, read: { .bool($0[keyPath: path]) },
            write: { config, value, source throws(ConfigError) in
                guard case .bool(let flag) = value else {
                    throw ConfigError("\(source.name) must be true or false, not \(source.describe(value))")
                }
                config[keyPath: path] = flag
            }, copy: { $1[keyPath: path] = $0[keyPath: path] })
    }

    // MARK: Private

    /// A number's value (the reader never gives NaN or infinity), or nil for anything else.
    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let n): Double(n)
        case .double(let d): d
        default: nil
        }
    }
}
