import Foundation
import Testing
@_spi(Package) import WaterfallJSON

@testable import WaterfallServer

/// The config keys' declarations, and everything derived from them: the README's table, the Limits article's
/// ranges, `version`'s limits, the flags, and each key's range at both ends.
@Suite struct ConfigKeyTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardized

    /// The README's configuration table is `ConfigKey.markdownTable`, between its two markers. To regenerate it
    /// after changing a declaration: `WATERFALL_RECORD_GOLDEN=1 swift test --filter ConfigKeyTests`, then read the
    /// diff and run the tests again without the variable (this test fails after recording, as golden tests do).
    @Test func theReadmeTableIsTheDeclarations() throws {
        let url = Self.root.appendingPathComponent("README.md")
        let readme = try String(contentsOf: url, encoding: .utf8)
        let begin = "<!-- config-table: generated from ConfigKey.all by ConfigKeyTests -->\n"
        let end = "<!-- /config-table -->"
        let start = try #require(readme.range(of: begin), "README lacks \(begin)")
        let stop = try #require(readme.range(of: end, range: start.upperBound..<readme.endIndex))
        let table = String(readme[start.upperBound..<stop.lowerBound])
        if ProcessInfo.processInfo.environment["WATERFALL_RECORD_GOLDEN"] == "1" {
            let updated = readme.replacingCharacters(
                in: start.upperBound..<stop.lowerBound, with: ConfigKey.markdownTable)
            try updated.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded the README's config table: read the diff, then test without WATERFALL_RECORD_GOLDEN")
            return
        }
        #expect(
            table == ConfigKey.markdownTable,
            "the README's config table differs from the declarations; WATERFALL_RECORD_GOLDEN=1 rewrites it")
    }

    /// The Limits article's table gives each key it lists the declared range.
    @Test func theLimitsArticleGivesTheDeclaredRanges() throws {
        let url = Self.root.appendingPathComponent("Sources/WaterfallProtocol/WaterfallProtocol.docc/Limits.md")
        let rows = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count >= 10)
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let key = try #require(ConfigKey.named(name), "Limits.md lists \(name), which is not a key")
            #expect(cells[2] == key.range, "Limits.md's range of \(name)")
            #expect(cells[1] == key.defaultText, "Limits.md's default of \(name)")
        }
    }

    @Test func theShippedFileHasEveryKeyInOrder() throws {
        let data = try Data(contentsOf: Self.root.appendingPathComponent("config/waterfalld.json"))
        guard case .object(let members) = try JSONValue(parsing: Array(data)[...]) else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ConfigKey.all.map(\.key))
        for (name, value) in members { #expect(value.jsonText == ConfigKey.named(name)?.defaultText, "\(name)") }
    }

    /// Every integer key takes both ends of its range and refuses one past each, naming the key, the value and
    /// the range.
    @Test(arguments: ConfigKey.all.filter { $0.integers != nil }.map(\.key))
    func integerKeysTakeTheirRangeAndNoMore(_ name: String) throws {
        let range = try #require(ConfigKey.named(name)?.integers)
        for inside in [range.lowerBound, range.upperBound] {
            #expect(throws: Never.self) { try Config.parse(Data(#"{"\#(name)": \#(inside)}"#.utf8)) }
        }
        for outside in [range.lowerBound - 1, range.upperBound + 1] {
            let error = #expect(throws: ConfigError.self) { try Config.parse(Data(#"{"\#(name)": \#(outside)}"#.utf8)) }
            #expect(error?.message.hasPrefix("\(name) \(outside) is out of range \(range.lowerBound)...") == true)
        }
    }

    @Test func itemIndicesFitTheEngine() throws {
        let error = #expect(throws: ConfigError.self) {
            try Config.parse(Data(#"{"maxItemsPerLayout": 2147483648}"#.utf8))
        }
        #expect(
            error?.message
                == "maxItemsPerLayout 2147483648 is out of range 1...2147483647 (the engine keeps item indices in 32 bits)"
        )
        #expect(try Config.parse(Data(#"{"maxItemsPerLayout": 2147483647}"#.utf8)).maxItemsPerLayout == Int(Int32.max))
    }

    /// Keys that do nothing are not declared: a file that sets one is refused like any misspelt key.
    @Test func keysThatDoNothingAreRefused() {
        let error = #expect(throws: ConfigError.self) {
            try Config.parse(Data(#"{"maxReplyItems": 2000000, "outputCloseBytes": 8388608}"#.utf8))
        }
        #expect(error?.message.hasPrefix("unknown keys 'maxReplyItems', 'outputCloseBytes'; known keys: ") == true)
    }

    @Test func versionReportsTheDeclaredLimitsInOrder() {
        var config = Config()
        config.maxColumns = 4
        let limits = config.versionLimits
        #expect(limits.map(\.key.description) == ConfigKey.all.filter(\.inVersion).map(\.key))
        #expect(limits.map(\.key.description).first == "maxLineBytes" && limits.count == 8)
        #expect(limits.first { $0.key.description == "maxColumns" }?.value == 4)
    }

    /// Every flag a key declares parses, overrides the file, and is in `--help`, as is every key.
    @Test func flagsAndHelpComeFromTheDeclarations() throws {
        let usage = CommandLineOptions.usage(program: "waterfalld", resolvedSocket: "/s")
        for (flag, key) in CommandLineOptions.flags {
            #expect(usage.contains("  \(flag.name)"), "\(flag.name) is not in --help")
            guard let key else { continue }
            let options = try CommandLineOptions.parse([flag.name] + (flag.value == nil ? [] : ["debug"]))
            let config = try options.loadConfig()
            #expect(key.differs(config, Config()), "\(flag.name) does not set \(key.key)")
        }
        for key in ConfigKey.all { #expect(usage.contains("\n  \(key.key) "), "\(key.key) is not in --help") }
    }
}
