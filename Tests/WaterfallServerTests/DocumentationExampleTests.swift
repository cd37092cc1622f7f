import Foundation
import Testing
import WaterfallServerTestSupport

@testable import WaterfallServer

/// The catalogs' wire examples, replayed against a fresh in-process daemon: the docs cannot drift from it.
///
/// Each article is one session on one daemon, its examples in order (an example with a `config` mark gets a
/// daemon of its own). See ``DocumentationArticle`` for the notation.
@Suite(.tags(.server)) struct DocumentationExampleTests {
    @Test(
        "Every example gets the documented replies, byte for byte",
        arguments: DocumentationArticle.all.filter {
            !$0.examples.isEmpty || !$0.malformed.isEmpty
        })
    func examplesReplay(_ article: DocumentationArticle) async throws {
        for (line, text) in article.malformed {
            Issue.record("\(article.name): not a `-->` or `<--` line: \(text)", sourceLocation: article.location(line))
        }
        var shared: ExampleSession?
        for example in article.examples {
            if let config = example.config {
                let session = try await ExampleSession(config: config)
                await replay(example, of: article, in: session)
                await session.stop()
            } else {
                let session: ExampleSession
                if let shared {
                    session = shared
                } else {
                    session = try await ExampleSession(config: nil)
                }
                shared = session
                await replay(example, of: article, in: session)
            }
        }
        await shared?.stop()
    }

    @Test("Both catalogs are found and show examples")
    func catalogsHaveExamples() {
        for catalog in ["WaterfallProtocol/WaterfallProtocol.docc", "WaterfallLayout/WaterfallLayout.docc"] {
            let articles = DocumentationArticle.all.filter { $0.relativePath.hasPrefix("Sources/\(catalog)/") }
            #expect(articles.count >= 2, "\(catalog): \(articles.map(\.relativePath))")
            #expect(articles.reduce(0) { $0 + $1.examples.count } > 0, "\(catalog) shows no wire examples")
        }
    }

    @Test("The docs and the README never point outside the repository")
    func noLinksOutside() throws {
        var files = DocumentationArticle.all.map(\.absolutePath)
        files.append(DocumentationArticle.packageRoot + "/README.md")
        // Every Markdown document the repository holds, by file name: any other one named is outside it.
        let root = DocumentationArticle.packageRoot
        var held: Set<String> = ["README.md"]
        for directory in ["Sources", "Tests", "Examples"] {
            let paths = FileManager.default.enumerator(atPath: root + "/" + directory)?.allObjects as? [String] ?? []
            for path in paths where path.hasSuffix(".md") { held.insert(String(path.split(separator: "/").last!)) }
        }
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for match in text.matches(of: /[A-Za-z0-9_-]+\.md\b/) where !held.contains(String(match.output)) {
                Issue.record("\(file) cites \(match.output), which the repository does not hold")
            }
            // A relative link must reach a file of the repository.
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            for link in text.matches(of: /\]\(([^)#\s:]+)(#[^)]*)?\)/) {
                let target = folder.appendingPathComponent(String(link.output.1)).standardizedFileURL.path
                #expect(
                    target.hasPrefix(root + "/") && FileManager.default.fileExists(atPath: target),
                    "\(file) links to \(link.output.1), which is not a file of the repository")
            }
            #expect(
                text.firstRange(of: /[Ii]ssue \d/) == nil, "\(file) cites a tracker issue, which a clone does not have")
        }
    }

    /// A picture `![…](NAME.svg)` is drawn with `waterfallctl render NAME` from the layout an example creates, so
    /// every picture must name a layout that some example of its article creates.
    @Test("Every picture is of a layout an example of its article creates")
    func picturesNameExampleLayouts() throws {
        for article in DocumentationArticle.all {
            let text = try String(contentsOfFile: article.absolutePath, encoding: .utf8)
            let requests = article.examples.flatMap(\.steps).filter { $0.direction == .send }.map(\.text)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard line.hasPrefix("!["), line.hasSuffix(".svg)"), let open = line.lastIndex(of: "(") else {
                    continue
                }
                let name = line[line.index(after: open)...].dropLast(".svg)".count)
                let creates = requests.contains {
                    $0.contains(#""method":"layout.create""#) && $0.contains(#""layout":"\#(name)""#)
                }
                #expect(
                    creates, "\(article.name): no example creates layout '\(name)' for its picture",
                    sourceLocation: article.location(number + 1))
            }
        }
    }

    @Test(
        "A documented line matches byte for byte, with … for one JSON value",
        arguments: [
            (#"{"a":1}"#, #"{"a":1}"#, nil),
            (#"{"a":1}"#, #"{"a":2}"#, 5),
            (#"{"a":1}"#, #"{"a":1,"b":2}"#, 6),
            (#"{"t":…,"n":1}"#, #"{"t":12.5,"n":1}"#, nil),
            (#"{"t":…}"#, #"{"t":{"x":[1,"}"]}}"#, nil),
            (#"{"t":…,"n":1}"#, #"{"t":"a,\"b","n":1}"#, nil),
            (#"{"t":…,"n":1}"#, #"{"t":3,"n":2}"#, 11),
            (#"{"t":…}"#, #"{"t":}"#, 5),
        ] as [(String, String, Int?)])
    func replyPattern(_ documented: String, _ actual: String, _ offset: Int?) {
        #expect(ReplyPattern(documented).firstDifference(in: actual)?.actualOffset == offset)
    }

    // MARK: Private

    /// Runs one example; a pending one's mismatches are known issues, and its full match an issue.
    private func replay(
        _ example: DocumentationArticle.Example, of article: DocumentationArticle, in session: ExampleSession
    ) async {
        if let reason = example.pending {
            await withKnownIssue(
                Comment(rawValue: "\(article.name) example \(example.number) is marked pending: \(reason)"),
                sourceLocation: article.location(example.line)
            ) {
                try await run(example, of: article, in: session)
            }
        } else {
            do {
                try await run(example, of: article, in: session)
            } catch {
                Issue.record(
                    "\(article.name) example \(example.number): \(error)",
                    sourceLocation: article.location(example.line))
            }
        }
    }

    /// Sends and reads the example's lines in order. After a difference it only sends the rest (so that the
    /// next examples find the state the article describes) and skips what comes back; otherwise it checks that
    /// no connection the example used has lines the example does not show.
    private func run(
        _ example: DocumentationArticle.Example, of article: DocumentationArticle, in session: ExampleSession
    ) async throws {
        let title = "\(article.name) example \(example.number) (line \(example.line))"
        var used: [String] = []
        var failed = false
        var schema = WireSchemaCheck()
        for step in example.steps {
            if !used.contains(step.connection) { used.append(step.connection) }
            let client = try session.connection(step.connection)
            switch step.direction {
            case .send:
                schema.sent(step.text, on: step.connection)
                try await client.write(step.text + "\n")
            case .expect where failed:
                continue
            case .expect:
                let line: String
                do {
                    line = try await session.readLine(from: step.connection)
                } catch {
                    line = "(no line: \(error))"
                }
                if let difference = ReplyPattern(step.text).firstDifference(in: line) {
                    let message = Self.describe(difference, documented: step.text, actual: line)
                    Issue.record("\(title): line \(step.line) \(message)", sourceLocation: article.location(step.line))
                    failed = true
                } else if let mismatch = schema.received(line, on: step.connection) {
                    Issue.record(
                        "\(title): line \(step.line) does not match the OpenRPC document: \(mismatch)",
                        sourceLocation: article.location(step.line))
                }
            }
        }
        let extras = try await session.drain(used)
        for (connection, extra) in extras where !failed {
            let name = connection.isEmpty ? "the first connection" : "connection \(connection)"
            Issue.record(
                "\(title): \(name) got a line the example does not show: \(extra)",
                sourceLocation: article.location(example.line))
        }
    }

    /// Where a reply departs from its documented line, with both around that place and the whole reply.
    private static func describe(_ difference: ReplyPattern.Difference, documented: String, actual: String) -> String {
        func around(_ text: String, _ offset: Int) -> String {
            let bytes = Array(text.utf8)
            let start = max(0, offset - 30)
            let end = min(bytes.count, offset + 40)
            let head = String(decoding: bytes[start..<min(offset, bytes.count)], as: UTF8.self)
            let tail = offset < bytes.count ? String(decoding: bytes[offset..<end], as: UTF8.self) : "(end of line)"
            return (start > 0 ? "…" : "") + head + "⟨here⟩" + tail
        }
        return """
            differs from the daemon's reply at byte \(difference.actualOffset) \
            (byte \(difference.expectedOffset) of the documented line):
              documented: \(around(documented, difference.expectedOffset))
              daemon:     \(around(actual, difference.actualOffset))
              whole reply: \(actual)
            """
    }
}

/// A daemon for the examples of one article (or one configured example) and its named connections.
private final class ExampleSession: @unchecked Sendable {
    let server: InProcessDaemon
    private var connections: [String: TestClient] = [:]
    /// Connections the daemon has closed (an example read their end).
    private var closed: Set<String> = []

    /// Starts a daemon with the built-in defaults, or with `config`, the text of a config file.
    init(config: String?) async throws {
        let parsed = try config.map { try Config.parse(Data($0.utf8)) }
        server = try await InProcessDaemon.start { config in
            guard let parsed else { return }
            let socket = config.socket
            let state = config.stateDirectory
            config = parsed
            config.socket = socket
            config.stateDirectory = state
        }
    }

    /// The connection named `name`, opened at its first use.
    func connection(_ name: String) throws -> TestClient {
        if let client = connections[name] { return client }
        let client = try TestClient(path: server.path, timeout: 5)
        connections[name] = client
        return client
    }

    /// The next line from connection `name`, or `(the connection closed)` when the daemon closed it.
    func readLine(from name: String) async throws -> String {
        if let line = try await connection(name).readLines(1).first { return line }
        closed.insert(name)
        return "(the connection closed)"
    }

    /// Pings each of `names` that is still open and reads up to the pong; returns the lines that came before it.
    @discardableResult
    func drain(_ names: [String]) async throws -> [(String, String)] {
        var extra: [(String, String)] = []
        for name in names where !closed.contains(name) {
            let client = try connection(name)
            try await client.write(#"{"id":"docs-sync","method":"ping"}"# + "\n")
            while true {
                guard let line = try await client.readLines(1).first else {
                    extra.append((name, "(the connection closed)"))
                    break
                }
                if line == #"{"jsonrpc":"2.0","id":"docs-sync","result":{"pong":true}}"# { break }
                extra.append((name, line))
            }
        }
        return extra
    }

    func stop() async {
        for client in connections.values { client.closeNow() }
        await server.stop()
    }
}

extension DocumentationArticle {
    /// The article's file name, as failures name it.
    var name: String { URL(fileURLWithPath: relativePath).lastPathComponent }

    /// A source location in the article, so a failure points at the documented line.
    func location(_ line: Int) -> SourceLocation {
        SourceLocation(fileID: "WaterfallDocs/\(name)", filePath: absolutePath, line: line, column: 1)
    }
}
