import Dispatch
import Glibc
import Synchronization
@_spi(Package) import WaterfallJSON

/// Pipelines a mix of requests over several connections at once and checks the order of the replies
/// (a reply must never be lost): on each connection a writer thread sends its requests in chunks of random sizes while a reader
/// thread checks that every id gets exactly one reply, in the order sent, of a documented kind other than
/// `internal`, and that every line is whole JSON (an event spliced into a reply would not be).
///
/// Connection c changes its own layout `soak<c>` and subscribes, now and then, to its neighbour's, so events land
/// between its replies. The mix: single-item updates, inserts and deletes that keep the layout small, batches,
/// `layout.get` of a section, queries, pings, lists, notifications, and errors (unknown layout, bad params, unknown
/// method, an item index out of range).
package enum WireSoak {
    /// What a soak saw.
    package struct Outcome: Sendable {
        package var requests = 0
        package var replies = 0
        package var events = 0
        package var errors = 0
        /// Short-lived connections opened and closed meanwhile.
        package var churnCycles = 0
        package var failures: [String] = []
    }

    /// Runs `requests` requests in all over `connections` connections to the daemon at `path`.
    package static func run(path: String, connections: Int, requests: Int, seed: UInt64) -> Outcome {
        let outcome = Mutex(Outcome())
        let group = DispatchGroup()
        for c in 0..<connections {
            let socket: LineSocket
            do {
                socket = try LineSocket(path: path, timeout: 60)
                try setUp(socket, c, connections)
            } catch {
                outcome.withLock { $0.failures.append("connection \(c): \(error)") }
                continue
            }
            let plan = Plan(connection: c, connections: connections, count: requests / connections, seed: seed)
            let box = UncheckedBox(socket)
            group.enter()
            start {
                var random = SplitMix64(seed: seed &+ UInt64(c) &* 7_919)
                var sent = 0
                while sent < plan.lines.count {
                    let end = min(plan.lines.count, sent + Int.random(in: 1...256, using: &random))
                    var text = ""
                    for k in sent..<end { text += plan.lines[k] + "\n" }
                    do { try box.value.send(text) } catch { break }
                    sent = end
                }
                group.leave()
            }
            group.enter()
            start {
                let seen = read(box.value, plan)
                outcome.withLock { total in
                    total.requests += plan.lines.count
                    total.replies += seen.replies
                    total.events += seen.events
                    total.errors += seen.errors
                    total.failures += seen.failures
                }
                group.leave()
            }
        }
        // Meanwhile, connections that come and go, as the benchmark's do: a ping answered then closed, a burst
        // closed unread, a half-close; a race in closing a connection would kill the daemon for everyone.
        let done = Atomic<Bool>(false)
        let churned = Mutex((cycles: 0, failures: [String]()))
        let churnGroup = DispatchGroup()
        churnGroup.enter()
        start {
            var random = SplitMix64(seed: seed &+ 99)
            var cycles = 0
            var failures: [String] = []
            while !done.load(ordering: .acquiring), failures.isEmpty {
                cycles += 1
                if let failure = churn(path, &random) { failures.append("churn cycle \(cycles): \(failure)") }
            }
            churned.withLock { $0 = (cycles, failures) }
            churnGroup.leave()
        }
        group.wait()
        done.store(true, ordering: .releasing)
        churnGroup.wait()
        return outcome.withLock { total in
            churned.withLock { churned in
                total.churnCycles = churned.cycles
                total.failures += churned.failures
            }
            return total
        }
    }

    /// One short-lived connection; what went wrong, if anything.
    private static func churn(_ path: String, _ random: inout SplitMix64) -> String? {
        let socket: LineSocket
        do { socket = try LineSocket(path: path, timeout: 60) } catch { return "\(error)" }
        let burst = Int.random(in: 1...64, using: &random)
        var text = ""
        for k in 0..<burst { text += #"{"id":\#(k),"method":"layout.get","params":{"layout":"soak0"}}"# + "\n" }
        do { try socket.send(text) } catch { return nil }  // closed by the peer early is fine here
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            return nil  // closed unread
        case 1:
            socket.shutdownWrite()
            return nil
        default:
            for k in 0..<burst {
                do {
                    let reply = try FuzzReply(socket.readLine())
                    guard reply.id == .int(Int64(k)) else { return "reply \(reply.line.prefix(200)) for \(k)" }
                } catch {
                    return "no reply to request \(k) of a burst of \(burst): \(error)"
                }
            }
            return nil
        }
    }

    // MARK: Private

    /// A connection's lines and the id each expects in its reply (nil for a notification).
    private struct Plan: Sendable {
        var lines: [String] = []
        var ids: [JSONValue?] = []

        init(connection c: Int, connections: Int, count: Int, seed: UInt64) {
            var random = SplitMix64(seed: seed ^ UInt64(c))
            let own = "soak\(c)"
            let neighbour = "soak\((c + 1) % connections)"
            var items = 4
            lines.reserveCapacity(count)
            for k in 0..<count {
                let id: JSONValue = k % 7 == 3 ? .string("s\(k)") : .int(Int64(k))
                var line: String
                var expectsReply = true
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<30:
                    line =
                        #""method":"items.update","params":{"layout":"\#(own)","section":0,"#
                        + #""items":[{"i":\#(k % items),"h":\#(k % 90 + 10)}]}"#
                case 30..<40:
                    // Inserts and deletes in turn, so the layout stays a few items long.
                    if items < 8 {
                        line =
                            #""method":"items.insert","params":{"layout":"\#(own)","section":0,"at":\#(items),"#
                            + #""items":[{"h":\#(k % 50)}]}"#
                        items += 1
                    } else {
                        line = #""method":"items.delete","params":{"layout":"\#(own)","section":0,"items":[0,3]}"#
                        items -= 2
                    }
                case 40..<48:
                    line =
                        #""method":"batch","params":{"layout":"\#(own)","ops":["#
                        + #"{"method":"items.update","params":{"section":0,"items":[{"i":0,"h":\#(k % 40)}]}},"#
                        + #"{"method":"sections.configure","params":{"section":0,"rowSpacing":\#(k % 9)}}]}"#
                case 48..<58: line = #""method":"layout.get","params":{"layout":"\#(own)","sections":[0]}"#
                case 58..<66:
                    line =
                        #""method":"query","params":{"layout":"\#(neighbour)","#
                        + #""rect":{"x":0,"y":\#(k % 100),"w":300,"h":200}}"#
                case 66..<72: line = #""method":"ping""#
                case 72..<75: line = #""method":"layout.list""#
                case 75..<80:
                    line =
                        #""method":"\#(k % 2 == 0 ? "subscribe" : "unsubscribe")","params":{"layout":"\#(neighbour)"}"#
                case 80..<85:
                    // A notification: no reply.
                    line =
                        #""method":"items.update","params":{"layout":"\#(own)","section":0,"#
                        + #""items":[{"i":1,"h":\#(k % 30)}]}"#
                    expectsReply = false
                case 85..<89: line = #""method":"layout.get","params":{"layout":"nowhere"}"#
                case 89..<93:
                    line =
                        #""method":"items.update","params":{"layout":"\#(own)","section":0,"#
                        + #""items":[{"i":\#(1_000 + k),"h":1}]}"#
                case 93..<96: line = #""method":"items.insert","params":{"layout":"\#(own)","section":0,"at":"x"}"#
                default: line = #""method":"layout.rename""#
                }
                lines.append(
                    expectsReply
                        ? #"{"jsonrpc":"2.0","id":\#(id.jsonText),\#(line)}"# : #"{"jsonrpc":"2.0",\#(line)}"#)
                // Not `nil`: JSONValue is ExpressibleByNilLiteral, and `nil` would be `.null`.
                ids.append(expectsReply ? .some(id) : .none)
            }
        }
    }

    /// Creates the connection's layout (replacing an old one).
    private static func setUp(_ socket: LineSocket, _ c: Int, _ connections: Int) throws {
        try socket.send(
            #"{"id":0,"method":"layout.create","params":{"layout":"soak\#(c)","width":300,"replace":true,"#
                + #""sections":[{"items":[{"h":1},{"h":2},{"h":3},{"h":4}]}],"diff":false}}"# + "\n")
        let reply = try FuzzReply(socket.readLine())
        if reply.isError { throw FuzzProblem("setting up soak\(c): \(reply.line)") }
    }

    /// Reads the replies of `plan` and checks them.
    private static func read(
        _ socket: LineSocket, _ plan: Plan
    ) -> (replies: Int, events: Int, errors: Int, failures: [String]) {
        var replies = 0
        var events = 0
        var errors = 0
        var failures: [String] = []
        var next = 0
        while true {
            while next < plan.ids.count, case .none = plan.ids[next] { next += 1 }
            guard next < plan.ids.count else { break }
            let reply: FuzzReply
            do {
                reply = try FuzzReply(socket.readLine())
            } catch {
                failures.append("no reply to request \(next) of \(plan.ids.count) (\(error)): \(plan.lines[next])")
                break
            }
            if reply.isEvent {
                events += 1
                continue
            }
            replies += 1
            guard reply.id == plan.ids[next] else {
                failures.append(
                    "expected the reply to \(plan.lines[next].prefix(200)), got \(reply.line.prefix(300))")
                break
            }
            if let kind = reply.kind {
                errors += 1
                if !FuzzReply.clientKinds.contains(kind) { failures.append("\(kind): \(reply.line.prefix(300))") }
            }
            next += 1
        }
        return (replies, events, errors, failures)
    }

    /// Runs `body` on a thread of its own (a blocked read must not hold one of dispatch's or Swift's pool threads).
    private static func start(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(UncheckedBox(body)).toOpaque()
        var thread = pthread_t()
        pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<UncheckedBox<@Sendable () -> Void>>.fromOpaque(raw!).takeRetainedValue().value()
                return nil
            }, context)
        pthread_detach(thread)
    }
}

/// A non-Sendable value handed to threads that use it one at a time (the writer sends, the reader reads).
private final class UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
