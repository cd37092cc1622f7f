import Foundation
import Glibc
import Testing
import WaterfallTestSupport

/// Replies are produced as the client drains them: a client that reads gets replies of any size and is never
/// closed, and the daemon holds a few chunks of a large reply, not the whole of it; work for a client that left
/// stops at once. Run against the built daemon, whose memory and CPU time /proc shows apart from the test's.
@Suite(.tags(.process), .serialized) struct BackpressureTests {
    /// A million items: a `layout.get` of all of them is a reply of about 48 MB.
    static let items = 1_000_000

    @Test func aPromptReaderGetsAMillionItemReplyAndAThousandPingsAfterItInBoundedMemory() async throws {
        let daemon = try await DaemonProcess.start()
        let client = try TestClient(path: daemon.socketPath, timeout: 120)
        try await client.createLayout("big", items: Self.items)
        let before = daemon.status("VmRSS")
        daemon.resetPeakMemory()
        var requests = #"{"id":"get","method":"layout.get","params":{"layout":"big"}}"# + "\n"
        for k in 0..<1000 { requests += #"{"id":\#(k),"method":"ping"}"# + "\n" }
        let start = Date()
        try await client.write(requests)
        let replies = try await client.readLines(1001)
        let seconds = Date().timeIntervalSince(start)
        let growth = daemon.status("VmHWM") - before
        try #require(
            replies.count == 1001,
            "the connection was closed after \(replies.count) replies; the daemon said: \(daemon.standardError)"
        )
        let reply = replies[0]
        #expect(reply.hasPrefix(#"{"jsonrpc":"2.0","id":"get","result":{"seq":1,"#))
        #expect(reply.hasSuffix("]}]}}"))
        #expect(reply.contains(#"{"i":999999,"#))
        let pongs = (0..<1000).map { #"{"jsonrpc":"2.0","id":\#($0),"result":{"pong":true}}"# }
        #expect(Array(replies[1...]) == pongs)
        let megabytes = Double(reply.utf8.count) / 1e6
        print(
            "layout.get of \(Self.items) items: \(megabytes) MB in \(seconds) s (\(megabytes / seconds) MB/s, debug "
                + "build), peak RSS \(before + growth) bytes, \(growth) over the \(before) before it")
        // The layout itself is held before; the reply may add a few chunks, the socket's and the pause's worth.
        #expect(growth < 12 << 20, "the daemon's peak RSS grew by \(growth) bytes during the reply")
        #expect(await daemon.stop() == .exited(0))
    }

    @Test func aPingWithAFifteenMebibyteIDIsAnsweredAndTheRequestsAfterItToo() async throws {
        let daemon = try await DaemonProcess.start()
        let client = try TestClient(path: daemon.socketPath, timeout: 60)
        let id = String(repeating: "x", count: 15 << 20)
        var requests = #"{"id":"\#(id)","method":"ping"}"# + "\n"
        for k in 0..<10 { requests += #"{"id":\#(k),"method":"ping"}"# + "\n" }
        try await client.write(requests)
        let replies = try await client.readLines(11)
        try #require(
            replies.count == 11,
            "the connection was closed after \(replies.count) replies; the daemon said: \(daemon.standardError)"
        )
        #expect(replies[0] == #"{"jsonrpc":"2.0","id":"\#(id)","result":{"pong":true}}"#)
        #expect(replies[10] == #"{"jsonrpc":"2.0","id":9,"result":{"pong":true}}"#)
        #expect(await daemon.stop() == .exited(0))
    }

    @Test func aClientThatQueuesLargeRepliesAndLeavesLeavesTheDaemonIdle() async throws {
        let daemon = try await DaemonProcess.start()
        let setup = try TestClient(path: daemon.socketPath, timeout: 120)
        try await setup.createLayout("big", items: Self.items)
        let client = try TestClient(path: daemon.socketPath, timeout: 60)
        var requests = ""
        for k in 0..<500 { requests += #"{"id":\#(k),"method":"layout.get","params":{"layout":"big"}}"# + "\n" }
        try await client.write(requests)
        // Long enough for the daemon to be well into the first reply.
        try await Task.sleep(for: .milliseconds(300))
        client.closeNow()
        let closed = Date()
        // Idle: no CPU tick (10 ms) for 200 ms on end.
        var last = daemon.cpuTicks()
        var quietSince = Date()
        while Date().timeIntervalSince(quietSince) < 0.2, Date().timeIntervalSince(closed) < 5 {
            try await Task.sleep(for: .milliseconds(5))
            let now = daemon.cpuTicks()
            if now != last {
                last = now
                quietSince = Date()
            }
        }
        let toIdle = quietSince.timeIntervalSince(closed)
        print("from the client's disconnect to an idle daemon: \(Int(toIdle * 1000)) ms (CPU ticks \(last))")
        #expect(last > 0, "no CPU time read from /proc/\(daemon.pid)/stat")
        // Producing the 500 replies would take many seconds; stopping takes one chunk. The bound leaves room for a
        // machine busy with other builds, and still tells the two apart.
        #expect(toIdle < 1, "the daemon kept working for \(toIdle) s after its client left")
        // And it still serves.
        let after = try TestClient(path: daemon.socketPath)
        try await after.write(#"{"id":1,"method":"ping"}"# + "\n")
        #expect(try await after.readLines(1) == [#"{"jsonrpc":"2.0","id":1,"result":{"pong":true}}"#])
        #expect(await daemon.stop() == .exited(0))
    }
}
