import Testing
import WaterfallServerTestSupport
import WaterfallTestSupport

/// waterfallctl on pinned headers (the Geometry article's pinned example: two sections, headers of 40 pinned by the
/// defaults), run in-process against the real daemon.
@Suite(.tags(.server)) struct PinnedHeaderCtlTests {
    /// `waterfallctl get` names a pinned header's pinMaxY, and `query` a pinned header, in the ID column.
    @Test func waterfallctlShowsPins() async throws {
        try await InProcessDaemon.with { daemon in
            let created = await CommandTests.run(
                [
                    "layout.create", "pins", "--width", "300", "--defaults", #"{"headerHeight":40,"pinHeader":true}"#,
                    "--sections", #"[{"insets":{"bottom":10},"items":[{"h":100},{"h":60}]},{"items":[{"h":50}]}]"#,
                ], socket: daemon.path)
            #expect(created.status == .success, "\(created.err)")
            let get = await CommandTests.run(["get", "pins"], socket: daemon.path)
            #expect(
                get.out == """
                    # seq 1, content 300 × 240
                    KIND     SECTION  I    X    Y    W    H  ID
                    section        0  -    0    0  300  150  2 items
                    header         0  -    0    0  300   40  pinMaxY 110
                    item           0  0    0   40  145  100
                    item           0  1  155   40  145   60
                    section        1  -    0  150  300   90  1 item
                    header         1  -    0  150  300   40  pinMaxY 200
                    item           1  0    0  190  145   50

                    """)
            let query = await CommandTests.run(["query", "pins", "--rect", "0,120,300,100"], socket: daemon.path)
            #expect(
                query.out == """
                    # seq 1, content 300 × 240
                    KIND    SECTION  I  X    Y    W    H  ID
                    header        0  -  0  110  300   40  pinned
                    item          0  0  0   40  145  100
                    header        1  -  0  150  300   40
                    item          1  0  0  190  145   50

                    """)
        }
    }
}
