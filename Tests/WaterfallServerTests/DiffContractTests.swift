import Testing
import WaterfallClient
@_spi(Package) import WaterfallJSON
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallTestSupport

@testable import WaterfallServer

/// The Diffs article's promise, through the socket: a client that holds the old frames, replays each request on its
/// indices, adds `dy` and overwrites the listed items holds exactly the frames of a fresh `layout.get`.
// Serialized: its cases are CPU-bound, and run side by side they would hold every thread of the cooperative
// pool (two here) for seconds, starving the socket tests that run meanwhile.
@Suite(.tags(.server), .serialized) struct DiffContractTests {
    static let seeds: [UInt64] = [1, 2, 0xD1FF]

    @Test(arguments: seeds)
    func aClientReplayingDiffsHoldsTheFrames(seed: UInt64) async throws {
        let steps = Environment.integer("WATERFALL_DIFF_STEPS") ?? 100
        let fixture = try await InProcessDaemon.start()
        let client = try fixture.connect()
        let watcher = try fixture.connect()
        var random = RandomCommands(seed: seed, maxItems: 30)
        let spec = random.layout()
        // Says where each scroll anchor goes, by the items' identity.
        var reference = ReferenceLayout(spec)
        try await client.result("layout.create", WireCommand.create("r", spec))
        try await watcher.result("subscribe", ["layout": "r"])
        var held = try FrameModel(layoutGet: try await client.result("layout.get", ["layout": "r"]))
        var seq = 1
        var replyDiffs: [JSONValue] = []
        var replyAnchors: [JSONValue?] = []
        for step in 0..<steps {
            // Mostly single requests; sometimes a batch of two or three.
            let count = random.chance(0.15) ? random.int(2...3) : 1
            var commands: [LayoutCommand] = []
            var counts = held.sections.map(\.items.count)
            for _ in 0..<count {
                let command = random.command(counts: counts)
                commands.append(command)
                // The client's replay refuses indices out of range, changing nothing: the batch's later commands are
                // drawn against the counts that its valid ones leave.
                var shape = FrameModel(shapeOf: counts)
                if (try? shape.replay([command])) != nil { counts = shape.sections.map(\.items.count) }
            }
            var request: (method: String, params: JSONValue)
            if commands.count == 1 {
                let wire = WireCommand(commands[0])
                request = (wire.method, wire.params(layout: "r"))
            } else {
                let ops: [JSONValue] = commands.map { command in
                    let wire = WireCommand(command)
                    return ["method": .string(wire.method), "params": wire.params]
                }
                request = ("batch", ["layout": "r", "ops": .array(ops)])
            }
            // A scroll anchor on a quarter of the requests.
            var expectedAnchor: AnchorOutcome?
            let referenceAccepted: Bool
            if random.chance(0.25) {
                let anchor = random.anchor(counts: held.sections.map(\.items.count))
                request.params = request.params.setting(
                    "anchor", ["section": .int(Int64(anchor.section)), "i": .int(Int64(anchor.item))])
                expectedAnchor = reference.apply(commands, anchor: anchor)
                referenceAccepted = expectedAnchor != nil
            } else {
                referenceAccepted = reference.apply(commands)
            }
            let context = "seed \(seed), step \(step): \(request.method) \(request.params)"
            let reply = try await client.call(request.method, request.params)
            guard let result = reply["result"] else {
                // Refused (the generator makes a few invalid commands and anchors): nothing changed.
                #expect(!referenceAccepted, "the daemon refused what the reference accepted: \(context): \(reply)")
                let after = try await client.result("layout.get", ["layout": "r"])
                #expect(after["seq"] == .int(Int64(seq)), "\(context)")
                #expect(try FrameModel(layoutGet: after).sections == held.sections, "\(context)")
                continue
            }
            seq += 1
            #expect(result["seq"] == .int(Int64(seq)), "\(context)")
            let diffJSON = try #require(result["diff"], "\(context)")
            replyDiffs.append(diffJSON)
            replyAnchors.append(result["anchor"])
            if request.params["anchor"] != nil {
                try expect(result["anchor"], is: expectedAnchor, context)
            } else {
                #expect(result["anchor"] == nil, "\(context)")
            }
            try held.apply(try LayoutDiff(json: diffJSON), replaying: commands)
            let fresh = try FrameModel(layoutGet: try await client.result("layout.get", ["layout": "r"]))
            #expect(held.sections == fresh.sections, "\(context)\n\(result)")
            if held.sections != fresh.sections { return }
        }
        // The subscriber got the same diffs, in seq order.
        for (k, diff) in replyDiffs.enumerated() {
            let event = try JSONValue(parsing: try await watcher.readLine())
            #expect(event["params"]?["seq"] == .int(Int64(k + 2)))
            #expect(event["params"]?["diff"] == diff)
            #expect(event["params"]?["anchor"] == replyAnchors[k])
        }
        await fixture.stop()
    }

    /// Checks that a result's `anchor` says what the reference does (nil from it: the request should have failed).
    private func expect(_ json: JSONValue?, is expected: AnchorOutcome?, _ context: String) throws {
        switch expected {
        case nil:
            Issue.record("the daemon accepted what the reference refused: \(context)")
        case .removed:
            #expect(json == .null, "\(context)")
        case .moved(let path, let delta)?, .movedAlongX(let path, let delta)?:
            // A horizontal layout's anchor carries dx (Geometry, "Horizontal feeds").
            let key = if case .movedAlongX? = expected { "dx" } else { "dy" }
            let anchor = try #require(json, "\(context)")
            #expect(anchor.keys == ["section", "i", key], "\(context)")
            #expect(
                anchor["section"] == .int(Int64(path.section)) && anchor["i"] == .int(Int64(path.item)), "\(context)")
            #expect(try anchor.number(key) == delta, "\(context): \(anchor)")
        }
    }
}

extension FrameModel {
    /// Unknown frames of sections with these item counts, for tracking the shape of a batch as it is built.
    init(shapeOf counts: [Int]) {
        self.init(
            seq: 0, contentSize: Size(width: 0, height: 0),
            sections: counts.map { Section(origin: 0, height: 0, items: Array(repeating: nil, count: $0)) })
    }
}
