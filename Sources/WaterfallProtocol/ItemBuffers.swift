import Synchronization
import WaterfallLayout

/// Spare item arrays for the next bulk `items.insert`, so that decoding one reuses memory the last ones used.
///
/// Each array of a 10,000-item insert is 480 KB, above the daemon's mmap threshold (`MemoryTuning`): allocated
/// fresh, its pages fault in while it fills and are unmapped when the engine drops it, about 15 ns of a bulk
/// load's ~60-90 ns of decoding per item (measured). The pool keeps a reference to the last two arrays it handed
/// out; once the engine has dropped a command's copy, the pool's is the only one and the next decode refills it in
/// place. While a command still holds one (a pipelined client's insert being applied as the next is decoded),
/// emptying it copies on write, as any array would, so reuse never touches an array in use.
///
/// Only arrays of `reusable` capacities are kept, so the pool holds at most two of them (under 2 MB) whatever a
/// client sends.
enum ItemBuffers {
    /// The capacities worth keeping: large enough to be mapped on their own, small enough to hold idle.
    static let reusable = 2_048...20_000
    /// Arrays kept, oldest first.
    static let spares = 2

    private static let pool = Mutex<[[Item]]>([])

    /// An empty array with room for `capacity` items: the oldest spare when it fits, else a new one.
    ///
    /// The spare leaves the pool, and `keep` puts back the array filled from it, so two arrays take turns.
    static func take(capacity: Int) -> [Item] {
        var buffer: [Item] = []
        if reusable.contains(capacity) {
            buffer = pool.withLock { spares in
                // Only with both spares kept: the newer one is most likely still in use, the older one free again.
                guard spares.count >= Self.spares, let k = spares.firstIndex(where: { $0.capacity >= capacity }) else {
                    return []
                }
                return spares.remove(at: k)
            }
            buffer.removeAll(keepingCapacity: true)
        }
        buffer.reserveCapacity(capacity)
        return buffer
    }

    /// Keeps a reference to `items`, just decoded, for a later `take`.
    static func keep(_ items: [Item]) {
        guard reusable.contains(items.capacity) else { return }
        pool.withLock { spares in
            if spares.count >= Self.spares { spares.removeFirst() }
            spares.append(items)
        }
    }
}
