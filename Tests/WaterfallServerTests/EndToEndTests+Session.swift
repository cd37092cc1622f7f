import Foundation
import Glibc
import Testing
import WaterfallTestSupport

/// The README's socat session against the built binary, line for line.
extension EndToEndTests {
    @Test(.enabled(if: ChildProcess.which("socat") != nil, "socat is not installed (.ci/run installs it)"))
    func runsTheReadmeSession() async throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let socket = directory + "/wf.sock"
        let daemon = try DaemonProcess(.init(environment: ["WATERFALLD_SOCKET": socket]))
        #expect(await waitForFile(socket))
        func session(_ request: String) async throws -> String {
            try await socat(request + "\n", path: socket)
        }

        #expect(
            try await session(
                #"{"id":1,"method":"layout.create","params":{"layout":"feed","width":375,"defaults":{"columns":2,"#
                    + #""insets":{"left":10,"right":10}},"sections":[{"headerHeight":44,"items":[{"h":120},{"h":80},"#
                    + #"{"h":100,"id":"ad-1"}]}]}}"#)
                == #"{"jsonrpc":"2.0","id":1,"result":{"seq":1,"contentSize":{"w":375,"h":234},"diff":{"sections":["#
                + #"{"section":0,"origin":0,"height":234,"count":3,"new":true,"header":{"x":0,"y":0,"w":375,"h":44},"#
                + #""items":[{"i":0,"x":10,"y":44,"w":172.5,"h":120},{"i":1,"x":192.5,"y":44,"w":172.5,"h":80},"#
                + #"{"i":2,"x":192.5,"y":134,"w":172.5,"h":100,"id":"ad-1"}]}]}}}"# + "\n")

        // The second terminal: an interactive socat that keeps its connection open (`ignoreeof` stands for the
        // terminal that is never closed) and prints the events.
        let subscriber = try ChildProcess(
            ChildProcess.which("socat") ?? "", ["-t", "5", "-,ignoreeof", "UNIX-CONNECT:\(socket)"],
            environment: [:], input: #"{"id":1,"method":"subscribe","params":{"layout":"feed"}}"# + "\n")
        #expect(await eventually { subscriber.standardOutput.hasPrefix(#"{"jsonrpc":"2.0","id":1,"result":{}}"#) })

        let inserted =
            #"{"seq":2,"contentSize":{"w":375,"h":510.25},"diff":{"sections":[{"section":0,"origin":0,"#
            + #""height":510.25,"count":5,"items":[{"i":3,"x":10,"y":174,"w":172.5,"h":60},"#
            + #"{"i":4,"x":10,"y":244,"w":355,"h":266.25}]}]}}"#
        let insert =
            #"{"id":2,"method":"items.insert","params":{"layout":"feed","section":0,"at":3,"items":[{"h":60},"#
            + #"{"w":4,"h":3,"span":"full"}]}}"#
        #expect(try await session(insert) == #"{"jsonrpc":"2.0","id":2,"result":\#(inserted)}"# + "\n")

        #expect(
            try await session(
                #"{"id":3,"method":"query","params":{"layout":"feed","rect":{"x":0,"y":100,"w":375,"h":100}}}"#)
                == #"{"jsonrpc":"2.0","id":3,"result":{"seq":2,"contentSize":{"w":375,"h":510.25},"elements":["#
                + #"{"kind":"item","section":0,"i":0,"x":10,"y":44,"w":172.5,"h":120},"#
                + #"{"kind":"item","section":0,"i":1,"x":192.5,"y":44,"w":172.5,"h":80},"#
                + #"{"kind":"item","section":0,"i":2,"x":192.5,"y":134,"w":172.5,"h":100,"id":"ad-1"},"#
                + #"{"kind":"item","section":0,"i":3,"x":10,"y":174,"w":172.5,"h":60}]}}"# + "\n")

        #expect(
            try await session(
                #"{"id":4,"method":"items.update","params":{"layout":"feed","section":0,"items":[{"i":0,"h":90}]}}"#)
                == #"{"jsonrpc":"2.0","id":4,"result":{"seq":3,"contentSize":{"w":375,"h":510.25},"diff":{"sections":["#
                + #"{"section":0,"origin":0,"height":510.25,"count":5,"items":[{"i":0,"x":10,"y":44,"w":172.5,"h":90},"#
                + #"{"i":3,"x":10,"y":144,"w":172.5,"h":60}]}]}}}"# + "\n")

        #expect(
            try await session(
                #"{"id":5,"method":"items.update","params":{"layout":"feed","section":0,"items":[{"i":0,"h":-1}]}}"#)
                == #"{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"params.items[0].h: -1 must be a number "#
                + #"≥ 0","data":{"kind":"bad_params"}}}"# + "\n")

        // The subscriber saw both changes, in order, each with the request and the reply's diff.
        let insertEvent =
            #"{"jsonrpc":"2.0","method":"layout.changed","params":{"layout":"feed","seq":2,"#
            + #""contentSize":{"w":375,"h":510.25},"ops":[{"method":"#
            + #""items.insert","params":{"layout":"feed","section":0,"at":3,"items":[{"h":60},{"w":4,"h":3,"#
            + #""span":"full"}]}}],"diff":{"sections":[{"section":0,"origin":0,"height":510.25,"count":5,"items":["#
            + #"{"i":3,"x":10,"y":174,"w":172.5,"h":60},{"i":4,"x":10,"y":244,"w":355,"h":266.25}]}]}}}"#
        #expect(await eventually { subscriber.standardOutput.split(separator: "\n").count == 3 })
        let events = subscriber.standardOutput.split(separator: "\n").map(String.init)
        #expect(events.count == 3)
        #expect(events.dropFirst().first == insertEvent)
        #expect(events.last?.contains(#""method":"layout.changed","params":{"layout":"feed","seq":3,"#) == true)
        subscriber.signal(SIGTERM)
        _ = await subscriber.waitForExit(within: 5)
        daemon.signal(SIGTERM)
        #expect(await daemon.waitForExit(within: 5)?.status == 0)
    }
}
