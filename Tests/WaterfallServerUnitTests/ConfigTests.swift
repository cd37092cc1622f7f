import Foundation
import Testing

@testable import WaterfallServer

/// Config files: defaults, the shipped file, and refusals that name the key and value.
@Suite struct ConfigTests {
    @Test func theShippedFileListsEveryKeyWithItsDefault() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/waterfalld.json").standardized
        let data = try Data(contentsOf: url)
        #expect(try Config.parse(data) == Config())
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(object.keys) == Set(Config.keys))
    }

    @Test func anEmptyObjectGivesTheDefaults() throws {
        let config = try Config.parse(Data("{}".utf8))
        #expect(config == Config())
        #expect(config.maxLineBytes == 16_777_216)
        #expect(config.socketMode == 0o600)
        #expect(config.shutdownTimeoutSeconds == 1.5)
        #expect(config.stateDirectory == nil)
        #expect(!config.ephemeral)
        #expect(config.fsync == .everysec)
    }

    @Test func readsEveryKindOfValue() throws {
        let text = """
            {"socket": "/run/x.sock", "socketMode": "0660", "socketGroup": "0", "allowedUsers": ["root", 0],
             "allowedGroups": [0], "logLevel": "debug", "maxLineBytes": 1024, "outputStallSeconds": 0.5,
             "stateDirectory": "/var/lib/w", "ephemeral": true, "fsync": "never"}
            """
        let config = try Config.parse(Data(text.utf8))
        #expect(config.socket == "/run/x.sock")
        #expect(config.socketMode == 0o660)
        #expect(config.socketGroup == "0")
        #expect(config.allowedUsers == ["root", "0"])
        #expect(config.allowedGroups == ["0"])
        #expect(config.logLevel == .debug)
        #expect(config.maxLineBytes == 1024)
        #expect(config.outputStallSeconds == 0.5)
        #expect(config.stateDirectory == "/var/lib/w")
        #expect(config.ephemeral)
        #expect(config.fsync == .never)
    }

    /// (file text, words the message must contain)
    static let refusals: [(String, [String])] = [
        (#"{"maxLineByte": 5}"#, ["unknown key", "'maxLineByte'"]),
        (#"{"a": 1, "b": 2}"#, ["unknown keys", "'a', 'b'"]),
        (#"{"maxConnections": "10"}"#, ["maxConnections", "\"10\""]),
        (#"{"maxConnections": true}"#, ["maxConnections", "true"]),
        (#"{"maxConnections": 1.5}"#, ["maxConnections", "1.5"]),
        (#"{"maxConnections": 0}"#, ["maxConnections", "0", "out of range"]),
        (#"{"socketMode": "999"}"#, ["socketMode", "\"999\""]),
        (#"{"socketMode": 600}"#, ["socketMode", "600"]),
        (#"{"logLevel": "verbose"}"#, ["logLevel", "\"verbose\""]),
        (#"{"allowedUsers": "root"}"#, ["allowedUsers", "\"root\""]),
        (#"{"allowedUsers": ["no-such-user-here"]}"#, ["allowedUsers", "no-such-user-here"]),
        (#"{"allowedGroups": ["no-such-group-here"]}"#, ["allowedGroups", "no-such-group-here"]),
        (#"{"socket": 5}"#, ["socket", "5"]),
        (#"{"shutdownTimeoutSeconds": -1}"#, ["shutdownTimeoutSeconds", "-1"]),
        (#"{"outputPauseBytes": 100}"#, ["outputPauseBytes", "100"]),
        (#"{"fsync": "sometimes"}"#, ["fsync", "\"sometimes\"", "\"everysec\""]),
        (#"{"ephemeral": 1}"#, ["ephemeral", "1"]),
        (#"{"stateDirectory": ""}"#, ["stateDirectory", "empty"]),
        (#"[1]"#, ["JSON object"]),
        (#"{"#, ["not valid JSON"]),
        // The protocol's own strict reader: a trailing comma, a duplicate key, each at its line and column.
        (#"{"logLevel": "info",}"#, ["not valid JSON", "unexpected '}'", "line 1, column 21"]),
        ("{\n  \"maxLayouts\": 5,\n  \"maxLayouts\": 6\n}", ["duplicate key", "maxLayouts", "line 3, column"]),
        ("{\n  \"logLevel\": info\n}", ["not valid JSON", "line 2, column 15"]),
    ]

    /// (file text, the whole message): an unknown key suggests the nearest known one, and the known keys are listed
    /// only when one has none.
    static let unknownKeys: [(String, String)] = [
        (#"{"loglevel": "info"}"#, "unknown key 'loglevel'; did you mean 'logLevel'?"),
        (#"{"maxLineByte": 5}"#, "unknown key 'maxLineByte'; did you mean 'maxLineBytes'?"),
        (
            #"{"maxLayout": 1, "loglevel": "info"}"#,
            "unknown keys 'loglevel', 'maxLayout'; did you mean 'logLevel' for 'loglevel', 'maxLayouts' for "
                + "'maxLayout'?"
        ),
        (#"{"frobnicate": 1}"#, "unknown key 'frobnicate'; known keys: " + Config.keys.joined(separator: ", ")),
        (
            #"{"loglevel": 1, "frobnicate": 1}"#,
            "unknown keys 'frobnicate', 'loglevel'; did you mean 'logLevel' for 'loglevel'?; known keys: "
                + Config.keys.joined(separator: ", ")
        ),
    ]

    @Test(arguments: unknownKeys)
    func anUnknownKeySuggestsTheNearest(text: String, message: String) {
        let error = #expect(throws: ConfigError.self) { try Config.parse(Data(text.utf8)) }
        #expect(error?.message == message)
    }

    @Test(arguments: refusals)
    func refusesWithAMessageNamingTheFault(text: String, words: [String]) {
        let error = #expect(throws: ConfigError.self) { try Config.parse(Data(text.utf8)) }
        for word in words {
            #expect(error?.message.contains(word) == true, "\(error?.message ?? "no error") lacks \(word)")
        }
    }

    @Test func namesTheFileItCannotRead() {
        let error = #expect(throws: ConfigError.self) { try Config.load(from: "/nonexistent/waterfalld.json") }
        #expect(error?.message.contains("/nonexistent/waterfalld.json") == true)
    }
}
