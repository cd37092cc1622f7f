import Synchronization
import WaterfallLayout

/// The named layouts of the daemon.
///
/// A lock, not an actor: every request looks its layout up here, and a lookup is a few tens of nanoseconds under
/// a lock where an actor would cost a hop (and a queue, under load) on the way to the layout's own actor, which is
/// where the work and the ordering are.
final class LayoutStore: Sendable {
    private let entries = Mutex<[String: LayoutEntry]>([:])

    /// The layout named `name`, if any.
    func entry(_ name: String) -> LayoutEntry? { entries.withLock { $0[name] } }

    /// Whether the name is in use.
    func contains(_ name: String) -> Bool { entry(name) != nil }

    /// All entries, by name.
    func all() -> [LayoutEntry] { entries.withLock { Array($0.values) }.sorted { $0.name < $1.name } }

    /// What `insert` did.
    enum InsertOutcome {
        case inserted(replaced: LayoutEntry?)
        case exists
        case limit
    }

    /// Adds `entry`, replacing one of the same name only if `replace`, and never past `maxLayouts`.
    func insert(_ entry: LayoutEntry, replace: Bool, maxLayouts: Int) -> InsertOutcome {
        entries.withLock { entries in
            if let old = entries[entry.name] {
                guard replace else { return .exists }
                entries[entry.name] = entry
                return .inserted(replaced: old)
            }
            guard entries.count < maxLayouts else { return .limit }
            entries[entry.name] = entry
            return .inserted(replaced: nil)
        }
    }

    func remove(_ name: String) -> LayoutEntry? { entries.withLock { $0.removeValue(forKey: name) } }
}

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
