import Foundation
import Testing
import WaterfallTestSupport

@testable import WaterfallServer

/// Flags: both spellings, refusals, and their precedence over the config file.
@Suite struct CommandLineOptionsTests {
    @Test func parsesEveryFlagInBothSpellings() throws {
        let spaced = try CommandLineOptions.parse(["--socket", "/s", "--config", "/c", "--log-level", "debug"])
        let joined = try CommandLineOptions.parse(["--socket=/s", "--config=/c", "--log-level=debug"])
        #expect(spaced == joined)
        #expect(spaced.socket == "/s")
        #expect(spaced.configPath == "/c")
        #expect(spaced.logLevel == .debug)
        #expect(try CommandLineOptions.parse(["--help"]).showHelp)
        #expect(try CommandLineOptions.parse(["-h"]).showHelp)
        #expect(try CommandLineOptions.parse(["--version"]).showVersion)
        #expect(try CommandLineOptions.parse([]) == CommandLineOptions())
        let state = try CommandLineOptions.parse(["--state-dir", "/d", "--ephemeral", "--repair"])
        #expect(state == (try CommandLineOptions.parse(["--state-dir=/d", "--ephemeral", "--repair"])))
        #expect(state.stateDirectory == "/d")
        #expect(state.ephemeral)
        #expect(state.repair)
    }

    @Test(arguments: [
        ["--bogus"], ["extra"], ["--socket"], ["--log-level", "loud"], ["--socket", "--help"], ["--help=1"],
        ["--state-dir"], ["--state-dir="], ["--ephemeral=yes"], ["--repair=1"],
    ])
    func refusesBadArguments(arguments: [String]) {
        #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse(arguments) }
    }

    @Test(arguments: [
        ("--sokcet=/s", "unknown argument '--sokcet=/s'; did you mean '--socket'?"),
        ("--loglevel", "unknown argument '--loglevel'; did you mean '--log-level'?"),
        ("--bogus", "unknown argument '--bogus'"),
    ])
    func anUnknownFlagSuggestsTheNearest(argument: String, message: String) {
        let error = #expect(throws: CommandLineOptions.UsageError.self) { try CommandLineOptions.parse([argument]) }
        #expect(error?.message == message)
    }

    @Test func flagsOverrideTheConfigFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let file = directory + "/c.json"
        try
            #"{"socket": "/from/file", "logLevel": "error", "maxConnections": 7, "stateDirectory": "/file/state", "fsync": "always"}"#
            .write(toFile: file, atomically: false, encoding: .utf8)
        let options = try CommandLineOptions.parse([
            "--config", file, "--socket", "/from/flag", "--state-dir", "/flag/state", "--ephemeral",
        ])
        let config = try options.loadConfig()
        #expect(config.socket == "/from/flag")
        #expect(config.stateDirectory == "/flag/state")
        #expect(config.ephemeral)
        #expect(config.fsync == .always)
        #expect(config.logLevel == .error)
        #expect(config.maxConnections == 7)
    }

    @Test func usageListsEveryFlagAndTheSocket() {
        let text = CommandLineOptions.usage(program: "waterfalld", resolvedSocket: "/run/w.sock")
        for flag in [
            "--socket", "--config", "--log-level", "--state-dir", "--ephemeral", "--repair", "--version", "--help",
            "/run/w.sock",
        ] {
            #expect(text.contains(flag))
        }
    }
}
