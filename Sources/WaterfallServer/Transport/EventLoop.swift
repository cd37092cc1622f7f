import CEpoll
import Foundation
import Glibc
import Synchronization

/// What a socket's readiness is reported to: `Connection`. Called on its event loop's thread, one call at a time.
protocol SocketEventHandler: AnyObject, Sendable {
    func readable()
    func writable()
    /// The socket's events were cancelled: no call of `readable` or `writable` comes after this one.
    func eventsCancelled()
}

/// A thread of the daemon's own that waits on an epoll set and runs each ready connection's handler itself.
///
/// The thread that wakes from `epoll_wait` reads, so no other thread is woken in the path of a read, and changing
/// a socket's interest is one `epoll_ctl` from any thread.
///
/// The set is level-triggered: a handler that leaves data unread (a read handler reads a bounded amount, for
/// fairness) is called again on the next round. A descriptor with no interest is taken out of the set, so that a
/// peer's hang-up, which epoll reports whatever is asked, does not spin the loop while reading is suspended.
final class EventLoop: Sendable {
    // MARK: Lifecycle

    /// A loop and its thread; nil when the kernel refuses the epoll set or the eventfd.
    private init?(index: Int) {
        epollFD = cepoll_create()
        wakeFD = cepoll_eventfd()
        guard epollFD >= 0, wakeFD >= 0, cepoll_ctl(epollFD, CEPOLL_CTL_ADD, wakeFD, CEPOLL_IN, 0) == 0 else {
            if epollFD >= 0 { Glibc.close(epollFD) }
            if wakeFD >= 0 { Glibc.close(wakeFD) }
            return nil
        }
        let name = "waterfalld.io.\(index)"
        let thread = Thread { [self] in
            // The system's name (15 bytes at most), for top -H and perf; `Thread.name` is Foundation's own.
            cepoll_name_thread(name)
            run()
        }
        thread.name = name
        thread.start()
    }

    // MARK: Internal

    /// The process's loops, one per core (at most 4), started on first use (`Server.start` checks that there are
    /// some) and running for the life of the process. A connection stays on the loop it
    /// was given, and shares its thread with the others there: what could hold it for long, a long line's parse, runs
    /// apart, and a long line being carried is read a chunk per round (`Connection.readable`).
    static let shared: [EventLoop] = {
        let count = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        return (0..<count).compactMap { EventLoop(index: $0) }
    }()

    /// The loop for the next connection: round robin over `shared`.
    static func next() -> EventLoop {
        let loops = shared
        return loops[Int(assigned.add(1, ordering: .relaxed).oldValue % UInt64(loops.count))]
    }

    /// Registers `fd` (nothing is watched until `SocketEvents.setInterest`); `handler` is held until cancelled.
    func register(_ fd: Int32, _ handler: any SocketEventHandler) -> SocketEvents {
        let token = nextToken.add(1, ordering: .relaxed).newValue
        let events = SocketEvents(fd: fd, token: token, loop: self)
        table.withLock { $0[token] = Entry(events: events, handler: handler) }
        return events
    }

    // MARK: Fileprivate

    fileprivate let epollFD: Int32

    /// Runs `body` on this loop's thread, after the events it is handling now.
    fileprivate func post(_ body: @escaping @Sendable () -> Void) {
        posted.withLock { $0.append(body) }
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, 8)
    }

    /// Forgets the registration of `token` and tells its handler, on this thread, after any event being handled.
    fileprivate func cancel(_ token: UInt64) {
        post { [self] in
            let entry = table.withLock { $0.removeValue(forKey: token) }
            entry?.handler.eventsCancelled()
        }
    }

    // MARK: Private

    private struct Entry {
        let events: SocketEvents
        let handler: any SocketEventHandler
    }

    /// Connections given a loop so far, for the round robin.
    private static let assigned = Atomic<UInt64>(0)
    /// Ready descriptors taken per `epoll_wait`.
    private static let batch = 64

    private let wakeFD: Int32
    private let table = Mutex<[UInt64: Entry]>([:])
    private let posted = Mutex<[@Sendable () -> Void]>([])
    /// Token 0 is the wake-up eventfd.
    private let nextToken = Atomic<UInt64>(0)

    private func run() {
        let ready = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: Self.batch)
        let tokens = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: Self.batch)
        while true {
            let count = cepoll_wait(epollFD, ready.baseAddress, tokens.baseAddress, Int32(Self.batch), -1)
            if count < 0 {
                if errno == EINTR { continue }
                fatalError("epoll_wait failed: \(String(cString: strerror(errno)))")
            }
            var woken = false
            for k in 0..<Int(count) {
                if tokens[k] == 0 {
                    woken = true
                    continue
                }
                guard let entry = table.withLock({ $0[tokens[k]] }) else { continue }
                entry.events.deliver(ready[k], to: entry.handler)
            }
            if woken { runPosted() }
        }
    }

    private func runPosted() {
        var drained: UInt64 = 0
        _ = Glibc.read(wakeFD, &drained, 8)
        let bodies = posted.withLock { posted -> [@Sendable () -> Void] in
            defer { posted = [] }
            return posted
        }
        for body in bodies { body() }
    }
}

/// One socket's registration in an `EventLoop`: its interest, set from any thread, and one cancellation after which
/// its handler is called no more.
final class SocketEvents: Sendable {
    // MARK: Lifecycle

    fileprivate init(fd: Int32, token: UInt64, loop: EventLoop) {
        self.fd = fd
        self.token = token
        self.loop = loop
    }

    // MARK: Internal

    /// Watches the socket for what `interest` asks (nothing is watched until the first call), the `order`-th
    /// interest its owner decided on: one older than an interest already set is dropped, so that the epoll set ends
    /// at the owner's last decision whatever order the threads that decided call in. Returns the errno when the
    /// kernel refuses (out of memory, or of `max_user_watches`): the socket is then not watched for what was asked,
    /// and its owner must close it rather than wait for events that will not come.
    ///
    /// The `epoll_ctl` runs outside the lock that `deliver` takes on the loop's thread for every event, and when
    /// this returns the set has this interest or a later one.
    func setInterest(_ interest: SocketInterest, order: UInt64) -> Int32? {
        let taken = state.withLock { state -> Bool in
            guard !state.cancelled, order > state.order else { return false }
            state.order = order
            state.interest = interest
            state.pending = true
            return true
        }
        return taken ? applyPending() : nil
    }

    /// Stops watching; the handler's `eventsCancelled` follows on the loop's thread. Once only.
    func cancel() {
        let first = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.cancelled = true
            state.pending = true
            return true
        }
        if first { _ = applyPending() }
    }

    // MARK: Fileprivate

    /// Calls `handler` for what `events` reports and is still watched; an error or hang-up goes to both, so that
    /// the read sees the end of input and the write its failure.
    fileprivate func deliver(_ events: UInt32, to handler: any SocketEventHandler) {
        let now = state.withLock { $0 }
        guard !now.cancelled else { return }
        let broken = events & (CEPOLL_ERR | CEPOLL_HUP) != 0
        if now.interest.reading, broken || events & (CEPOLL_IN | CEPOLL_RDHUP) != 0 { handler.readable() }
        if now.interest.writing, broken || events & CEPOLL_OUT != 0 { handler.writable() }
    }

    // MARK: Private

    private struct State {
        var interest = SocketInterest.none
        /// The order of `interest` (`setInterest`).
        var order: UInt64 = 0
        var registered = false
        var cancelled = false
        /// Whether `interest` or the cancellation has changed since the epoll set was last given it.
        var pending = false
        /// Whether the cancellation was given to the epoll set and the loop.
        var cancelApplied = false

        /// What to give the epoll set for what is pending, taken as given; nil when nothing is.
        mutating func nextStep() -> Step? {
            guard pending else { return nil }
            pending = false
            if cancelled {
                guard !cancelApplied else { return nil }
                cancelApplied = true
                defer { registered = false }
                return .cancel(deleting: registered)
            }
            let events = (interest.reading ? CEPOLL_IN | CEPOLL_RDHUP : 0) | (interest.writing ? CEPOLL_OUT : 0)
            if events == 0 {
                defer { registered = false }
                return registered ? .delete : nil
            }
            defer { registered = true }
            return .watch(op: registered ? CEPOLL_CTL_MOD : CEPOLL_CTL_ADD, events: events)
        }
    }

    /// One `epoll_ctl` for what was pending.
    private enum Step {
        case watch(op: Int32, events: UInt32)
        case delete
        case cancel(deleting: Bool)
    }

    /// Gives the epoll set what is pending (a change made meanwhile by another thread included), one thread at a
    /// time so that the calls keep their order, outside `state`; the errno of a refused watch, if any.
    ///
    /// A thread that finds another applying waits for it rather than leaving its change to it: the loop's thread,
    /// back in `epoll_wait` before the set had its change, would be woken again and again by a readiness it no
    /// longer watches.
    private func applyPending() -> Int32? {
        applying.withLock { _ -> Int32? in
            var failure: Int32?
            while let step = state.withLock({ $0.nextStep() }) {
                switch step {
                case .watch(let op, let events):
                    guard cepoll_ctl(loop.epollFD, op, fd, events, token) != 0 else { continue }
                    failure = errno
                    // A refused add leaves the socket out of the set; a refused change leaves it in, as it was.
                    if op == CEPOLL_CTL_ADD { state.withLock { $0.registered = false } }
                case .delete:
                    _ = cepoll_ctl(loop.epollFD, CEPOLL_CTL_DEL, fd, 0, token)
                case .cancel(let deleting):
                    if deleting { _ = cepoll_ctl(loop.epollFD, CEPOLL_CTL_DEL, fd, 0, token) }
                    loop.cancel(token)
                }
            }
            return failure
        }
    }

    private let fd: Int32
    private let token: UInt64
    private let loop: EventLoop
    private let state = Mutex(State())
    /// Held by the thread giving the epoll set its changes (`applyPending`), across its `epoll_ctl` calls.
    private let applying = Mutex(())
}
