import Foundation
import Testing

/// One article of a DocC catalog with the wire examples it shows, as the documentation tests replay them.
///
/// An example is a fenced code block tagged `wire`. Each of its lines is a line a client sends (`--> JSON`) or
/// a line the daemon must answer (`<-- JSON`), optionally after a connection name (`watcher --> …`); unnamed
/// lines use the article's first connection, and each name opens a connection of its own. Two HTML comments
/// may stand just before the fence: `<!-- config: {…} -->` runs the example alone on a daemon with that config
/// file, and `<!-- pending: reason -->` marks an example the daemon cannot answer yet, so its mismatches are
/// known issues (and a match is a failure, to get the mark removed). In an expected line, `…` stands for any
/// one JSON value.
struct DocumentationArticle: Sendable, CustomTestStringConvertible {
    /// A line of an example.
    struct Step: Sendable {
        enum Direction: Sendable { case send, expect }

        var direction: Direction
        /// The connection's name; "" is the article's first connection.
        var connection: String
        var text: String
        /// The line's number in the article, from 1.
        var line: Int
    }

    /// A `wire` block: its steps, in order, and its marks.
    struct Example: Sendable {
        /// The example's number in its article, from 1.
        var number: Int
        /// The line of the opening fence.
        var line: Int
        var steps: [Step]
        var config: String?
        var pending: String?
    }

    /// The article's path inside the package, such as `Sources/WaterfallLayout/WaterfallLayout.docc/Geometry.md`.
    var relativePath: String
    var absolutePath: String
    var examples: [Example]
    /// Lines of `wire` blocks that are neither requests nor replies: each is a defect in the article.
    var malformed: [(line: Int, text: String)]

    var testDescription: String { relativePath }

    // MARK: Lifecycle

    /// Parses `text`, the contents of the article at `relativePath`.
    init(relativePath: String, absolutePath: String, text: String) {
        self.relativePath = relativePath
        self.absolutePath = absolutePath
        examples = []
        malformed = []
        var config: String?
        var pending: String?
        var current: Example?
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine)
            let number = index + 1
            if var example = current {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    examples.append(example)
                    current = nil
                } else if let step = Self.step(line, at: number) {
                    example.steps.append(step)
                    current = example
                } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    malformed.append((number, line))
                }
            } else if line.trimmingCharacters(in: .whitespaces) == "```wire" {
                current = Example(number: examples.count + 1, line: number, steps: [], config: config, pending: pending)
                config = nil
                pending = nil
            } else if let value = Self.comment(line, named: "config") {
                config = value
            } else if let value = Self.comment(line, named: "pending") {
                pending = value
            } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                // A mark belongs to the block right after it, not to one further down.
                config = nil
                pending = nil
            }
        }
        if let current { malformed.append((current.line, "a wire block without its closing fence")) }
    }

    /// Every article of every catalog under `Sources/`, in path order.
    static let all: [DocumentationArticle] = {
        let root = packageRoot
        let files = FileManager.default
        var articles: [DocumentationArticle] = []
        let modules = (try? files.contentsOfDirectory(atPath: root + "/Sources")) ?? []
        for module in modules.sorted() {
            let moduleDirectory = "Sources/" + module
            let entries = (try? files.contentsOfDirectory(atPath: root + "/" + moduleDirectory)) ?? []
            for catalog in entries.sorted() where catalog.hasSuffix(".docc") {
                let catalogDirectory = moduleDirectory + "/" + catalog
                let names = (try? files.contentsOfDirectory(atPath: root + "/" + catalogDirectory)) ?? []
                for name in names.sorted() where name.hasSuffix(".md") {
                    let relative = catalogDirectory + "/" + name
                    let absolute = root + "/" + relative
                    let text = (try? String(contentsOfFile: absolute, encoding: .utf8)) ?? ""
                    articles.append(DocumentationArticle(relativePath: relative, absolutePath: absolute, text: text))
                }
            }
        }
        return articles
    }()

    /// The package's directory: three levels above this file (`Tests/WaterfallServerTests/…`).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    // MARK: Private

    /// `--> text`, `<-- text`, or either after a connection name.
    private static func step(_ line: String, at number: Int) -> Step? {
        var connection = ""
        var rest = Substring(line)
        if !rest.hasPrefix("--> ") && !rest.hasPrefix("<-- "), let space = rest.firstIndex(of: " ") {
            let name = rest[..<space]
            guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return nil }
            connection = String(name)
            rest = rest[rest.index(after: space)...]
        }
        let direction: Step.Direction
        if rest.hasPrefix("--> ") {
            direction = .send
        } else if rest.hasPrefix("<-- ") {
            direction = .expect
        } else {
            return nil
        }
        let text = String(rest.dropFirst(4))
        guard !text.isEmpty else { return nil }
        return Step(direction: direction, connection: connection, text: text, line: number)
    }

    /// The value of an HTML comment `<!-- name: value -->` that is the whole line.
    private static func comment(_ line: String, named name: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let prefix = "<!-- \(name):"
        guard trimmed.hasPrefix(prefix), trimmed.hasSuffix("-->") else { return nil }
        return trimmed.dropFirst(prefix.count).dropLast(3).trimmingCharacters(in: .whitespaces)
    }
}
