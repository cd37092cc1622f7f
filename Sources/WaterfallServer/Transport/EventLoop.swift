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

    /// Watches the socket for what `interest` asks (nothing is watched until the first call). Returns the errno when
    /// the kernel refuses (out of memory, or of `max_user_watches`): the socket is then not watched for what was
    /// asked, and its owner must close it rather than wait for events that will not come.
    func setInterest(_ interest: SocketInterest) -> Int32? {
        state.withLock { state -> Int32? in
            guard !state.cancelled else { return nil }
            state.interest = interest
            let events = (interest.reading ? CEPOLL_IN | CEPOLL_RDHUP : 0) | (interest.writing ? CEPOLL_OUT : 0)
            // Under the lock, so that the set sees the changes in their order.
            if events == 0 {
                if state.registered { _ = cepoll_ctl(loop.epollFD, CEPOLL_CTL_DEL, fd, 0, token) }
                state.registered = false
                return nil
            }
            let op = state.registered ? CEPOLL_CTL_MOD : CEPOLL_CTL_ADD
            guard cepoll_ctl(loop.epollFD, op, fd, events, token) == 0 else { return errno }
            state.registered = true
            return nil
        }
    }

    /// Stops watching; the handler's `eventsCancelled` follows on the loop's thread. Once only.
    func cancel() {
        let first = state.withLock { state -> Bool in
            guard !state.cancelled else { return false }
            state.cancelled = true
            if state.registered { _ = cepoll_ctl(loop.epollFD, CEPOLL_CTL_DEL, fd, 0, token) }
            state.registered = false
            return true
        }
        if first { loop.cancel(token) }
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
        var registered = false
        var cancelled = false
    }

    private let fd: Int32
    private let token: UInt64
    private let loop: EventLoop
    private let state = Mutex(State())
}
