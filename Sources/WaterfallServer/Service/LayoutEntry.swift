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

/// The connections subscribed to one layout, each with the viewport its events are scoped to (nil: full diffs).
///
/// A lock rather than an actor: events are published from inside the layout's actor, synchronously, so that they
/// leave in the order of the changes.
final class SubscriberList: Sendable {
    private struct Subscriber: Sendable {
        var sink: any OutputSink
        var viewport: Viewport?
    }

    private let sinks = Mutex<[ObjectIdentifier: Subscriber]>([:])

    var count: Int { sinks.withLock { $0.count } }

    /// What the subscribers need of a change: whether any wants full diffs, and the distinct viewports of the
    /// others (subscribers with the same viewport share one event).
    var audience: (unscoped: Bool, viewports: [Viewport]) {
        sinks.withLock { sinks in
            // Asked for every change: a layout nobody watches (the usual case) builds no set.
            if sinks.isEmpty { return (false, []) }
            var unscoped = false
            var viewports: Set<Viewport> = []
            for subscriber in sinks.values {
                if let viewport = subscriber.viewport { viewports.insert(viewport) } else { unscoped = true }
            }
            return (unscoped, Array(viewports))
        }
    }

    /// Adds a subscriber, or replaces the viewport of one; false when it already was one.
    @discardableResult
    func add(_ session: ObjectIdentifier, _ sink: any OutputSink, viewport: Viewport? = nil) -> Bool {
        sinks.withLock { $0.updateValue(Subscriber(sink: sink, viewport: viewport), forKey: session) == nil }
    }

    func remove(_ session: ObjectIdentifier) {
        _ = sinks.withLock { $0.removeValue(forKey: session) }
    }

    /// Removes and returns everyone.
    func removeAll() -> [any OutputSink] {
        sinks.withLock { sinks in
            defer { sinks.removeAll() }
            return sinks.values.map(\.sink)
        }
    }

    /// Sends `event` to every subscriber (its line for the subscriber's viewport); one that has more than `limit`
    /// bytes unsent gets `overflow` instead and is unsubscribed, so a slow reader cannot make the daemon hold events
    /// without bound.
    func publish(_ event: ChangeEvent, overflow: [UInt8], limit: Int, counting counters: EventCounters) {
        let current = sinks.withLock { Array($0) }
        var sent = 0
        var dropped = 0
        for (session, subscriber) in current {
            guard let line = event.line(for: subscriber.viewport) else { continue }
            let sink = subscriber.sink
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

/// One change's `layout.changed` lines: one shared by every unscoped subscriber, one per distinct viewport.
struct ChangeEvent: Sendable {
    var shared: [UInt8]?
    var scoped: [Viewport: [UInt8]] = [:]

    func line(for viewport: Viewport?) -> [UInt8]? {
        guard let viewport else { return shared }
        return scoped[viewport]
    }
}
