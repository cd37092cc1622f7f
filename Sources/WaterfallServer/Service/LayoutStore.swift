import Synchronization
import WaterfallLayout

/// The named layouts of the daemon.
actor LayoutStore {
    private var entries: [String: LayoutEntry] = [:]

    /// The layout named `name`, if any.
    func entry(_ name: String) -> LayoutEntry? { entries[name] }

    /// Whether the name is in use.
    func contains(_ name: String) -> Bool { entries[name] != nil }

    var count: Int { entries.count }

    /// All entries, by name.
    func all() -> [LayoutEntry] { entries.values.sorted { $0.name < $1.name } }

    /// Adds `entry`; returns the entry it replaced. The caller checked `exists` and the limit before building.
    enum InsertOutcome {
        case inserted(replaced: LayoutEntry?)
        case exists
        case limit
    }

    func insert(_ entry: LayoutEntry, replace: Bool, maxLayouts: Int) -> InsertOutcome {
        if let old = entries[entry.name] {
            guard replace else { return .exists }
            entries[entry.name] = entry
            return .inserted(replaced: old)
        }
        guard entries.count < maxLayouts else { return .limit }
        entries[entry.name] = entry
        return .inserted(replaced: nil)
    }

    func remove(_ name: String) -> LayoutEntry? { entries.removeValue(forKey: name) }
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
