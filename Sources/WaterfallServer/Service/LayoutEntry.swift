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

/// What a subscriber follows: a width (nil: the first, whichever it is) and a viewport (nil: full diffs).
/// Subscribers that follow the same share one event line per change.
struct AudienceKey: Hashable, Sendable {
    var width: Double?
    var viewport: Viewport?
}

/// The connections subscribed to one layout, each with the width and viewport its events are for.
///
/// A lock rather than an actor: events are published from inside the layout's actor, synchronously, so that they
/// leave in the order of the changes.
final class SubscriberList: Sendable {
    private struct Subscriber: Sendable {
        var sink: any OutputSink
        var key: AudienceKey
    }

    private let sinks = Mutex<[ObjectIdentifier: Subscriber]>([:])

    var count: Int { sinks.withLock { $0.count } }

    /// What the subscribers need of a change: the distinct widths and viewports they follow (subscribers with the
    /// same width and viewport share one event).
    var audience: [AudienceKey] {
        sinks.withLock { sinks in
            // Asked for every change: a layout nobody watches (the usual case) builds no set.
            if sinks.isEmpty { return [] }
            return Array(Set(sinks.values.map(\.key)))
        }
    }

    /// Adds a subscriber, or replaces the width and viewport of one (one subscription per connection and layout);
    /// false when it already was one.
    @discardableResult
    func add(_ session: ObjectIdentifier, _ sink: any OutputSink, _ key: AudienceKey = AudienceKey()) -> Bool {
        sinks.withLock { $0.updateValue(Subscriber(sink: sink, key: key), forKey: session) == nil }
    }

    /// Moves the subscribers that follow one of `removed` (widths a configure took away) to the first width, and
    /// returns each one moved with what it followed before.
    func moveToFirstWidth(from removed: Set<Double>) -> [(ObjectIdentifier, AudienceKey)] {
        sinks.withLock { sinks in
            var moved: [(ObjectIdentifier, AudienceKey)] = []
            for (session, subscriber) in sinks {
                guard let width = subscriber.key.width, removed.contains(width) else { continue }
                moved.append((session, subscriber.key))
                sinks[session]?.key.width = nil
            }
            return moved
        }
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

    /// Sends `event` to every subscriber (its line for what the subscriber follows); one that has more than `limit`
    /// bytes unsent gets `overflow` instead and is unsubscribed, so a slow reader cannot make the daemon hold events
    /// without bound.
    func publish(_ event: ChangeEvent, overflow: [UInt8], limit: Int, counting counters: EventCounters) {
        let current = sinks.withLock { Array($0) }
        var sent = 0
        var dropped = 0
        for (session, subscriber) in current {
            guard let line = event.moved[session] ?? event.lines[subscriber.key] else { continue }
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

/// One change's `layout.changed` lines: one per distinct width and viewport followed, and one for each subscriber
/// that the change moved off a width it removed (its diff leads from that width to the first).
struct ChangeEvent: Sendable {
    var lines: [AudienceKey: [UInt8]] = [:]
    var moved: [ObjectIdentifier: [UInt8]] = [:]
}
