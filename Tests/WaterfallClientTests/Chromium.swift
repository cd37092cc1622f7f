import Foundation

/// Headless Chromium as a test oracle: `chromium` on `PATH` (which `.ci/run` installs), or the binary that
/// `WATERFALL_CHROMIUM` names; `WATERFALL_CHROMIUM=0` turns the browser tests off. Without a browser they are
/// skipped, saying so.
enum Chromium {
    static let path: String? = {
        let value = ProcessInfo.processInfo.environment["WATERFALL_CHROMIUM"] ?? "1"
        if value == "0" { return nil }
        guard value == "1" || value.isEmpty else { return value }
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }()

    /// Loads `html` (its scripts run) and returns the text of its `<pre id="out">` once loaded.
    static func output(of html: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "waterfall-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("page.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path ?? "/usr/bin/chromium")
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--enable-experimental-web-platform-features",
            "--user-data-dir=\(directory.path)/profile", "--dump-dom", page.absoluteString,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let dom = String(decoding: data, as: UTF8.self)
        guard let start = dom.range(of: "<pre id=\"out\">"),
            let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
        else { throw ChromiumError(message: "no output in Chromium's DOM: \(dom.prefix(300))") }
        return String(dom[start.upperBound..<end.lowerBound])
    }

    /// Opens `url` in a headless window of `windowSize` CSS px, which stays open until `stop()`.
    static func open(_ url: some StringProtocol, windowSize: (Int, Int)) throws -> ChildProcessLines {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "waterfall-chromium-\(UUID().uuidString)")
        return try ChildProcessLines(
            executable: path ?? "/usr/bin/chromium",
            arguments: [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)",
                "--window-size=\(windowSize.0),\(windowSize.1)", String(url),
            ])
    }

    struct ChromiumError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
