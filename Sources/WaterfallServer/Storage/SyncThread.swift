import Dispatch
import Foundation
import Synchronization

/// A thread of the store's own that runs `body` about once a second until stopped, and once more when stopped:
/// the `everysec` policy's `fdatasync`s, which must never run on (and block) the cooperative pool.
final class SyncThread: Sendable {
    init(interval: Double = 1, _ body: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.body = body
        let thread = Thread { [self] in run() }
        thread.name = "waterfalld.fsync"
        thread.start()
    }

    /// Stops the thread after one last round, and waits for it.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        done.wait()
    }

    // MARK: Private

    private let interval: Double
    private let body: @Sendable () -> Void
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let stopping = Atomic(false)

    private func run() {
        while !stopping.load(ordering: .acquiring) {
            _ = wake.wait(timeout: .now() + interval)
            body()
        }
        done.signal()
    }
}
