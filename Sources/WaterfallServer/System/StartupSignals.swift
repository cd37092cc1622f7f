import Dispatch
import Glibc
import Synchronization

/// SIGTERM, SIGINT and SIGHUP while the daemon starts: recovering a large state directory takes seconds, and the
/// server's own handlers exist only once it listens.
///
/// Until the server takes the signals over (`Server.run(signals:)` calls `route(_:)`), SIGTERM or SIGINT ends
/// the process at once with status 0 after one log line (recovery only reads, and cuts torn ends, which the next
/// start does again if interrupted: nothing is left half done that a kill -9 would not leave), and SIGHUP is
/// logged and ignored (the config was just read); by default SIGHUP would kill the daemon. The same dispatch
/// sources serve the server afterwards, so no signal falls between two sets of handlers.
package final class StartupSignals: Sendable {
    // MARK: Lifecycle

    /// Installs the handlers and waits (a second at most) until dispatch's are in place.
    package init(logger: Logger) async {
        let route = Route()
        self.route = route
        let watcher = SignalWatcher(
            signals: [SIGTERM, SIGINT, SIGHUP], queue: DispatchQueue(label: "waterfalld.signals")
        ) { signal in
            if let handler = route.handler.withLock({ $0 }) {
                handler(signal)
                return
            }
            if signal == SIGHUP {
                logger.info("received SIGHUP while starting: ignored (the config was just read)")
                return
            }
            logger.info("received \(signal == SIGTERM ? "SIGTERM" : "SIGINT") while starting; stopping")
            // Not exit(3): its atexit handlers would run while recovery's threads still use what they tear down.
            _exit(CommandLineOptions.ExitStatus.success.rawValue)
        }
        self.watcher = watcher
        for _ in 0..<1000 where !watcher.isReady {
            try? await Task.sleep(for: .milliseconds(1))
        }
        if !watcher.isReady { logger.warning("signal handlers are not installed after 1 s; starting anyway") }
    }

    // MARK: Internal

    /// From now on the signals go to `handler` (on the signals' own serial queue).
    func route(_ handler: @escaping @Sendable (Int32) -> Void) { route.handler.withLock { $0 = handler } }

    // MARK: Private

    /// Where signals go once the server has them; shared with the sources' handler.
    private final class Route: Sendable {
        let handler = Mutex<(@Sendable (Int32) -> Void)?>(nil)
    }

    private let route: Route
    // Kept for the life of the process: a released source swallows its signal.
    private let watcher: SignalWatcher
}
