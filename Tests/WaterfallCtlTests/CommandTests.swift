import Testing
import WaterfallClient
import WaterfallCommandLine
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport

/// waterfallctl's commands run in-process against the real daemon.
@Suite(.tags(.server)) struct CommandTests {
    static let create = #"""
        {"layout":"feed","width":375,"defaults":{"columns":2,"insets":{"left":10,"right":10}},"sections":[{"headerHeight":44,"items":[{"h":120},{"h":80},{"h":100,"id":"ad-1"}]}]}
        """#

    /// One column of six 10-point items, 100 wide.
    static let column = #"""
        {"layout":"col","width":100,"defaults":{"columns":1,"rowSpacing":0},"sections":[{"items":[{"h":10},{"h":10},{"h":10},{"h":10},{"h":10},{"h":10}]}]}
        """#

    /// Runs one command line; its exit status and output.
    static func run(
        _ arguments: [String], socket: String?, input: String = ""
    ) async -> (status: WaterfallCtl.ExitStatus, out: String, err: String, files: [String: String]) {
        let (terminal, output) = Terminal.capturing(input: input)
        let line = (socket.map { ["--socket", $0] } ?? []) + arguments
        let status = await WaterfallCtl.run(line, environment: [:], terminal: terminal)
        return (status, output.standardText, output.errorText, output.files.withLock { $0 })
    }

    @Test func aMethodIsACommandOfItsOwnName() async throws {
        try await InProcessDaemon.with { daemon in
            let p = daemon.path
            let created = await Self.run(
                [
                    "layout.create", "col", "--width", "100", "--defaults", #"{"columns":1,"rowSpacing":0}"#,
                    "--sections", #"[{"items":[{"h":10},{"h":20},{"h":30}]}]"#,
                ], socket: p)
            let createdResult = try JSONValue(parsing: created.out)
            #expect(createdResult["seq"] == 1)
            let deleted = await Self.run(["items.delete", "col", "--section", "0", "--items", "0,1"], socket: p)
            let deletedResult = try JSONValue(parsing: deleted.out)
            #expect(deletedResult["contentSize"] == ["w": 100, "h": 30])
            let listed = await Self.run(["items.get", "col", "--items", "0:0,0:0"], socket: p)
            #expect(
                listed.out == """
                    # seq 2, content 100 × 30
                    KIND  SECTION  I  X  Y    W   H  ID
                    item        0  0  0  0  100  30
                    item        0  0  0  0  100  30

                    """)
            let bad = await Self.run(["items.delete", "col", "--section", "0", "--items", "7"], socket: p)
            #expect(bad.status == .daemonError && bad.err.contains("params.items[0]"))
        }
    }

    @Test func theReadmeStepsPrintTablesAndJSON() async throws {
        try await InProcessDaemon.with { daemon in
            let p = daemon.path
            #expect(await Self.run(["ping"], socket: p).out == "pong\n")
            let created = await Self.run(["call", "layout.create", "-"], socket: p, input: Self.create)
            #expect(created.status == .success)
            let createdResult = try JSONValue(parsing: created.out)
            #expect(createdResult["seq"] == 1)
            #expect(
                await Self.run(["list"], socket: p).out
                    == "LAYOUT  SECTIONS  ITEMS  SEQ  WIDTHS\nfeed           1      3    1  375\n")
            let get = await Self.run(["get", "feed"], socket: p)
            #expect(get.err == "")
            #expect(
                get.out == """
                    # seq 1, content 375 × 234
                    KIND     SECTION  I      X    Y      W    H  ID
                    section        0  -      0    0    375  234  3 items
                    header         0  -      0    0    375   44
                    item           0  0     10   44  172.5  120
                    item           0  1  192.5   44  172.5   80
                    item           0  2  192.5  134  172.5  100  ad-1

                    """)
            let query = await Self.run(["query", "feed", "--rect", "0,150,375,10"], socket: p)
            #expect(query.out.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ")[2] } == ["0", "2"])
            let json = await Self.run(["--json", "get", "feed", "--sections", "0"], socket: p)
            let jsonResult = try JSONValue(parsing: json.out)
            #expect(jsonResult["seq"] == 1)
            let stats = await Self.run(["stats"], socket: p)
            #expect(stats.out.hasPrefix("COUNTER") && stats.out.contains("\nconnections.open "))
            // A method's latency buckets are rows with their bounds, not an array.
            #expect(stats.out.contains("\nmethods.layout.create.buckets ≤ ") && !stats.out.contains("["))
            let metrics = await Self.run(["metrics"], socket: p)
            #expect(metrics.out.hasPrefix("# HELP waterfalld_requests_total "))
            #expect(metrics.out.contains(#"waterfalld_layout_seq{layout="feed"} 1"#))
        }
    }

    /// `css` writes layout.css's stylesheet; `html` a page holding it and one box per element; both need a range.
    @Test func cssAndHTMLWriteTheStylesheetAndAPage() async throws {
        try await InProcessDaemon.with { daemon in
            let p = daemon.path
            _ = await Self.run(["call", "layout.create", "-"], socket: p, input: Self.create)
            let css = await Self.run(["css", "feed", "--min", "300", "--max", "600", "--selector", "#feed"], socket: p)
            #expect(css.status == .success)
            #expect(css.out.hasPrefix("#feed{container-type:inline-size;"))
            #expect(css.out.contains(">.s0{") && css.out.contains("&.i2{"))
            let page = await Self.run(
                ["html", "feed", "--min", "300", "--max", "600", "--items", "2", "--output", "feed.html"], socket: p)
            #expect(page.status == .success && page.out.isEmpty)
            let html = page.files["feed.html"] ?? ""
            #expect(html.contains("<div class=\"s0 h\" style=\"background:#ccc\"></div>"))
            #expect(html.contains("<div class=\"s0 i1\" "))
            #expect(!html.contains("s0 i2"))
            #expect(html.contains(".waterfall{container-type:inline-size;"))
            let usage = await Self.run(["css", "feed", "--max", "600"], socket: p)
            #expect(usage.status == .usage && usage.err.hasPrefix("waterfallctl: css needs --min PX (try"))
            let refused = await Self.run(["css", "feed", "--min", "600", "--max", "300"], socket: p)
            #expect(
                refused.err
                    == "waterfallctl: bad_params: params.maxWidth: 300 must be a number ≥ minWidth (600) and ≤ 100000\n"
            )
        }
    }

    @Test func errorsExitWithTheirStatusAndNameWhatFailed() async throws {
        try await InProcessDaemon.with { daemon in
            let missing = await Self.run(["get", "nope"], socket: daemon.path)
            #expect(missing.status == .daemonError && missing.out.isEmpty)
            #expect(missing.err == "waterfallctl: not_found: params.layout: layout 'nope' does not exist\n")
            let unknown = await Self.run(["call", "no.such"], socket: daemon.path)
            #expect(unknown.status == .daemonError && unknown.err.hasPrefix("waterfallctl: unknown_method: "))
            let badJSON = await Self.run(["call", "ping", "{nope"], socket: daemon.path)
            #expect(badJSON.status == .usage && badJSON.err.hasPrefix("waterfallctl: PARAMS: not JSON"))
            let badRect = await Self.run(["query", "feed", "--rect", "1,2"], socket: daemon.path)
            #expect(badRect.status == .usage)
            #expect(
                badRect.err
                    == "waterfallctl: --rect: '1,2' is not X,Y,W,H (four numbers, W and H ≥ 0) (try 'waterfallctl help query')\n"
            )
        }
        let gone = await Self.run(["ping"], socket: "/tmp/waterfallctl-test-none.sock")
        #expect(gone.status == .connection)
        #expect(
            gone.err.hasPrefix("waterfallctl: cannot_connect: cannot connect to /tmp/waterfallctl-test-none.sock: "))
        #expect(
            gone.err.contains(
                "; is waterfalld running? To use another socket, pass --socket PATH or set WATERFALLD_SOCKET"))
        // Bad usage is status 2 before any connection is tried.
        #expect(await Self.run(["get", "feed", "--sections", "x"], socket: "/tmp/none.sock").status == .usage)
    }

    /// `describe` prints the daemon's document whole, or one method as text; an unknown method is bad usage.
    @Test func describePrintsTheDocumentOrOneMethod() async throws {
        try await InProcessDaemon.with { daemon in
            let whole = await Self.run(["describe"], socket: daemon.path)
            #expect(whole.status == .success)
            let document = try JSONValue(parsing: whole.out)
            #expect(document["openrpc"] == "1.3.2")
            let one = await Self.run(["describe", "items.insert"], socket: daemon.path)
            #expect(one.status == .success)
            #expect(one.out.hasPrefix("items.insert: "))
            // Names are padded to the longest param's, so the spaces between depend on the other params.
            #expect(
                one.out.split(separator: "\n").contains {
                    $0.hasPrefix("  section ") && $0.hasSuffix(" integer 0…2147483647, required: the section")
                })
            #expect(one.out.contains("\n  --> {\"id\":1,\"method\":\"items.insert\""))
            let json = await Self.run(["describe", "ping", "--json"], socket: daemon.path)
            #expect(try JSONValue(parsing: json.out)["name"] == "ping")
            let unknown = await Self.run(["describe", "nope"], socket: daemon.path)
            #expect(unknown.status == .usage && unknown.err.contains("no method named 'nope'"))
            let misspelt = await Self.run(["describe", "layout.craete"], socket: daemon.path)
            #expect(misspelt.err.contains("(describe lists them all); did you mean 'layout.create'?"))
        }
    }

    @Test(arguments: Command.allCases)
    func everyCommandHasHelp(_ command: Command) async {
        let viaHelp = await Self.run(["help", command.rawValue], socket: nil)
        let viaFlag = await Self.run([command.rawValue, "--help"], socket: nil)
        #expect(viaHelp.status == .success && viaHelp.out == viaFlag.out)
        #expect(
            viaHelp.out.hasPrefix(
                "usage: waterfallctl [--socket PATH] [--json] [--exact] [--timeout S] \(command.rawValue)"))
        for option in command.options { #expect(viaHelp.out.contains("\n  \(option.synopsis)  ")) }
        let overview = await Self.run(["--help"], socket: nil)
        #expect(overview.out.contains("\n  \(command.rawValue) "))
    }

    /// Three columns in 335 points without spacing are 111.666… wide: two decimals in tables, every digit with --exact, the daemon's
    /// own text with --json.
    @Test func tablesRoundNumbersUnlessExact() async throws {
        try await InProcessDaemon.with { daemon in
            let create =
                #"{"layout":"thirds","width":335,"sections":[{"columns":3,"columnSpacing":0,"items":[{"h":10.125},{"h":20}]}]}"#
            _ = await Self.run(["call", "layout.create", create], socket: daemon.path)
            #expect(
                await Self.run(["get", "thirds"], socket: daemon.path).out == """
                    # seq 1, content 335 × 20
                    KIND     SECTION  I       X  Y       W      H  ID
                    section        0  -       0  0     335     20  2 items
                    item           0  0       0  0  111.67  10.12
                    item           0  1  111.67  0  111.67     20

                    """)
            #expect(
                await Self.run(["--exact", "get", "thirds"], socket: daemon.path).out == """
                    # seq 1, content 335 × 20
                    KIND     SECTION  I                   X  Y                   W       H  ID
                    section        0  -                   0  0                 335      20  2 items
                    item           0  0                   0  0  111.66666666666667  10.125
                    item           0  1  111.66666666666667  0  111.66666666666667      20

                    """)
            let query = await Self.run(["query", "thirds", "--rect", "0,0,335,5", "--exact"], socket: daemon.path)
            #expect(query.out.contains("  111.66666666666667  "))
            let json = await Self.run(["--json", "query", "thirds", "--rect", "0,0,335,5"], socket: daemon.path)
            #expect(json.out.contains(#""w":111.66666666666667"#))
        }
    }

    @Test func listNamesPrintsOneLayoutPerLine() async throws {
        try await InProcessDaemon.with { daemon in
            for name in ["b", "a"] {
                _ = await Self.run(
                    ["call", "layout.create", #"{"layout":"\#(name)","width":10}"#], socket: daemon.path)
            }
            let names = await Self.run(["list", "--names"], socket: daemon.path)
            #expect(Set(names.out.split(separator: "\n")) == ["a", "b"] && names.out.hasSuffix("\n"))
        }
    }

    @Test(arguments: CompletionScript.Shell.allCases)
    func completionPrintsTheScript(_ shell: CompletionScript.Shell) async {
        let run = await Self.run(["completion", shell.rawValue], socket: nil)
        #expect(run.status == .success && run.out == CompletionScript.script(for: shell))
    }

    @Test func completionRefusesAnUnknownShell() async {
        let run = await Self.run(["completion", "tcsh"], socket: nil)
        #expect(run.status == .usage)
        #expect(
            run.err
                == "waterfallctl: completion: 'tcsh' is not one of bash, zsh, fish (try 'waterfallctl help completion')\n"
        )
    }

    @Test(arguments: [false, true])
    func watchPrintsEachEventUntilTheLayoutIsDropped(json: Bool) async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.call(method: "layout.create", params: try JSONValue(parsing: Self.create))
            let (terminal, output) = Terminal.capturing()
            let line = ["--socket", daemon.path, "watch", "feed"] + (json ? ["--json"] : [])
            let watch = Task { await WaterfallCtl.run(line, environment: [:], terminal: terminal) }
            // The watcher says so on stderr once subscribed.
            while !output.errorText.contains("watching feed") { try await Task.sleep(for: .milliseconds(5)) }
            _ = try await client.call(
                method: "items.update", params: ["layout": "feed", "section": 0, "items": [["i": 0, "h": 90]]])
            try await client.dropLayout("feed")
            #expect(await watch.value == .success)
            guard json else {
                #expect(output.standardText == "seq 2  items.update  diff: section 0 (1 item)\nlayout feed dropped\n")
                return
            }
            let lines = try output.standardText.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
            #expect(lines.map { $0["method"] } == ["layout.changed", "layout.dropped"])
            #expect(lines.first?["params"]?["seq"] == 2 && lines.last?["params"] == ["layout": "feed"])
        }
    }

    /// `watch --viewport Y,H`: the band's elements first, then each event with the frames its scoped diff lists (item 1
    /// shrinks: items 1 and 2 move in the band [0, 25); item 3, now at 25, stays out).
    @Test(arguments: [false, true])
    func watchWithAViewportPrintsItsElementsAndWhatEachEventListsThere(json: Bool) async throws {
        try await InProcessDaemon.with { daemon in
            let client = try await WaterfallClient.connect(to: daemon.path)
            _ = try await client.call(method: "layout.create", params: try JSONValue(parsing: Self.column))
            let (terminal, output) = Terminal.capturing()
            let line = ["--socket", daemon.path, "watch", "col", "--viewport", "0,25"] + (json ? ["--json"] : [])
            let watch = Task { await WaterfallCtl.run(line, environment: [:], terminal: terminal) }
            while !output.errorText.contains("watching col") { try await Task.sleep(for: .milliseconds(5)) }
            _ = try await client.call(
                method: "items.update", params: ["layout": "col", "section": 0, "items": [["i": 1, "h": 5]]])
            try await client.dropLayout("col")
            #expect(await watch.value == .success)
            guard json else {
                #expect(
                    output.standardText == """
                        # seq 1, viewport 0 + 25, content 100 × 60
                        KIND  SECTION  I  X   Y    W   H  ID
                        item        0  0  0   0  100  10
                        item        0  1  0  10  100  10
                        item        0  2  0  20  100  10
                        seq 2  items.update  diff: section 0 (2 items)
                          item        0  1  0  10  100   5
                          item        0  2  0  15  100  10
                        layout col dropped

                        """)
                return
            }
            let lines = output.standardText.split(separator: "\n").map(String.init)
            #expect(
                lines.first
                    == #"{"method":"subscribe","result":{"seq":1,"contentSize":{"w":100,"h":60},"viewport":{"y":0,"h":25},"#
                    + #""diff":{"sections":[{"section":0,"origin":0,"height":60,"count":6,"items":[{"i":0,"x":0,"y":0,"w":100,"h":10},"#
                    + #"{"i":1,"x":0,"y":10,"w":100,"h":10},{"i":2,"x":0,"y":20,"w":100,"h":10}]}]}}}"#)
            let events = try lines.dropFirst().map { try JSONValue(parsing: $0) }
            #expect(events.map { $0["method"] } == ["layout.changed", "layout.dropped"])
            #expect(
                lines.count == 3
                    && lines[1].contains(#""items":[{"i":1,"x":0,"y":10,"w":100,"h":5},{"i":2,"x":0,"y":15,"#))
        }
    }

    @Test(arguments: ["0", "0,0", "0,-5", "x,10", "nan,10", "0,inf", "0,10,5", ""])
    func watchRefusesABadViewportNamingIt(_ text: String) async {
        let run = await Self.run(["watch", "feed", "--viewport", text], socket: "/nonexistent/socket")
        #expect(run.status == .usage)
        #expect(
            run.err
                == "waterfallctl: --viewport: '\(text)' is not Y,H (two numbers, H > 0) (try 'waterfallctl help watch')\n"
        )
    }

    @Test func renderWritesAnSVGFile() async throws {
        try await InProcessDaemon.with { daemon in
            _ = await Self.run(["call", "layout.create", Self.create], socket: daemon.path)
            let render = await Self.run(
                ["render", "feed", "--image-width", "750", "--output", "/x/feed.svg"], socket: daemon.path)
            #expect(render.status == .success && render.out.isEmpty, "\(render.err)")
            let svg = try #require(render.files["/x/feed.svg"])
            #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" width="750" height="498.02""#))
            // Whether or not the daemon has layout.export, the comment says where the lanes came from.
            #expect(svg.contains("lanes from layout.export") || svg.contains("lanes inferred from the frames"))
            #expect(svg.contains("feed  ·  seq 1  ·  375 × 234  ·  3 items"))
            #expect(svg.components(separatedBy: #"class="item""#).count == 4)
        }
    }

    @Test func renderOfAWindowFetchesTheSectionsItShows() async throws {
        try await InProcessDaemon.with { daemon in
            // Ten sections of five 100-point items in one column: each is 540 points tall.
            let sections = (0..<10).map { _ in
                #"{"columns":1,"items":[{"h":100},{"h":100},{"h":100},{"h":100},{"h":100}]}"#
            }
            let create = #"{"layout":"tall","width":200,"sections":[\#(sections.joined(separator: ","))]}"#
            _ = await Self.run(["call", "layout.create", create], socket: daemon.path)
            let render = await Self.run(["render", "tall", "--rect", "0,1200,200,500"], socket: daemon.path)
            #expect(render.status == .success, "\(render.err)")
            #expect(render.out.contains(">section 2<") && render.out.contains(">section 3<"))
            #expect(!render.out.contains(">section 1<") && !render.out.contains(">section 4<"))
            #expect(render.out.contains("tall  ·  seq 1  ·  200 × 5400  ·  50 items"))
            #expect(render.out.contains("window x 0–200, y 1200–1700"))
        }
    }
}
