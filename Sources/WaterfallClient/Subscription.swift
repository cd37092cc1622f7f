import Dispatch
import Synchronization

/// The events of one layout on one connection, as an `AsyncSequence`: `layout.changed` for every change by any
/// connection, then the end, when the connection ends, after `layout.dropped` or `subscription.overflow` (the
/// daemon has ended the subscription), after `unsubscribe`, or when the task iterating it is cancelled.
///
/// It applies back pressure: when this many events wait unread, the connection stops reading, and a daemon whose
/// subscriber falls that far behind sends `subscription.overflow` rather than holding memory without bound.
/// Iterate it promptly, or replies to other calls on the same connection wait too.
public struct Subscription: AsyncSequence, Sendable {
    public typealias Element = LayoutEvent

    /// The layout whose events these are.
    public let layout: String

    // MARK: Lifecycle

    init(layout: String, client: WaterfallClient, buffer: EventBuffer) {
        self.layout = layout
        self.client = client
        self.token = Token(buffer: buffer, connection: client.connection, layout: layout)
    }

    // MARK: Public

    public struct AsyncIterator: AsyncIteratorProtocol {
        let token: Token

        /// The next event, or nil once the subscription is over; throws when an event cannot be read.
        public mutating func next() async throws -> LayoutEvent? {
            try await token.buffer.next()?.get()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(token: token) }

    // MARK: Internal

    /// Held by the sequence and its iterators: when the last of them is gone, nobody reads the events, so the
    /// connection stops routing them (and never waits for a reader that will not come).
    final class Token: Sendable {
        let buffer: EventBuffer
        let connection: Connection
        let layout: String

        init(buffer: EventBuffer, connection: Connection, layout: String) {
            self.buffer = buffer
            self.connection = connection
            self.layout = layout
        }

        deinit {
            connection.removeSink(buffer, for: layout)
            buffer.finish()
        }
    }

    // MARK: Private

    /// Keeps the connection open while the sequence exists.
    private let client: WaterfallClient
    private let token: Token
}

/// The events routed to one subscription and not yet read, at most `capacity`: the reading thread waits for room.
final class EventBuffer: Sendable {
    typealias Event = Result<LayoutEvent, WaterfallClientError>

    init(capacity: Int = 1024) {
        room = DispatchSemaphore(value: capacity)
    }

    /// On the connection's thread: queues `event`, waiting while the buffer is full.
    func push(_ event: Event) {
        if state.withLock({ $0.isFinished }) { return }
        room.wait()
        enum Outcome {
            case queued
            case dropped
            case handed(CheckedContinuation<Event?, Never>)
        }
        let outcome = state.withLock { state -> Outcome in
            guard !state.isFinished else { return .dropped }
            if let waiter = state.waiter {
                state.waiter = nil
                return .handed(waiter)
            }
            state.queue.append(event)
            return .queued
        }
        switch outcome {
        case .queued:
            // The slot stays taken until `next()` reads the event.
            break
        case .dropped:
            room.signal()
        case .handed(let waiter):
            room.signal()
            waiter.resume(returning: event)
        }
    }

    /// The next event, or nil once finished and drained; a cancelled task's wait ends the sequence (nil).
    func next() async -> Event? {
        await withTaskCancellationHandler {
            await wait()
        } onCancel: {
            finish()
        }
    }

    private func wait() async -> Event? {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Event?? in
                if state.head < state.queue.count {
                    let event = state.queue[state.head]
                    state.head += 1
                    if state.head > 64 && state.head * 2 > state.queue.count {
                        state.queue.removeFirst(state.head)
                        state.head = 0
                    }
                    return .some(event)
                }
                // Finished (also by a cancellation that came before this wait): the end.
                if state.isFinished { return .some(nil) }
                state.waiter = continuation
                return nil
            }
            guard let ready else { return }
            if ready != nil { room.signal() }
            continuation.resume(returning: ready)
        }
    }

    /// Ends the sequence after the events already queued; wakes a reading thread waiting for room.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Event?, Never>? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        room.signal()
        waiter?.resume(returning: nil)
    }

    private struct State {
        var queue: [Event] = []
        var head = 0
        var waiter: CheckedContinuation<Event?, Never>?
        var isFinished = false
    }

    private let state = Mutex(State())
    private let room: DispatchSemaphore
}
