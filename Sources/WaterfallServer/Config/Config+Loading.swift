import Foundation
import Glibc
import WaterfallJSON

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
        "shutdownTimeoutSeconds", "stateDirectory", "ephemeral", "fsync",
    ]

    /// Reads and validates a config file; keys it omits keep their defaults.
    public static func load(from path: String) throws(ConfigError) -> Config {
        let bytes: [UInt8]
        do {
            bytes = try readFile(path)
        } catch {
            throw ConfigError("cannot read config file \(path): \(error.message)")
        }
        do {
            return try parse(bytes)
        } catch {
            throw ConfigError("\(path): \(error.message)")
        }
    }

    /// Validates a config file's bytes; keys they omit keep their defaults.
    public static func parse(_ data: Data) throws(ConfigError) -> Config {
        try parse(Array(data))
    }

    /// Validates a config file's bytes, read with the protocol's own strict reader (no duplicate keys, no trailing
    /// commas, errors at a line and column); keys they omit keep their defaults.
    public static func parse(_ bytes: [UInt8]) throws(ConfigError) -> Config {
        let object: JSONValue
        do {
            object = try JSONValue(parsing: bytes[...])
        } catch {
            throw ConfigError("not valid JSON: \(error.description(in: bytes))")
        }
        guard case .object(let members) = object else {
            throw ConfigError("the config must be a JSON object of keys, not \(Self.describe(object))")
        }
        let fields = members.map { (key: $0.key, value: $0.value) }
        let unknown = fields.map(\.key).filter { !keys.contains($0) }.sorted()
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

    private mutating func apply(_ fields: [(key: String, value: JSONValue)]) throws(ConfigError) {
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
            case "stateDirectory": stateDirectory = try Self.optionalString(value, key: key, allowEmpty: false)
            case "ephemeral":
                guard case .bool(let flag) = value else {
                    throw ConfigError("\(key) must be true or false, not \(Self.describe(value))")
                }
                ephemeral = flag
            case "fsync":
                guard case .string(let text) = value, let policy = FsyncPolicy(rawValue: text) else {
                    let known = FsyncPolicy.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                    throw ConfigError("\(key) must be one of \(known), not \(Self.describe(value))")
                }
                fsync = policy
            default: throw ConfigError("unknown key '\(key)'")
            }
        }
    }

    private static func optionalString(
        _ value: JSONValue, key: String, allowEmpty: Bool
    ) throws(ConfigError) -> String? {
        if case .null = value { return nil }
        guard case .string(let string) = value else {
            throw ConfigError("\(key) must be a string or null, not \(describe(value))")
        }
        if string.isEmpty && !allowEmpty { throw ConfigError("\(key) must not be empty") }
        return string
    }

    private static func mode(_ value: JSONValue, key: String) throws(ConfigError) -> UInt32 {
        guard case .string(let text) = value, !text.isEmpty, text.count <= 4, let mode = UInt32(text, radix: 8) else {
            throw ConfigError("\(key) must be an octal string such as \"0600\", not \(describe(value))")
        }
        guard mode & ~0o777 == 0 else { throw ConfigError("\(key) \(text) has bits outside 0777") }
        return mode
    }

    private static func principals(_ value: JSONValue, key: String) throws(ConfigError) -> [String] {
        guard case .array(let array) = value else {
            throw ConfigError("\(key) must be an array of names or numeric ids, not \(describe(value))")
        }
        var result: [String] = []
        for element in array {
            if case .string(let name) = element, !name.isEmpty {
                result.append(name)
            } else if let number = number(element), let id = UInt32(exactly: number) {
                result.append(String(id))
            } else {
                throw ConfigError("\(key) entries must be names or numeric ids, not \(describe(element))")
            }
        }
        return result
    }

    private static func level(_ value: JSONValue, key: String) throws(ConfigError) -> LogLevel {
        guard case .string(let text) = value, let level = LogLevel(rawValue: text) else {
            let known = LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigError("\(key) must be one of \(known), not \(describe(value))")
        }
        return level
    }

    private static func integer(_ value: JSONValue, key: String, in range: ClosedRange<Int>) throws(ConfigError) -> Int
    {
        let exact: Int?
        switch value {
        case .int(let n): exact = Int(exactly: n)
        case .double(let d): exact = Int(exactly: d)
        default: exact = nil
        }
        guard let integer = exact else { throw ConfigError("\(key) must be an integer, not \(describe(value))") }
        guard range.contains(integer) else {
            throw ConfigError("\(key) \(integer) is out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return integer
    }

    private static func seconds(
        _ value: JSONValue, key: String, in range: ClosedRange<Double>
    ) throws(ConfigError) -> Double {
        guard let seconds = number(value) else {
            throw ConfigError("\(key) must be a number of seconds, not \(describe(value))")
        }
        guard range.contains(seconds) else {
            throw ConfigError("\(key) \(seconds) is out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return seconds
    }

    /// A number's value (the reader never gives NaN or infinity), or nil for anything else.
    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let n): Double(n)
        case .double(let d): d
        default: nil
        }
    }

    /// A JSON value as it would be written in the file (at most 40 bytes of it), for error messages.
    private static func describe(_ value: JSONValue) -> String {
        switch value {
        case .array: return "an array"
        case .object: return "an object"
        default:
            let text = value.jsonText
            return text.utf8.count > 40 ? String(decoding: text.utf8.prefix(40), as: UTF8.self) + "…" : text
        }
    }

    /// The whole file, or the reason (errno's text) it cannot be read.
    private static func readFile(_ path: String) throws(ConfigError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ConfigError(String(cString: strerror(errno))) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ConfigError(String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            // A config is a few KiB: refuse what is surely not one before holding it.
            guard bytes.count <= 1 << 24 else { throw ConfigError("larger than 16 MiB; not a config file") }
        }
    }
}
