@_spi(Package) import WaterfallJSON

/// One config key, declared once: its name, type and range, default (the value `Config()` holds), whether SIGHUP
/// applies it, its help and the flag that overrides it. Loading (`Config.parse`), the flags (`CommandLineOptions`),
/// `--help`, the README's configuration table (`markdownTable`), SIGHUP's reload and `version`'s limits all read
/// `ConfigKey.all`, so a key is one entry there, the way swift-argument-parser declares an option.
package struct ConfigKey: Sendable {
    /// What a SIGHUP does with a changed value.
    package enum Reload: Sendable, Equatable {
        /// The new value applies at once.
        case immediately
        /// The old value stays until the daemon restarts (a warning says so).
        case atNextStart
    }

    /// The daemon's flag that overrides the key: `--socket PATH`, or the switch `--ephemeral`.
    package struct Flag: Sendable {
        package var name: String
        /// The value's placeholder; nil for a switch, which sets the key to `true`.
        package var value: String?
        /// One line (or a few) for `--help`.
        package var help: String
    }

    /// Who gave a value, for error messages: the config file names the key and shows JSON (`"loud"`), a flag
    /// names itself and shows the text typed (`'loud'`).
    struct Source {
        var name: String
        var isFlag: Bool

        /// `value` as its source spelled it, at most 40 bytes of it.
        func describe(_ value: JSONValue) -> String {
            switch value {
            case .array: return "an array"
            case .object: return "an object"
            case .string(let text) where isFlag: return "'\(text)'"
            default:
                let text = value.jsonText
                return text.utf8.count > 40 ? String(decoding: text.utf8.prefix(40), as: UTF8.self) + "…" : text
            }
        }
    }

    /// The key in the file: `maxColumns`. A `StaticString` so that `version` writes it without copying.
    package let name: StaticString
    /// The value's type, for the table: `integer`, `seconds`, `octal string`…
    package let type: String
    /// The values accepted, for the table (`1–1024`), or nil when the type says it all.
    package let range: String?
    /// For an integer key, the values accepted.
    package let integers: ClosedRange<Int>?
    package let reload: Reload
    /// What the key does, in Markdown, for the README's table.
    package let help: String
    package let flag: Flag?
    /// Whether `version` lists the key under `limits`: the limits a client's requests and connections meet.
    package let inVersion: Bool
    /// The key's value in a config, as JSON.
    let read: @Sendable (Config) -> JSONValue
    /// Sets the key in a config from a JSON value, checking its type and range.
    let write: @Sendable (inout Config, JSONValue, Source) throws(ConfigError) -> Void
    /// Copies the key's value from one config to another (a flag's over the file's, an old value kept by SIGHUP).
    let copy: @Sendable (Config, inout Config) -> Void

    /// The key's name as a `String`.
    package var key: String { name.description }

    /// The key's default, as the file would spell it.
    package var defaultText: String { read(Config()).jsonText }

    /// Whether `a` and `b` differ in this key.
    func differs(_ a: Config, _ b: Config) -> Bool { read(a) != read(b) }
}
