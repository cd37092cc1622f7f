import Dispatch
import Glibc

/// Turns signals into calls on a queue, through dispatch signal sources that live as long as the watcher.
///
/// libdispatch installs its own handler for each signal when a source is registered, which happens on its manager
/// thread some time after `activate()` returns; until then a signal has its old disposition. So the disposition is
/// left alone (a SIGTERM that early ends the process the default way, before anything exists to clean up: setting
/// SIG_IGN here would lose such a signal, and the daemon would go on serving), and the caller waits for `isReady` before it
/// binds. The watcher must be kept alive: a released source swallows its signal. `@unchecked` because Dispatch
/// does not mark sources Sendable; they are never mutated after init.
final class SignalWatcher: @unchecked Sendable {
    // MARK: Lifecycle

    init(signals: [Int32], queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        self.signals = signals
        sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.activate()
            return source
        }
    }

    /// Whether dispatch's handler is installed for every signal, so that none can be lost or act by default.
    var isReady: Bool {
        signals.allSatisfy { number in
            var current = sigaction()
            guard sigaction(number, nil, &current) == 0 else { return false }
            // SIG_DFL is 0 and SIG_IGN is 1; anything else is a handler.
            let handler = withUnsafeBytes(of: &current.__sigaction_handler) { $0.load(as: UInt.self) }
            return handler > 1
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    // MARK: Private

    private let signals: [Int32]
    private let sources: [any DispatchSourceSignal]
}
