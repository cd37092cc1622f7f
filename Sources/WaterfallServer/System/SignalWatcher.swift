import Dispatch
import Glibc

/// Turns signals into calls on a queue, through dispatch signal sources that live as long as the watcher.
///
/// Each signal is set to SIG_IGN first so its default action (terminate) never runs; dispatch still sees it.
/// The watcher must be kept alive: a released source swallows its signal. `@unchecked` because Dispatch does
/// not mark sources Sendable; they are never mutated after init.
final class SignalWatcher: @unchecked Sendable {
    // MARK: Lifecycle

    init(signals: [Int32], queue: DispatchQueue, handler: @escaping @Sendable (Int32) -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.activate()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    // MARK: Private

    private let sources: [any DispatchSourceSignal]
}
