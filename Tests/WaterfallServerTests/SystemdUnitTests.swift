import Foundation
import Testing

/// The shipped units must pass `systemd-analyze verify` silently (it exits 0 even on a misspelled key, so the
/// test checks that it prints nothing).
@Suite struct SystemdUnitTests {
    @Test(.enabled(if: DaemonProcess.which("systemd-analyze") != nil, "systemd-analyze is missing"))
    func unitsVerifyWithoutAWord() async throws {
        let daemon = try #require(DaemonProcess.daemonPath, "the built waterfalld is missing")
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
        let verify = try DaemonProcess(
            executable: try #require(DaemonProcess.which("systemd-analyze")),
            arguments: ["verify", directory + "/waterfalld.socket", directory + "/waterfalld.service"],
            environment: [:])
        let status = await verify.waitForExit(within: 30).status
        #expect(status == 0)
        #expect(verify.standardOutput() + verify.standardError() == "")
    }
}
