import Synchronization
import WaterfallLayout

/// One named layout in the store: the actor that owns it and the connections subscribed to it.
final class LayoutEntry: Sendable {
    let name: String
    let layout: LayoutActor
    let subscribers: SubscriberList
    /// The layout's weight (items, sections, columns) after the last change, for settling the daemon's budget.
    let weight = Mutex(0)
    /// Set (inside a visit to its actor) once the layout is dropped or replaced: a visit that was already waiting
    /// then answers `not_found` rather than changing a layout that is gone.
    let retired = Atomic(false)

    init(name: String, layout: LayoutActor) {
        self.name = name
        self.layout = layout
        subscribers = SubscriberList()
    }
}

/// The connections subscribed to one layout.
///
/// A lock rather than an actor: events are published from inside the layout's actor, synchronously, so that they
/// leave in the order of the changes.
final class SubscriberList: Sendable {
    private let sinks = Mutex<[ObjectIdentifier: any OutputSink]>([:])

    var count: Int { sinks.withLock { $0.count } }

    /// Adds a subscriber; false when it already was one.
    @discardableResult
    func add(_ session: ObjectIdentifier, _ sink: any OutputSink) -> Bool {
        sinks.withLock { $0.updateValue(sink, forKey: session) == nil }
    }

    func remove(_ session: ObjectIdentifier) {
        _ = sinks.withLock { $0.removeValue(forKey: session) }
    }

    /// Removes and returns everyone.
    func removeAll() -> [any OutputSink] {
        sinks.withLock { sinks in
            defer { sinks.removeAll() }
            return Array(sinks.values)
        }
    }

    /// Sends `line` to every subscriber; one that has more than `limit` bytes unsent gets `overflow` instead and
    /// is unsubscribed, so a slow reader cannot make the daemon hold events without bound.
    func publish(_ line: [UInt8], overflow: [UInt8], limit: Int, counting counters: EventCounters) {
        let current = sinks.withLock { Array($0) }
        var sent = 0
        var dropped = 0
        for (session, sink) in current {
            if sink.pendingBytes + line.count > limit {
                remove(session)
                sink.send(overflow)
                dropped += 1
            } else if !sink.send(line) {
                remove(session)
            } else {
                sent += 1
            }
        }
        counters.sent.add(sent, ordering: .relaxed)
        counters.dropped.add(dropped, ordering: .relaxed)
    }
}

/// Events queued for subscribers, and subscribers dropped for reading too slowly, since start.
final class EventCounters: Sendable {
    let sent = Atomic(0)
    let dropped = Atomic(0)
}
