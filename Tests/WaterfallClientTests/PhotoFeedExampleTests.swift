import Foundation
import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallTestSupport

/// The photo feed example (`Examples/photo-feed`) run with Node.js against an in-process daemon and driven in
/// headless Chromium by its own measuring page: at each window width, the server's first page with its late
/// photos, the script's handover and five appended pages add up to no layout shift (the Layout Instability API's
/// `layout-shift` entries, summed as Core Web Vitals' CLS sums them), and no first-page box moves at the handover
/// by more than the stylesheet's tolerance. One frame moves a box on purpose, and its shift must be seen.
@Suite(
    .tags(.server, .browser, .tool), .serialized,
    .enabled(if: Node.path != nil && Chromium.path != nil, "needs node and chromium on PATH"))
struct PhotoFeedExampleTests {
    struct Run: Decodable {
        var width: Double
        var container: Double
        var items: Int
        var sum: Double
        var entries: Int
        var moved: Double
        var selfTest: Bool
    }

    static let widths = [320, 414, 600, 768, 1024, 1280, 1600, 1920]

    @Test func noBoxShiftsAtAnyWidth() async throws {
        let runs = try await InProcessDaemon.with { daemon in
            let server = try Node.start(
                ServerSideRenderingTests.packageRoot + "/Examples/photo-feed/server.mjs",
                ["--port", "0", "--socket", daemon.path, "--image-delay", "200"])
            defer { server.stop() }
            let address = try #require(try await server.line(startingWith: "photo feed on ", within: 20))
            let widths = Self.widths.map(String.init).joined(separator: ",")
            let browser = try Chromium.open(
                address.dropFirst("photo feed on ".count) + "measure?widths=\(widths)", windowSize: (2000, 1200))
            defer { browser.stop() }
            let report = try #require(try await server.line(startingWith: "report ", within: 120))
            return try JSONDecoder().decode([Run].self, from: Data(report.dropFirst("report ".count).utf8))
        }
        for run in runs {
            print(
                "PhotoFeedExampleTests: window \(Int(run.width)) px (container \(run.container) px)\(run.selfTest ? ", self-test" : ""): "
                    + "\(run.items) items, layout shift \(run.sum) in \(run.entries) entries, largest move at the "
                    + "handover \(run.moved) px")
            #expect(run.items == 180, "\(run.width): \(run.items) items")
            #expect(run.moved <= StyledContainers.tolerance, "\(run.width): a box moved \(run.moved) px")
            if run.selfTest {
                #expect(run.sum > 0, "the box moved on purpose was not seen")
            } else {
                #expect(run.sum == 0, "\(run.width): layout shift \(run.sum)")
            }
        }
        #expect(Set(runs.filter { !$0.selfTest }.map { Int($0.width) }) == Set(Self.widths))
        #expect(runs.contains { $0.selfTest })
    }
}
