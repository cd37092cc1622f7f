import Testing
import WaterfallClient
import WaterfallLayout
import WaterfallServerTestSupport
import WaterfallTestSupport

/// Scoped diffs and subscriptions through the socket of a real (durable) daemon, on seeded random changes with
/// random viewports and anchors: a writer keeps a windowed model with its own scoped results (its viewport moved by
/// its anchors), and subscribers with different viewports keep theirs with their events while they scroll
/// (`moveViewport`, sent while the writer's changes are in flight). After every step, each model's elements equal a
/// fresh `query` of its viewport, and each subscription has received every change's event exactly once, in order,
/// across all its viewport moves.
@Suite(.tags(.server)) struct ScopedSubscriptionTests {
    @Test(.timeLimit(.minutes(3)), arguments: 0..<8 as Range<UInt64>)
    func randomChangesKeepEveryWindowEqualToAQuery(seed: UInt64) async throws {
        try await InProcessDaemon.with { daemon in
            try await Self.run(daemon, seed: seed, maxItems: 40, steps: 40)
        }
    }

    /// Sections of hundreds of items, with viewports far smaller than the layout.
    @Test(.timeLimit(.minutes(3)), arguments: 100..<103 as Range<UInt64>)
    func largeSections(seed: UInt64) async throws {
        try await InProcessDaemon.with { daemon in
            try await Self.run(daemon, seed: seed, maxItems: 600, steps: 25)
        }
    }

    // MARK: Private

    /// One subscriber: its connection, its events, its model, and the seq of the last event it received.
    private struct Subscriber {
        let client: WaterfallClient
        var events: Subscription.AsyncIterator
        var model: WindowedModel
        var lastEvent: Int
    }

    /// A change the writer makes: its commands (a batch when several) and its anchor.
    private struct Plan: Sendable {
        var commands: [LayoutCommand]
        var anchor: ItemPath?
    }

    private static let name = "scoped"

    private static func run(_ daemon: InProcessDaemon, seed: UInt64, maxItems: Int, steps: Int) async throws {
        var random = RandomCommands(seed: seed, maxItems: maxItems)
        let writer = try await WaterfallClient.connect(to: daemon.path)
        _ = try await writer.createLayout(name, random.layout())
        var frames = try await writer.frames(of: name)
        var own = try WindowedModel(try await snapshot(daemon, viewport(&random, frames.contentSize)))
        var subscribers: [Subscriber] = []
        for _ in 0..<3 {
            let client = try await WaterfallClient.connect(to: daemon.path)
            let (events, snapshot) = try await client.subscribe(name, viewport: viewport(&random, frames.contentSize))
            subscribers.append(
                Subscriber(
                    client: client, events: events.makeAsyncIterator(), model: try WindowedModel(snapshot),
                    lastEvent: snapshot.seq))
        }
        for step in 0..<steps {
            let context = "seed \(seed), step \(step)"
            let counts = frames.sections.map(\.count)
            // Planned from the counts at the step's start: a later plan that no longer fits is refused, and skipped.
            var plans: [Plan] = []
            for _ in 0..<random.int(1...3) {
                var commands: [LayoutCommand] = []
                for _ in 0..<(random.chance(0.25) ? random.int(2...3) : 1) {
                    commands.append(random.command(counts: counts))
                }
                let anchor: ItemPath? = random.chance(0.4) ? random.anchor(counts: counts) : nil
                plans.append(Plan(commands: commands, anchor: anchor))
            }
            var moves: [(Int, Viewport)] = []
            for k in subscribers.indices where random.chance(0.25) {
                moves.append((k, viewport(&random, frames.contentSize)))
            }
            if random.chance(0.1) {
                try own.move(to: try await snapshot(daemon, viewport(&random, frames.contentSize)))
            }
            // The moves go out while the changes are made: each lands between two of them, anywhere.
            let held = own
            let clients = subscribers.map(\.client)
            async let written = write(plans, writer, held)
            async let moved = move(moves, clients)
            let seq: Int
            (own, seq) = try await written
            for (k, snapshot) in try await moved {
                #expect(snapshot.seq <= seq, "\(context)")
                try subscribers[k].model.move(to: snapshot)
            }
            for k in subscribers.indices {
                // Events up to a move's seq are the old viewport's, and the model skips them.
                while subscribers[k].lastEvent < seq {
                    guard case .changed(let change)? = try await subscribers[k].events.next() else {
                        Issue.record("\(context): subscriber \(k) got no event after seq \(subscribers[k].lastEvent)")
                        return
                    }
                    #expect(change.seq == subscribers[k].lastEvent + 1, "\(context): subscriber \(k), an event lost")
                    subscribers[k].lastEvent = change.seq
                    try subscribers[k].model.apply(change)
                }
                #expect(subscribers[k].model.seq == seq, "\(context): subscriber \(k)")
            }
            frames = try await writer.frames(of: name)
            var models: [(String, WindowedModel)] = [("the writer", own)]
            for (k, subscriber) in subscribers.enumerated() { models.append(("subscriber \(k)", subscriber.model)) }
            for (who, model) in models {
                let fresh = try await writer.query(name, rect: model.viewport.rect)
                #expect(fresh.seq == model.seq, "\(context): \(who)")
                #expect(model.elements == fresh.elements, "\(context): \(who), viewport \(model.viewport)")
                if model.elements != fresh.elements { return }
            }
        }
        for subscriber in subscribers { subscriber.client.close() }
        writer.close()
    }

    /// Makes each change in turn with the diff scoped to the writer's viewport, and applies its result: the model
    /// after them, and the layout's seq.
    private static func write(
        _ plans: [Plan], _ writer: WaterfallClient, _ model: WindowedModel
    ) async throws -> (WindowedModel, Int) {
        var model = model
        for plan in plans {
            let options = MutationOptions(anchor: plan.anchor, viewport: model.viewport)
            // A plan that no longer fits the layout is refused (and changes nothing): skipped.
            guard let result = try await make(plan, writer, options) else { continue }
            try model.apply(result, commands: plan.commands)
        }
        return (model, try await writer.query(name, rect: Rect(x: 0, y: 0, width: 0, height: 0)).seq)
    }

    /// The result of `plan`'s request (a batch for several commands); nil when the daemon refuses it.
    private static func make(
        _ plan: Plan, _ writer: WaterfallClient, _ options: MutationOptions
    ) async throws -> MutationResult? {
        do {
            if plan.commands.count == 1 { return try await writer.apply(plan.commands[0], to: name, options: options) }
            return try await writer.batch(plan.commands, in: name, options: options)
        } catch  where error.source == .daemon {
            return nil
        }
    }

    /// Scrolls each subscriber named in `moves`: its new viewport's snapshot.
    private static func move(
        _ moves: [(Int, Viewport)], _ clients: [WaterfallClient]
    ) async throws -> [(Int, ViewportSnapshot)] {
        var snapshots: [(Int, ViewportSnapshot)] = []
        for (k, viewport) in moves {
            snapshots.append((k, try await clients[k].moveViewport(of: name, to: viewport)))
        }
        return snapshots
    }

    /// The scoped snapshot of `viewport` now, from a connection of its own (the writer does not subscribe).
    private static func snapshot(_ daemon: InProcessDaemon, _ viewport: Viewport) async throws -> ViewportSnapshot {
        let client = try await WaterfallClient.connect(to: daemon.path)
        defer { client.close() }
        return try await client.subscribe(name, viewport: viewport).snapshot
    }

    /// A random viewport over content of `size`, from a little above it to its bottom, at most 400 high.
    private static func viewport(_ random: inout RandomCommands, _ size: Size) -> Viewport {
        let top = Double(random.int(-50...max(0, Int(size.height))))
        let y: Double = random.chance(0.3) ? top + 0.5 : top
        let height = Double(random.int(1...400))
        return Viewport(y: y, height: random.chance(0.2) ? height + 0.25 : height)
    }
}
