import Synchronization
import Testing

@testable import WaterfallServer

/// Log lines: level filtering, the journal's priority prefix, and run-time level changes.
@Suite struct LoggerTests {
    @Test func prefixesThePriorityForTheJournalAndFiltersByLevel() {
        let lines = Mutex<[String]>([])
        let logger = Logger(level: .warning, style: .journal) { line in lines.withLock { $0.append(line) } }
        logger.error("e")
        logger.warning("two\nlines")
        logger.info("hidden")
        logger.level = .debug
        logger.debug("d")
        #expect(lines.withLock { $0 } == ["<3>error: e\n", "<4>warning: two\\nlines\n", "<7>debug: d\n"])
    }

    @Test func timestampsLinesOtherwise() {
        let lines = Mutex<[String]>([])
        let logger = Logger(level: .info, style: .timestamped) { line in lines.withLock { $0.append(line) } }
        logger.info("hello")
        let line = lines.withLock { $0.first } ?? ""
        #expect(line.hasSuffix("Z info: hello\n"))
        #expect(line.count == "2025-01-31T12:00:00.000Z info: hello\n".count)
    }
}
