import Synchronization
import WaterfallModel

/// Spare item arrays for the next bulk `items.insert`, so that decoding one reuses memory the last ones used.
///
/// The array of a 10,000-item insert is 80 KB of bare heights (`ItemList(heights:)`), or 720 KB of `Item`s when
/// its items are more than heights; either is above the daemon's mmap threshold (`MemoryTuning`), so an array
/// allocated fresh faults its pages in while it fills and is unmapped when the engine drops it. The pool keeps a
/// reference to the last arrays it handed out; once the engine has dropped a command's copy, the pool's is the
/// only one and the next decode refills it in place. While a command still holds one (a pipelined client's insert
/// being applied as the next is decoded), emptying it copies on write, as any array would, so reuse never touches
/// an array in use.
///
/// A pipelining client's connection decodes its next read while the visit applies the last, and a read of a bulk
/// load holds a few lines, so several arrays are in use at once: the pool keeps `spares` of each kind so that most
/// takes find one free. An idle daemon should not hold them: they are let go (`release`, through
/// `Session.clientPaused`) when a connection that sent a line of `shortestLine` bytes or more (the least that holds
/// `reusable.lowerBound` items) has nothing left to do, as its `LineFramer` lets go of its own line buffers then
/// (`releaseSpares`).
///
/// Only arrays of `reusable` capacities are kept, so the pool holds at most `spares` of them whatever a client
/// sends.
package enum ItemBuffers {
    /// The capacities worth keeping: large enough to be mapped on their own, small enough to hold idle.
    static let reusable = 2_048...20_000
    /// The shortest line whose items can fill an array the pool keeps: eight bytes an item (`{"h":1}` and a comma).
    static let shortestLine = 8 * reusable.lowerBound
    /// Arrays kept of each kind, oldest first.
    static let spares = 6

    /// Arrays of items, for inserts with items that are more than a height.
    static let items = Pool<Item>()
    /// Arrays of bare heights (`ItemList(heights:)`), for inserts whose items are only heights: a bulk load's.
    static let heights = Pool<Double>()

    /// The arrays of both kinds kept now.
    static var spareCount: Int { items.spareCount + heights.spareCount }

    /// Lets go of every spare: a client that streamed a bulk load has stopped (its connection has nothing left to do,
    /// `LineFramer.releaseSpares`), and an idle daemon holds no spares.
    package static func release() {
        items.release()
        heights.release()
    }

    /// The spare arrays of one element type.
    final class Pool<Element: Sendable>: Sendable {
        private let pool = Mutex<[[Element]]>([])

        /// An empty array with room for `capacity` elements: the oldest spare when it fits, else a new one.
        ///
        /// The spare leaves the pool, and `keep` puts back the array filled from it, so two arrays take turns.
        func take(capacity: Int) -> [Element] {
            var buffer: [Element] = []
            if reusable.contains(capacity) {
                buffer = pool.withLock { spares in
                    // Only with every spare kept: the newer ones are most likely still in use, the oldest free again.
                    guard spares.count >= ItemBuffers.spares,
                        let k = spares.firstIndex(where: { $0.capacity >= capacity })
                    else { return [] }
                    return spares.remove(at: k)
                }
                buffer.removeAll(keepingCapacity: true)
            }
            buffer.reserveCapacity(capacity)
            return buffer
        }

        /// Keeps a reference to `buffer`, just decoded, for a later `take`.
        func keep(_ buffer: [Element]) {
            guard reusable.contains(buffer.capacity) else { return }
            pool.withLock { spares in
                if spares.count >= ItemBuffers.spares { spares.removeFirst() }
                spares.append(buffer)
            }
        }

        /// The arrays kept now.
        var spareCount: Int { pool.withLock { $0.count } }

        /// Lets go of every spare.
        func release() {
            // The arrays are returned to be freed here, outside the lock.
            _ = pool.withLock { spares in
                defer { spares = [] }
                return spares
            }
        }
    }
}
