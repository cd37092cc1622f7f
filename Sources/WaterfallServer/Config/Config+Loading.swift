import Foundation

/// A config that cannot be used; the message names the key and the value at fault.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, for people.
    public var message: String

    public var description: String { message }

    public init(_ message: String) { self.message = message }
}

extension Config {
    // MARK: Internal

    /// Every key the config file may hold, in the order the shipped file lists them.
    public static let keys = [
        "socket", "socketMode", "socketGroup", "allowedUsers", "allowedGroups", "logLevel", "maxLineBytes",
        "maxConnections", "maxLayouts", "maxItemsPerLayout", "maxSectionsPerLayout", "maxTotalItems", "maxColumns",
        "maxBatchOps", "maxReplyItems", "outputPauseBytes", "outputCloseBytes", "outputStallSeconds",
        "subscriberMaxPendingBytes",
        "shutdownTimeoutSeconds",
    ]

    /// Reads and validates a config file; keys it omits keep their defaults.
    public static func load(from path: String) throws(ConfigError) -> Config {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigError("cannot read config file \(path): \(Self.reason(error))")
        }
        do {
            return try parse(data)
        } catch {
            throw ConfigError("\(path): \(error.message)")
        }
    }

    /// Validates a config file's bytes; keys they omit keep their defaults.
    public static func parse(_ data: Data) throws(ConfigError) -> Config {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw ConfigError("not valid JSON: \(Self.reason(error))")
        }
        guard let fields = object as? [String: Any] else {
            throw ConfigError("the config must be a JSON object of keys, not \(Self.describe(object))")
        }
        let unknown = fields.keys.filter { !keys.contains($0) }.sorted()
        if !unknown.isEmpty {
            let names = unknown.map { "'\($0)'" }.joined(separator: ", ")
            throw ConfigError(
                "unknown key\(unknown.count == 1 ? "" : "s") \(names); known keys: \(keys.joined(separator: ", "))")
        }
        var config = Config()
        try config.apply(fields)
        try config.validate()
        return config
    }

    /// Checks relations between fields and resolves user and group names, so a bad config fails at load.
    public func validate() throws(ConfigError) {
        _ = try CredentialPolicy(config: self)
        if let socketGroup {
            _ = try SystemAccounts.groupID(named: socketGroup, key: "socketGroup")
        }
    }

    // MARK: Private

    private mutating func apply(_ fields: [String: Any]) throws(ConfigError) {
        for (key, value) in fields {
            switch key {
            case "socket": socket = try Self.optionalString(value, key: key, allowEmpty: false)
            case "socketMode": socketMode = try Self.mode(value, key: key)
            case "socketGroup": socketGroup = try Self.optionalString(value, key: key, allowEmpty: false)
            case "allowedUsers": allowedUsers = try Self.principals(value, key: key)
            case "allowedGroups": allowedGroups = try Self.principals(value, key: key)
            case "logLevel": logLevel = try Self.level(value, key: key)
            case "maxLineBytes": maxLineBytes = try Self.integer(value, key: key, in: 64...(1 << 31))
            case "maxConnections": maxConnections = try Self.integer(value, key: key, in: 1...1_000_000)
            case "maxLayouts": maxLayouts = try Self.integer(value, key: key, in: 1...100_000_000)
            case "maxItemsPerLayout": maxItemsPerLayout = try Self.integer(value, key: key, in: 1...1 << 40)
            case "maxSectionsPerLayout": maxSectionsPerLayout = try Self.integer(value, key: key, in: 1...1 << 32)
            case "maxTotalItems": maxTotalItems = try Self.integer(value, key: key, in: 1...1 << 40)
            case "maxColumns": maxColumns = try Self.integer(value, key: key, in: 1...1024)
            case "maxBatchOps": maxBatchOps = try Self.integer(value, key: key, in: 1...100_000_000)
            case "maxReplyItems": maxReplyItems = try Self.integer(value, key: key, in: 1...1 << 40)
            case "outputPauseBytes": outputPauseBytes = try Self.integer(value, key: key, in: 1024...(1 << 40))
            case "outputCloseBytes": outputCloseBytes = try Self.integer(value, key: key, in: 1024...(1 << 40))
            case "outputStallSeconds": outputStallSeconds = try Self.seconds(value, key: key, in: 0.1...86_400)
            case "subscriberMaxPendingBytes":
                subscriberMaxPendingBytes = try Self.integer(value, key: key, in: 1024...(1 << 40))
            case "shutdownTimeoutSeconds": shutdownTimeoutSeconds = try Self.seconds(value, key: key, in: 0...60)
            default: throw ConfigError("unknown key '\(key)'")
            }
        }
    }

    private static func optionalString(_ value: Any, key: String, allowEmpty: Bool) throws(ConfigError) -> String? {
        if value is NSNull { return nil }
        guard let string = value as? String, !isBool(value) else {
            throw ConfigError("\(key) must be a string or null, not \(describe(value))")
        }
        if string.isEmpty && !allowEmpty { throw ConfigError("\(key) must not be empty") }
        return string
    }

    private static func mode(_ value: Any, key: String) throws(ConfigError) -> UInt32 {
        guard let text = value as? String, !text.isEmpty, text.count <= 4, let mode = UInt32(text, radix: 8) else {
            throw ConfigError("\(key) must be an octal string such as \"0600\", not \(describe(value))")
        }
        guard mode & ~0o777 == 0 else { throw ConfigError("\(key) \(text) has bits outside 0777") }
        return mode
    }

    private static func principals(_ value: Any, key: String) throws(ConfigError) -> [String] {
        guard let array = value as? [Any] else {
            throw ConfigError("\(key) must be an array of names or numeric ids, not \(describe(value))")
        }
        var result: [String] = []
        for element in array {
            if let name = element as? String, !name.isEmpty {
                result.append(name)
            } else if let number = element as? NSNumber, !isBool(element), let id = UInt32(exactly: number.doubleValue)
            {
                result.append(String(id))
            } else {
                throw ConfigError("\(key) entries must be names or numeric ids, not \(describe(element))")
            }
        }
        return result
    }

    private static func level(_ value: Any, key: String) throws(ConfigError) -> LogLevel {
        guard let text = value as? String, let level = LogLevel(rawValue: text) else {
            let known = LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigError("\(key) must be one of \(known), not \(describe(value))")
        }
        return level
    }

    private static func integer(_ value: Any, key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int {
        guard let number = value as? NSNumber, !isBool(value), let integer = Int(exactly: number.doubleValue) else {
            throw ConfigError("\(key) must be an integer, not \(describe(value))")
        }
        guard range.contains(integer) else {
            throw ConfigError("\(key) \(integer) is out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return integer
    }

    private static func seconds(_ value: Any, key: String, in range: ClosedRange<Double>) throws(ConfigError) -> Double
    {
        guard let number = value as? NSNumber, !isBool(value), number.doubleValue.isFinite else {
            throw ConfigError("\(key) must be a number of seconds, not \(describe(value))")
        }
        let seconds = number.doubleValue
        guard range.contains(seconds) else {
            throw ConfigError("\(key) \(seconds) is out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return seconds
    }

    /// JSONSerialization hands booleans back as NSNumber; only their class tells them from 0 and 1.
    private static func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return ObjectIdentifier(type(of: number)) == ObjectIdentifier(type(of: NSNumber(value: true)))
    }

    /// A JSON value as it would be written in the file, for error messages.
    private static func describe(_ value: Any) -> String {
        if value is NSNull { return "null" }
        if isBool(value), let number = value as? NSNumber { return number.boolValue ? "true" : "false" }
        if let string = value as? String { return "\"\(string)\"" }
        if let number = value as? NSNumber { return number.stringValue }
        if value is [Any] { return "an array" }
        if value is [String: Any] { return "an object" }
        return String(describing: value)
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}
