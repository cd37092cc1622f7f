import Testing
import WaterfallClient
import WaterfallCommandLine
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport

/// waterfallctl on a layout at several widths (`--width`), on a horizontal layout (tables in screen terms) and
/// `neighbors`, run in-process against the real daemon.
@Suite(.tags(.server)) struct WidthsCtlTests {
    /// The Widths article's feed: four items at 375 (two columns) and 820 (four).
    static let feed = #"""
        {"layout":"feed","widths":[375,820],"defaults":{"minColumnWidth":180},"sections":[{"items":[{"h":100},{"h":50},{"h":80},{"h":60}]}]}
        """#

    /// A horizontal strip 300 high: a section 132.5 along x (a pinned 20-wide header and a 112.5-wide item), then
    /// one of a 10-wide item.
    static let strip = #"""
        {"layout":"strip","width":300,"axis":"horizontal","sections":[{"headerHeight":20,"pinHeader":true,"items":[{"h":112.5}]},{"items":[{"h":10}]}]}
        """#

    static func run(_ arguments: [String], socket: String, input: String = "") async -> (
        status: WaterfallCtl.ExitStatus, out: String, err: String, files: [String: String]
    ) {
        await CommandTests.run(arguments, socket: socket, input: input)
    }

    @Test func getAndQueryTakeTheLayoutWidth() async throws {
        try await InProcessDaemon.with { daemon in
            let p = daemon.path
            #expect(await Self.run(["call", "layout.create", Self.feed], socket: p).status == .success)
            let get = await Self.run(["get", "feed", "--width", "820"], socket: p)
            #expect(get.err == "")
            #expect(
                get.out == """
                    # seq 1, content 820 × 100
                    KIND     SECTION  I      X  Y      W    H  ID
                    section        0  -      0  0    820  100  4 items
                    item           0  0      0  0  197.5  100
                    item           0  1  207.5  0  197.5   50
                    item           0  2    415  0  197.5   80
                    item           0  3  622.5  0  197.5   60

                    """)
            let first = await Self.run(["get", "feed"], socket: p)
            #expect(first.out.hasPrefix("# seq 1, content 375 × 170\n"))
            let json = await Self.run(["--json", "get", "feed", "--width=820"], socket: p)
            let jsonResult = try JSONValue(parsing: json.out)
            #expect(jsonResult["contentSize"] == ["w": 820, "h": 100])

            let query = await Self.run(["query", "feed", "--rect", "0,60,820,10", "--width", "820"], socket: p)
            #expect(query.err == "")
            #expect(
                query.out == """
                    # seq 1, content 820 × 100
                    KIND  SECTION  I    X  Y      W    H  ID
                    item        0  0    0  0  197.5  100
                    item        0  2  415  0  197.5   80

                    """)
            let queryJSON = await Self.run(
                ["--json", "query", "feed", "--rect", "0,60,820,10", "--width", "820"], socket: p)
            let queryJSONResult = try JSONValue(parsing: queryJSON.out)
            #expect(queryJSONResult["contentSize"] == ["w": 820, "h": 100])

            // A width the layout does not have is the daemon's error, naming it; a width that is no number is
            // bad usage.
            let missing = await Self.run(["get", "feed", "--width", "500"], socket: p)
            #expect(missing.status == .daemonError && missing.err.contains("params.width: 500 is not a width"))
            let bad = await Self.run(["query", "feed", "--rect", "0,0,1,1", "--width", "wide"], socket: p)
            #expect(bad.status == .usage)
            #expect(bad.err.hasPrefix("waterfallctl: --width: 'wide' is not a width (a number > 0)"))
        }
    }

    @Test func neighborsPrintsEachSideAtTheWidth() async throws {
        try await InProcessDaemon.with { daemon in
            let p = daemon.path
            _ = await Self.run(["call", "layout.create", Self.feed], socket: p)
            let wide = await Self.run(["neighbors", "feed", "--item", "0,0", "--width", "820"], socket: p)
            #expect(wide.err == "")
            #expect(
                wide.out == """
                    SIDE   KIND  SECTION  I      X  Y      W   H  ID
                    above  none
                    below  none
                    left   none
                    right  item        0  1  207.5  0  197.5  50

                    """)
            let narrow = await Self.run(["--json", "neighbors", "feed", "--item", "0,0"], socket: p)
            let narrowResult = try JSONValue(parsing: narrow.out)
            #expect(narrowResult["below"]?["i"] == 3)
            let bad = await Self.run(["neighbors", "feed", "--item", "0"], socket: p)
            #expect(bad.status == .usage && bad.err.contains("--item: '0' is not S,I"))
        }
    }

    /// A horizontal layout's sections are bands along x, its pinned header's bound is `pinMaxX`.
    @Test func getOfAHorizontalLayoutIsInScreenTerms() async throws {
        try await InProcessDaemon.with { daemon in
            let p = daemon.path
            #expect(await Self.run(["call", "layout.create", Self.strip], socket: p).status == .success)
            let get = await Self.run(["get", "strip"], socket: p)
            #expect(get.err == "")
            // Each section runs along x from its origin, across the strip's whole height.
            #expect(
                get.out == """
                    # seq 1, content 142.5 × 300
                    KIND     SECTION  I      X  Y      W    H  ID
                    section        0  -      0  0  132.5  300  1 item
                    header         0  -      0  0     20  300  pinMaxX 112.5
                    item           0  0     20  0  112.5  145
                    section        1  -  132.5  0     10  300  1 item
                    item           1  0  132.5  0     10  145

                    """)
        }
    }

    /// `render --image-width` sizes the picture; `--width` picks the layout's width.
    @Test func renderTakesTheImageWidthAndTheLayoutWidth() async throws {
        try await InProcessDaemon.with { daemon in
            let p = daemon.path
            _ = await Self.run(["call", "layout.create", Self.feed], socket: p)
            let render = await Self.run(["render", "feed", "--width", "820", "--image-width", "416"], socket: p)
            #expect(render.status == .success, "\(render.err)")
            #expect(render.out.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="416" "#))
            #expect(render.out.contains("feed  ·  seq 1  ·  820 × 100  ·  4 items"))
            let first = await Self.run(["render", "feed"], socket: p)
            #expect(first.out.contains("feed  ·  seq 1  ·  375 × 170  ·  4 items"))
            // A horizontal strip's pinned header slides along x, to its pinMaxX.
            _ = await Self.run(["call", "layout.create", Self.strip], socket: p)
            let strip = await Self.run(["render", "strip"], socket: p)
            #expect(strip.out.contains(">header 0 pins right to x 112.5</text>"), "\(strip.out)")
            #expect(strip.out.contains(#"<rect class="pin" x="0" y="56" width="132.5" height="300""#))
        }
    }
}
