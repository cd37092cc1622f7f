import Testing

@testable import WaterfallServer

/// Sessions driven without a socket, through `EmbeddedConnection`: the transport's rules as the daemon applies them.
@Suite(.tags(.server)) struct EmbeddedConnectionTests {
    @Test func theServiceAnswersAPipelinedReadInOrder() async throws {
        let service = LayoutService(config: Config(), logger: Logger(level: .error) { _ in }, transport: .init())
        let connection = EmbeddedConnection()
        connection.attach(service.openSession(peer: connection.peer, output: connection))
        connection.receive(#"{"id":1,"method":"ping"}"# + "\n" + #"{"id":2,"method":"ping"}"# + "\n")
        await connection.idle()
        #expect(
            connection.readOutput()
                == #"{"jsonrpc":"2.0","id":1,"result":{"pong":true}}"# + "\n"
                + #"{"jsonrpc":"2.0","id":2,"result":{"pong":true}}"# + "\n")
        connection.receiveEndOfInput()
        await connection.idle()
        #expect(connection.isClosed)
        #expect(await eventually { connection.sessionClosed })
        service.close()
    }

    /// A client that does not read holds the work of its next read (with reading suspended) until it reads down to
    /// half the pause threshold; then everything arrives, in order.
    @Test func aSessionIsHeldWhileTheClientDoesNotReadAndGoesOnWhenItDoes() async throws {
        let handler = TestHandler()
        let connection = EmbeddedConnection(
            limits: OutputLimits(pauseBytes: 1000, resumeBytes: 500, stallSeconds: 10), socketRoom: 0)
        connection.attach(handler.openSession(peer: connection.peer, output: connection))
        connection.receive("big 2000\n")
        await connection.idle()
        connection.receive("after\n")
        await connection.idle()
        #expect(handler.handleStarted.value == 1, "the second read waits while 2001 bytes are unsent")
        #expect(!connection.hasRoom)
        var received = connection.readOutput(room: 1600)
        await connection.idle()
        #expect(handler.handleStarted.value == 2)
        received += connection.readOutput()
        await connection.idle()
        received += connection.readOutput()
        #expect(received == String(repeating: "x", count: 2000) + "\nafter\n")
        #expect(handler.violations.value == 0)
    }

    @Test func eventsSentDuringAChunkedReplyFollowIt() async throws {
        let handler = TestHandler()
        let connection = EmbeddedConnection()
        connection.attach(handler.openSession(peer: connection.peer, output: connection))
        #expect(connection.sendReplies(Array("[first half".utf8), endingInsideAReply: true))
        #expect(connection.send(Array("event\n".utf8)))
        #expect(connection.sendReplies(Array(", second half]\n".utf8), endingInsideAReply: false))
        #expect(connection.readOutput() == "[first half, second half]\nevent\n")
        connection.close()
        #expect(connection.isClosed)
        #expect(!connection.send(Array("late\n".utf8)))
        #expect(await connection.waitForRoom() == false)
        #expect(await eventually { handler.closed.value == 1 })
    }
}
