import Testing

@testable import WaterfallServer

/// A long line (a bulk insert's) is prepared on a thread apart from the event loop, whose other connections it
/// would hold up, and everything stays in order around it: the lines before and after it in the same
/// write, the end of input right behind it, and the reads that follow.
@Suite(.tags(.server)) struct LongLineTests {
    @Test func isPreparedApartAndAnsweredInOrder() async throws {
        let fixture = try TestServer.start()
        let client = try TestClient(path: fixture.path)
        let long = String(repeating: "x", count: TestHandler.longLineBytes + 1000)
        try await client.write("before\n" + long + "\nafter\n")
        #expect(try await client.readLines(3) == ["before", long, "after"])
        try await client.write("again\n")
        #expect(try await client.readLines(1) == ["again"])
        #expect(fixture.handler.longPreparedApart.value == 1)
        #expect(fixture.handler.longPreparedOnLoop.value == 0)
        #expect(fixture.handler.preparedOnLoop.value >= 1, "short reads are prepared on the loop")
        #expect(fixture.handler.violations.value == 0)
        await fixture.stop()
    }

    @Test func endOfInputRightBehindALongLineIsAnsweredThenClosed() async throws {
        let fixture = try TestServer.start()
        let client = try TestClient(path: fixture.path)
        let long = String(repeating: "y", count: 2 * TestHandler.longLineBytes)
        try await client.write(long + "\nlast\n")
        client.shutdownWrite()
        #expect(try await client.readToEnd() == [long, "last"])
        #expect(await eventually { fixture.handler.closed.value == 1 })
        #expect(fixture.handler.longPreparedApart.value == 1)
        #expect(fixture.handler.violations.value == 0)
        await fixture.stop()
    }

    @Test func manyLongLinesFromManyClientsStayInOrder() async throws {
        let fixture = try TestServer.start()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask {
                    let client = try TestClient(path: fixture.path)
                    let lines = (0..<6).map { k in
                        k % 2 == 0
                            ? "\(index) short \(k)"
                            : "\(index) long \(k) " + String(repeating: "z", count: TestHandler.longLineBytes)
                    }
                    async let replies = client.readLines(lines.count)
                    try await client.write(lines.joined(separator: "\n") + "\n")
                    #expect(try await replies == lines)
                }
            }
            try await group.waitForAll()
        }
        #expect(fixture.handler.longPreparedApart.value >= 4)
        #expect(fixture.handler.longPreparedOnLoop.value == 0)
        #expect(fixture.handler.violations.value == 0)
        await fixture.stop()
    }
}
