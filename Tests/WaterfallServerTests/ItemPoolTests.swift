import Testing

@testable import WaterfallProtocol

/// The decoder's pool of item arrays (`ItemBuffers`) is let go once a client that streamed large inserts pauses and
/// its last lines are decoded, so an idle daemon holds none of them (measured: 2–4 bytes per item of a
/// million-item layout otherwise).
@Suite(.serialized) struct ItemPoolTests {
    @Test func anIdleClientLeavesNoSpareItemArrays() async throws {
        let server = try await ServiceServer.start { $0.ephemeral = true }
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
}
