import Synchronization

/// The daemon-wide item budget (`maxTotalItems`), reserved before a change and settled after it.
final class ItemBudget: Sendable {
    private let total = Mutex(0)

    var current: Int { total.withLock { $0 } }

    /// Reserves `count` items; false when that would pass `limit`.
    func reserve(_ count: Int, limit: Int) -> Bool {
        total.withLock { total in
            guard total + count <= limit else { return false }
            total += count
            return true
        }
    }

    /// Adds `delta` (negative to release).
    func adjust(_ delta: Int) {
        total.withLock { $0 += delta }
    }
}
