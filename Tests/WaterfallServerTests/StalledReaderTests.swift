import Testing
@_spi(Package) import WaterfallJSON
import WaterfallServerTestSupport

@testable import WaterfallServer

/// A client that stops reading in the middle of a large reply is paused (the reply is not produced ahead of it),
/// then closed once its output makes no progress for `outputStallSeconds`; the daemon goes on serving others.
@Suite(.tags(.server)) struct StalledReaderTests {
    @Test func aClientThatStopsReadingMidReplyIsClosedAfterTheStallTime() async throws {
        let fixture = try await InProcessDaemon.start { $0.outputStallSeconds = 0.3 }
        let setup = try fixture.connect()
        let items = JSONValue.array((0..<200_000).map { JSONValue.object([("h", JSONValue.int(Int64(10 + $0 % 7)))]) })
        try await setup.result(
            "layout.create", ["layout": "big", "width": 375, "diff": false, "sections": [["items": items]]])
        let reader = try TestClient(path: fixture.path)
        try await reader.write(#"{"id":1,"method":"layout.get","params":{"layout":"big"}}"# + "\n")
        try await Task.sleep(for: .milliseconds(100))
        // Paused: what the daemon holds is bounded by outputPauseBytes and a chunk, not the ~10 MB reply.
        let connection = try #require(fixture.server.context.openConnections.first { $0.pendingBytes > 0 })
        #expect(connection.pendingBytes < Config().outputPauseBytes + 64 * 1024)
        #expect(await eventually { fixture.server.stats.connectionsClosedSlow == 1 })
        #expect(try await setup.result("ping") == ["pong": true])
        await fixture.stop()
    }
}
