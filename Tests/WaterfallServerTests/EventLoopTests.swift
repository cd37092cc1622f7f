import Glibc
import Synchronization
import Testing

@testable import WaterfallServer

/// The event loop on a socket pair: a handler is called while its interest is on and not while it is off, again
/// while data is left unread (level-triggered), not at all once cancelled, and its cancellation is reported once;
/// the set ends at the last interest its owner decided, whichever thread gives it last.
@Suite(.tags(.server)) struct EventLoopTests {
    @Test func readingIsReportedOnlyWhileWatched() async throws {
        let pair = try SocketPair()
        let handler = RecordingHandler(fd: pair.near)
        let events = EventLoop.next().register(pair.near, handler)
        defer { events.cancel() }
        pair.send("a")
        try await Task.sleep(for: .milliseconds(50))
        #expect(handler.reads.load(ordering: .acquiring) == 0, "nothing is watched before the first interest")
        #expect(events.setInterest(SocketInterest(reading: true, writing: false), order: 1) == nil)
        #expect(await eventually(within: 5) { handler.seen.received == "a" })
        #expect(events.setInterest(SocketInterest(reading: false, writing: false), order: 2) == nil)
        let before = handler.reads.load(ordering: .acquiring)
        pair.send("b")
        // The peer's hang-up, which epoll reports whatever is asked, must not reach a suspended socket.
        pair.closeFar()
        try await Task.sleep(for: .milliseconds(50))
        #expect(handler.reads.load(ordering: .acquiring) == before)
        #expect(events.setInterest(SocketInterest(reading: true, writing: false), order: 3) == nil)
        #expect(await eventually(within: 5) { handler.seen.received == "ab" && handler.seen.sawEnd })
    }

    @Test func dataLeftUnreadIsReportedAgain() async throws {
        let pair = try SocketPair()
        let handler = RecordingHandler(fd: pair.near, bytesPerRead: 1)
        let events = EventLoop.next().register(pair.near, handler)
        defer { events.cancel() }
        #expect(events.setInterest(SocketInterest(reading: true, writing: false), order: 1) == nil)
        pair.send("hello")
        #expect(await eventually(within: 5) { handler.seen.received == "hello" })
        #expect(handler.reads.load(ordering: .acquiring) >= 5)
    }

    @Test func writingIsReportedWhileWatched() async throws {
        let pair = try SocketPair()
        let handler = RecordingHandler(fd: pair.near)
        let events = EventLoop.next().register(pair.near, handler)
        defer { events.cancel() }
        #expect(events.setInterest(SocketInterest(reading: false, writing: true), order: 1) == nil)
        #expect(await eventually(within: 5) { handler.writes.load(ordering: .acquiring) > 0 })
        #expect(events.setInterest(SocketInterest(reading: false, writing: false), order: 2) == nil)
        try await Task.sleep(for: .milliseconds(20))
        let settled = handler.writes.load(ordering: .acquiring)
        try await Task.sleep(for: .milliseconds(50))
        #expect(handler.writes.load(ordering: .acquiring) == settled, "a writable socket no longer watched is quiet")
    }

    @Test func aSocketTheKernelWillNotWatchIsReported() throws {
        // A regular file: epoll refuses it (EPERM), as it would refuse a socket when out of watches.
        let file = open(#filePath, O_RDONLY | O_CLOEXEC)
        try #require(file >= 0)
        defer { Glibc.close(file) }
        let events = EventLoop.next().register(file, RecordingHandler(fd: file))
        defer { events.cancel() }
        #expect(events.setInterest(SocketInterest(reading: true, writing: false), order: 1) == EPERM)
        #expect(
            events.setInterest(SocketInterest(reading: false, writing: false), order: 2) == nil, "nothing to take out")
    }

    @Test func aCancelledSocketIsReportedOnceAndHeardNoMore() async throws {
        let pair = try SocketPair()
        let handler = RecordingHandler(fd: pair.near)
        let events = EventLoop.next().register(pair.near, handler)
        #expect(events.setInterest(SocketInterest(reading: true, writing: true), order: 1) == nil)
        events.cancel()
        events.cancel()
        #expect(events.setInterest(SocketInterest(reading: true, writing: true), order: 2) == nil)
        #expect(await eventually(within: 5) { handler.cancellations.load(ordering: .acquiring) == 1 })
        let reads = handler.reads.load(ordering: .acquiring)
        let writes = handler.writes.load(ordering: .acquiring)
        pair.send("late")
        try await Task.sleep(for: .milliseconds(50))
        #expect(handler.cancellations.load(ordering: .acquiring) == 1)
        #expect(handler.reads.load(ordering: .acquiring) == reads)
        #expect(handler.writes.load(ordering: .acquiring) == writes)
        #expect(handler.callsAfterCancel.load(ordering: .acquiring) == 0)
    }
    @Test func theEpollSetEndsAtTheLastOrderWhateverOrderTheThreadsCallIn() async throws {
        for last in [SocketInterest(reading: true, writing: false), SocketInterest(reading: false, writing: false)] {
            let pair = try SocketPair()
            let handler = RecordingHandler(fd: pair.near)
            let events = EventLoop.next().register(pair.near, handler)
            defer { events.cancel() }
            let orders = 400
            // Every order but the last has an interest drawn at random; threads take the orders as they come and
            // race to set them, the last one among them.
            let next = Counter()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        while true {
                            let order = next.value.add(1, ordering: .relaxed).newValue
                            guard order <= orders else { return }
                            let interest =
                                order == orders ? last : SocketInterest(reading: Bool.random(), writing: false)
                            _ = events.setInterest(interest, order: order)
                        }
                    }
                }
            }
            #expect(events.setInterest(SocketInterest(reading: !last.reading, writing: false), order: 1) == nil)
            pair.send("x")
            if last.reading {
                #expect(await eventually(within: 5) { handler.seen.received == "x" })
            } else {
                try await Task.sleep(for: .milliseconds(50))
                #expect(handler.reads.load(ordering: .acquiring) == 0, "the set kept an interest older than the last")
            }
        }
    }
}

/// A counter that tasks share.
private final class Counter: Sendable {
    let value = Atomic<UInt64>(0)
}

/// Two connected Unix stream sockets: `near` is watched, the test writes through the far end.
private final class SocketPair {
    let near: Int32
    private var far: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw SocketPairError() }
        near = fds[0]
        far = fds[1]
        _ = fcntl(near, F_SETFL, fcntl(near, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        Glibc.close(near)
        if far >= 0 { Glibc.close(far) }
    }

    func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(far, $0.baseAddress, $0.count) }
    }

    func closeFar() {
        Glibc.close(far)
        far = -1
    }
}

private struct SocketPairError: Error {}

/// Reads what it is told is readable (a bounded amount per call) and counts every call.
private final class RecordingHandler: SocketEventHandler {
    struct Seen {
        var received = ""
        var sawEnd = false
    }

    let reads = Atomic(0)
    let writes = Atomic(0)
    let cancellations = Atomic(0)
    let callsAfterCancel = Atomic(0)
    private let fd: Int32
    private let bytesPerRead: Int
    private let state = Mutex(Seen())

    /// What was read so far.
    var seen: Seen { state.withLock { $0 } }

    init(fd: Int32, bytesPerRead: Int = 64) {
        self.fd = fd
        self.bytesPerRead = bytesPerRead
    }

    func readable() {
        if cancellations.load(ordering: .acquiring) > 0 { callsAfterCancel.add(1, ordering: .relaxed) }
        reads.add(1, ordering: .relaxed)
        var buffer = [UInt8](repeating: 0, count: bytesPerRead)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        state.withLock { seen in
            if count > 0 { seen.received += String(decoding: buffer[..<count], as: UTF8.self) }
            if count == 0 { seen.sawEnd = true }
        }
    }

    func writable() {
        if cancellations.load(ordering: .acquiring) > 0 { callsAfterCancel.add(1, ordering: .relaxed) }
        writes.add(1, ordering: .relaxed)
    }

    func eventsCancelled() {
        cancellations.add(1, ordering: .relaxed)
    }

}
