import Testing
import WaterfallServerTestSupport
import WaterfallWire

@testable import WaterfallProtocol
@testable import WaterfallServer
@testable import WaterfallWire

/// The decoder's pool of item arrays (`ItemBuffers`) and a connection's parse buffers are let go once a client that
/// streamed large inserts pauses and its last lines are decoded, so an idle daemon holds none of them.
@Suite(.tags(.server), .serialized) struct ItemPoolTests {
    @Test func anIdleClientLeavesNoSpareItemArrays() async throws {
        let server = try await InProcessDaemon.start { $0.ephemeral = true }
        let client = try TestClient(path: server.path)
        try await client.write(
            #"{"id":0,"method":"layout.create","params":{"layout":"p","width":600,"sections":[{}],"diff":false}}"#
                + "\n")
        _ = try await client.readLines(1)
        let items = (0..<3_000).map { #"{"h":\#($0 % 97 + 10)}"# }.joined(separator: ",")
        let inserts = (1...8).map { k in
            #"{"id":\#(k),"method":"items.insert","params":{"layout":"p","section":0,"at":0,"items":[\#(items)],"#
                + #""diff":false}}"#
        }
        // One write: the connection decodes several ahead of the visits, filling the pool.
        try await client.write(inserts.joined(separator: "\n") + "\n")
        let replies = try await client.readLines(8)
        #expect(replies.allSatisfy { $0.contains(#""result""#) })
        #expect(ItemBuffers.spareCount == 0)
        client.closeNow()
        await server.stop()
    }

    @Test func aPausedSessionKeepsSmallParseBuffersOnly() async throws {
        let service = LayoutService(config: Config(), logger: Logger(level: .error) { _ in }, transport: .init())
        let connection = EmbeddedConnection()
        let session = try #require(service.openSession(peer: connection.peer, output: connection) as? ClientSession)
        connection.attach(session)
        connection.receive(
            #"{"id":0,"method":"layout.create","params":{"layout":"p","width":600,"sections":[{}],"diff":false}}"#
                + "\n")
        let items = (0..<10_000).map { #"{"h":\#($0 % 97 + 10)}"# }.joined(separator: ",")
        // Two reads: the first ends inside the line, so its buffers are still held when it is parsed.
        let insert =
            #"{"id":1,"method":"items.insert","params":{"layout":"p","section":0,"at":0,"items":[\#(items)]}}"#
        connection.receive(String(insert.prefix(50_000)))
        connection.receive(String(insert.dropFirst(50_000)) + "\n")
        await connection.idle()
        #expect(connection.readOutput().contains(#""id":1,"result""#))
        #expect(session.parseBufferBytes <= 256 * 1024)
        #expect(ItemBuffers.spareCount == 0)
        service.close()
    }
}
