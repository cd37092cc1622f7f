import Glibc
import Synchronization

/// Writes one line per event to stderr, with its level; safe from any thread, level changeable at run time.
package final class Logger: Sendable {
    // MARK: Lifecycle

    /// How lines start: journald reads a `<N>` priority prefix and adds its own timestamps.
    package enum Style: Sendable {
        /// `2025-01-31T12:00:00.000Z warning: message`, for a terminal or a plain log file.
        case timestamped
        /// `<4>warning: message`, for stderr connected to the journal.
        case journal

        /// `.journal` when systemd connected stderr to the journal (it sets `JOURNAL_STREAM`).
        package static var automatic: Style {
            getenv("JOURNAL_STREAM") != nil ? .journal : .timestamped
        }
    }

    /// Creates a logger; `output` receives each finished line (with its `\n`) and defaults to stderr.
    package init(level: LogLevel = .info, style: Style = .automatic, output: (@Sendable (String) -> Void)? = nil) {
        self.levelRaw = Atomic(level.syslogPriority)
        self.style = style
        self.output = output ?? Logger.writeToStandardError
    }

    // MARK: Internal

    /// The least severe level written; SIGHUP may change it while other threads log.
    package var level: LogLevel {
        get { LogLevel.allCases.first { $0.syslogPriority == levelRaw.load(ordering: .relaxed) } ?? .info }
        set { levelRaw.store(newValue.syslogPriority, ordering: .relaxed) }
    }

    /// Whether a message at `level` would be written, to skip building expensive messages.
    package func isEnabled(_ level: LogLevel) -> Bool {
        level.syslogPriority <= levelRaw.load(ordering: .relaxed)
    }

    /// Writes one line if `level` is enabled; line breaks inside the message are escaped to keep it one line.
    package func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard isEnabled(level) else { return }
        let text = message().replacingNewlines()
        switch style {
        case .journal: output("<\(level.syslogPriority)>\(level.rawValue): \(text)\n")
        case .timestamped: output("\(Self.timestamp()) \(level.rawValue): \(text)\n")
        }
    }

    package func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    package func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    package func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    package func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }

    // MARK: Private

    private let levelRaw: Atomic<Int>
    private let style: Style
    private let output: @Sendable (String) -> Void
    /// Serialises writers so a line longer than a pipe's atomic write size is never interleaved with another.
    private static let writeLock = Mutex(())

    private static let writeToStandardError: @Sendable (String) -> Void = { line in
        writeLock.withLock { _ in StandardError.write(line) }
    }

    /// UTC with milliseconds, built by hand because Glibc's strftime has no sub-second field.
    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let millis = Int32(now.tv_nsec / 1_000_000)
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(millis, 3))Z"
    }
}

extension String {
    /// The string with CR and LF written as `\r` and `\n`, so one event stays one line.
    fileprivate func replacingNewlines() -> String {
        guard contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return self }
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
