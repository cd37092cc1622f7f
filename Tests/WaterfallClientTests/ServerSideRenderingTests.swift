import Foundation
import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallTestSupport

/// The server-side rendering example (`Examples/render-feed.mjs`, shown in the ServerSideRendering article) run
/// with Node.js against the daemon; its page is then checked in Chromium as the `layout.css` browser test checks
/// its own. Skipped without `node` on `PATH` (CI installs it).
@Suite(.tags(.server, .browser, .tool), .serialized, .enabled(if: Node.path != nil, "needs node on PATH"))
struct ServerSideRenderingTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let script = packageRoot + "/Examples/render-feed.mjs"

    @Test func theScriptWritesAPageThatChromiumLaysOutAsTheDaemonDoes() async throws {
        try await InProcessDaemon.with { daemon in
            let output = daemon.directory + "/feed.html"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Node.path ?? "/usr/bin/node")
            process.arguments = [Self.script, daemon.path, output]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "node exited with \(process.terminationStatus): \(printed)")
            #expect(printed.hasPrefix("\(output): ") && printed.contains(" pieces, "))
            let html = try String(contentsOfFile: output, encoding: .utf8)
            guard Chromium.path != nil else { return }

            // The page's stylesheet and container, at many widths, against fresh layouts of what the script made.
            let style = try #require(Self.between(html, "<style>\n", "</style>"))
            let elements = try #require(Self.between(html, "<div class=\"feed\">\n", "</div>\n</body>"))
            let client = try await WaterfallClient.connect(to: daemon.path)
            let spec = try await client.export("ssr-feed").spec
            var page = StyledContainers()
            page.style = style
            var rng = SplitMix64(seed: 18)
            let widths = try StyledContainers.widths(
                spec, minWidth: 320, maxWidth: 1920, firstItems: 24, random: 30, &rng)
            for width in widths {
                try await page.add(
                    client, spec: spec, firstItems: 24, width: width, className: "feed", elements: elements,
                    label: "render-feed.mjs")
            }
            let (worst, boxes) = try page.check()
            #expect(boxes == widths.count * 25, "\(boxes) boxes")
            print("ServerSideRenderingTests: \(boxes) boxes at \(widths.count) widths, largest difference \(worst) px")
        }
    }

    /// The article shows the script as it is, line for line.
    @Test func theArticleShowsTheScript() throws {
        let script = try String(contentsOfFile: Self.script, encoding: .utf8)
        let article = try String(
            contentsOfFile: Self.packageRoot
                + "/Sources/WaterfallProtocol/WaterfallProtocol.docc/ServerSideRendering.md",
            encoding: .utf8)
        let shown = script.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        #expect(article.contains(shown), "ServerSideRendering.md does not show Examples/render-feed.mjs as it is")
    }

    static func between(_ text: String, _ start: String, _ end: String) -> String? {
        guard let a = text.range(of: start), let b = text.range(of: end, range: a.upperBound..<text.endIndex) else {
            return nil
        }
        return String(text[a.upperBound..<b.lowerBound])
    }
}
