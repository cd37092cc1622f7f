import Foundation
import Glibc
@_spi(Package) import WaterfallJSON
import WaterfallProtocol
import WaterfallWire

/// A config that cannot be used; the message names the key and the value at fault.
package struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, for people.
    package var message: String

    package var description: String { message }

    package init(_ message: String) { self.message = message }
}

extension Config {
    // MARK: Internal

    /// Every key the config file may hold, in the order the shipped file lists them (`ConfigKey.all`).
    package static var keys: [String] { ConfigKey.all.map(\.key) }

    /// Reads and validates a config file; keys it omits keep their defaults.
    package static func load(from path: String) throws(ConfigError) -> Config {
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
    package static func parse(_ data: Data) throws(ConfigError) -> Config {
        try parse(Array(data))
    }

    /// Validates a config file's bytes, read with the protocol's own strict reader (no duplicate keys, no trailing
    /// commas, errors at a line and column); keys they omit keep their defaults.
    package static func parse(_ bytes: [UInt8]) throws(ConfigError) -> Config {
        let object: JSONValue
        do {
            object = try JSONValue(parsing: bytes[...])
        } catch {
            throw ConfigError("not valid JSON: \(error.description(in: bytes))")
        }
        guard case .object(let members) = object else {
            throw ConfigError(
                "the config must be a JSON object of keys, not \(ConfigKey.Source(name: "", isFlag: false).describe(object))"
            )
        }
        let fields = members.map { (key: $0.key, value: $0.value) }
        let unknown = fields.map(\.key).filter { !keys.contains($0) }.sorted()
        if !unknown.isEmpty { throw unknownKeys(unknown) }
        var config = Config()
        for (name, value) in fields {
            // Known: the unknown were refused above.
            guard let key = ConfigKey.named(name) else { continue }
            try key.write(&config, value, ConfigKey.Source(name: name, isFlag: false))
        }
        try config.validate()
        return config
    }

    /// Checks relations between fields and resolves user and group names, so a bad config fails at load.
    package func validate() throws(ConfigError) {
        _ = try CredentialPolicy(config: self)
        if let socketGroup {
            _ = try SystemAccounts.groupID(named: socketGroup, key: "socketGroup")
        }
    }

    // MARK: Private

    /// The error for `unknown`, keys no entry of `ConfigKey.all` has: each with the nearest key when one is clearly
    /// nearest (`loglevel`: did you mean `logLevel`), and the known keys listed when one has none.
    private static func unknownKeys(_ unknown: [String]) -> ConfigError {
        let names = unknown.map { "'\($0)'" }.joined(separator: ", ")
        let nearest = unknown.map { NearestName.nearest(to: $0, among: keys) }
        var message = "unknown key\(unknown.count == 1 ? "" : "s") \(names)"
        let suggestions = zip(unknown, nearest).compactMap { name, near in
            near.map { unknown.count == 1 ? "'\($0)'" : "'\($0)' for '\(name)'" }
        }
        if !suggestions.isEmpty { message += "; did you mean \(suggestions.joined(separator: ", "))?" }
        if nearest.contains(nil) { message += "; known keys: \(keys.joined(separator: ", "))" }
        return ConfigError(message)
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
