import Foundation
import Testing
import WaterfallTestSupport

/// The Python and Node.js clients of `Examples/`: the Integrating article shows the files as they are, each runs
/// its demonstration against the built daemon (create, 100 pipelined updates, 100 events on a subscribed
/// connection, a `not_found` raised with its kind, the drop event) on the socket it is given or, without one, on
/// `$WATERFALLD_SOCKET`, and each says in one line when it cannot connect.
@Suite(.tags(.process, .tool)) struct IntegratingClientTests {
    static let catalog = DocumentationArticle.packageRoot + "/Sources/WaterfallProtocol/WaterfallProtocol.docc"
    static let examples = DocumentationArticle.packageRoot + "/Examples/"

    /// Each client: its program, its file, the fence of its block in the article and its layout's name.
    static let clients = [
        ("python3", "waterfall_client.py", "```python", "py-feed"),
        ("node", "waterfall-client.mjs", "```javascript", "js-feed"),
    ]

    @Test("The article shows each client's file as it is", arguments: clients)
    func articleShowsTheFile(_ client: (String, String, String, String)) throws {
        let article = try String(contentsOfFile: Self.catalog + "/Integrating.md", encoding: .utf8)
        let file = try String(contentsOfFile: Self.examples + client.1, encoding: .utf8)
        let block = try #require(Self.block(after: client.2, in: article), "no \(client.2) block in Integrating.md")
        #expect(block == file, "Integrating.md's \(client.2) block differs from Examples/\(client.1)")
    }

    @Test(
        "The Python client runs against the daemon",
        .enabled(if: ChildProcess.which("python3") != nil, "python3 is not installed"))
    func pythonClientRuns() async throws {
        try await run(Self.clients[0], socketAsArgument: true)
        try await run(Self.clients[0], socketAsArgument: false)
        try await failToConnect(Self.clients[0])
    }

    @Test(
        "The Node.js client runs against the daemon",
        .enabled(if: ChildProcess.which("node") != nil, "node is not installed"))
    func nodeClientRuns() async throws {
        try await run(Self.clients[1], socketAsArgument: true)
        try await run(Self.clients[1], socketAsArgument: false)
        try await failToConnect(Self.clients[1])
    }

    // MARK: Private

    /// Runs the client with no argument and `$WATERFALLD_SOCKET` naming no socket: one line on stderr, exit 1.
    private func failToConnect(_ client: (String, String, String, String)) async throws {
        let program = try #require(ChildProcess.which(client.0))
        let missing = "/tmp/waterfall-no-such-dir/waterfalld.sock"
        let process = try ChildProcess(
            program, [Self.examples + client.1], environment: ["WATERFALLD_SOCKET": missing])
        let exit = await process.waitForExit(within: 30)
        #expect(exit?.status == 1)
        let lines = process.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains("cannot connect to \(missing)") == true, "\(lines)")
    }

    /// Runs the client's demonstration on a fresh daemon, naming its socket as the argument or in the environment.
    private func run(_ client: (String, String, String, String), socketAsArgument: Bool) async throws {
        let daemon = try await DaemonProcess.start(.init(arguments: ["--ephemeral"]))
        let program = try #require(ChildProcess.which(client.0))
        let process = try ChildProcess(
            program, [Self.examples + client.1] + (socketAsArgument ? [daemon.socketPath] : []),
            environment: socketAsArgument ? [:] : ["WATERFALLD_SOCKET": daemon.socketPath])
        let exit = await process.waitForExit(within: 60)
        #expect(exit?.status == 0, "\(client.0) \(client.1): \(process.standardError)")
        let expected = """
            created \(client.3), seq 1
            updated, seq 101
            events: 100 layout.changed seq 101
            error: not_found
            event: layout.dropped \(client.3)

            """
        #expect(process.standardOutput == expected)
        _ = await daemon.stop()
    }

    /// The text of the code block opened by `fence`, up to its closing fence.
    private static func block(after fence: String, in article: String) -> String? {
        guard let open = article.range(of: "\n" + fence + "\n") else { return nil }
        let rest = article[open.upperBound...]
        guard let close = rest.range(of: "\n```\n") else { return nil }
        return String(rest[..<close.lowerBound]) + "\n"
    }
}
