import Foundation
import Testing
import WaterfallTestSupport

/// The shipped units must pass `systemd-analyze verify` silently (it exits 0 even on a misspelled key, so the
/// test checks that it prints nothing).
@Suite(.tags(.process, .tool)) struct SystemdUnitTests {
    @Test(.enabled(if: ChildProcess.which("systemd-analyze") != nil, "systemd-analyze is missing"))
    func unitsVerifyWithoutAWord() async throws {
        let daemon = try #require(DaemonProcess.builtDaemon, "the built waterfalld is missing")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        // verify needs ExecStart's binary to exist: point it at the one just built.
        let socket = try String(contentsOf: root.appendingPathComponent("systemd/waterfalld.socket"), encoding: .utf8)
        let service = try String(contentsOf: root.appendingPathComponent("systemd/waterfalld.service"), encoding: .utf8)
            .replacingOccurrences(of: "/usr/local/bin/waterfalld", with: daemon)
        try socket.write(toFile: directory + "/waterfalld.socket", atomically: false, encoding: .utf8)
        try service.write(toFile: directory + "/waterfalld.service", atomically: false, encoding: .utf8)
        let verify = try ChildProcess(
            try #require(ChildProcess.which("systemd-analyze")),
            ["verify", directory + "/waterfalld.socket", directory + "/waterfalld.service"],
            environment: [:])
        let status = await verify.waitForExit(within: 30)?.status
        #expect(status == 0)
        #expect(verify.standardOutput + verify.standardError == "")
    }

    /// `systemd-analyze security` rates the shipped service, state directory and all, at an overall
    /// exposure of 0.4, and flags only four settings (the host's root directory, local sockets,
    /// other users, the rtc device: a daemon serving a Unix socket to other users' processes needs those).
    @Test(.enabled(if: ChildProcess.which("systemd-analyze") != nil, "systemd-analyze is missing"))
    func serviceIsAsHardenedAsBeforeItKeptState() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let analyze = try ChildProcess(
            try #require(ChildProcess.which("systemd-analyze")),
            [
                "security", "--offline=yes", "--no-pager",
                root.appendingPathComponent("systemd/waterfalld.service").path,
            ],
            environment: [:])
        #expect(await analyze.waitForExit(within: 60)?.status == 0)
        let lines = (analyze.standardOutput + analyze.standardError).split(separator: "\n")
        let overall = lines.first { $0.contains("Overall exposure level") }
        let level = overall.flatMap { line in
            line.split(separator: " ").compactMap { Double($0) }.first
        }
        #expect(try #require(level, "\(lines.suffix(3))") <= 0.4, "\(overall ?? "")")
        let flagged = lines.filter { $0.hasPrefix("✗") }.map { $0.split(separator: " ")[1] }.sorted()
        #expect(
            flagged == [
                "DeviceAllow=", "PrivateUsers=", "RestrictAddressFamilies=~AF_UNIX", "RootDirectory=/RootImage=",
            ],
            "\(flagged)")
    }
}
